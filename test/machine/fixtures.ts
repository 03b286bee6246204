// Data the machines are driven with in the model-based tests.
import type {
  BookingForm, BookingResponse, HourlyRateForm, PassengerProfile, PriceDetail, QuoteRequest, RegistrationData,
} from '../../src/domain/schemas';
import type { CardKeyResponse } from '../../src/domain/cardSchemas';
import type { Session } from '../../machines/account';
import type { CreateBookingInput } from '../../src/domain/bookingRequest';

export const settings = { Company_Name: 'Test Cars', GRACE_TIME: '120', CURRENCY: '£' };

export const bookingForm: BookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', select_option: 'one_way',
  return_date: '', return_hour: '', return_min: '', stops: [], passengers: 2, luggages: 1, hand_luggages: 0,
  return_passengers: 0, return_luggages: 0, return_hand_luggages: 0, meet_and_greet: 'no', return_meet_and_greet: 'no',
  baby_seats: 0, booster_seats: 0, return_baby_seats: 0, return_booster_seats: 0, wheel_chair: 'no',
  return_wheel_chair: 'no', special_luggage: 0, return_special_luggage: 0, waiting_min: 0, return_waiting_min: 0,
  pickup_fight_number: '', return_fight_number: '',
};

const price = (vehicle_id: number, company_id: number, amount: string): PriceDetail => ({
  vehicle_id, company_id, company_name: `Company ${company_id}`, vehicle_image: '/storage/vehicles/saloon.svg',
  vehicle_type: 'Saloon', max_seat: 4, luggage: 2, small_luggage: 2, price: amount, final_price: amount,
  breakdown: { currency: '£', final_price: amount, lines: [{ label: 'Journey fare', amount }] },
});
export const prices: PriceDetail[] = [price(1, 1, '49.24'), price(1, 2, '46.76')];

export const registration: RegistrationData = {
  firstName: 'Amelia', surname: 'Hart', number: '+44770090012', email: 'amelia@example.com', // as the details form stores it (E.164)
  passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
};

export const bookingOk: BookingResponse = {
  success: true,
  message: 'Your booking is confirmed.',
  data: {
    booking: {
      id: 1, booking_number: 'BK-ABCDEFGH', ride_type: 'Q', pick_up_address: bookingForm.pickup,
      drop_off_address: bookingForm.dropoff, pick_up_date: '2030-06-01', pick_up_time: '15:05', return_date: null,
      return_time: null, hourly_duration: null, payment_method: 'car', total_booking_amount: '46.76',
      flight_no: null, return_flight_no: null, company_name: 'Company 2', fleet_category: { category_name: 'Saloon' },
    },
    bookingDetail: {
      meet_and_greet: 'no', baby_seat: 0, booster_seat: 0, wheel_chair: 'no', special_luggages: 0,
      waiting_minutes: 0, luggages: 1, hand_luggages: 0, vehicle_qty: 1,
    },
    bookingStops: [],
    passengerDetails: {
      passenger_id: 1, passenger_name: 'Amelia Hart', passenger_email: 'amelia@example.com',
      passenger_contact_no: '+44770090012', total_passengers: 2, additional_info: '',
    },
  },
};

export const bookingRefused: BookingResponse = { success: false, message: 'This vehicle is no longer available' };

export const hourlyForm: HourlyRateForm = {
  pickup: 'Canary Wharf, One Canada Square, London E14 5AB', pickup_date: '2030-06-01', pickup_duration: '6hour',
  pickup_hour: '9am', pickup_min: '00',
};

export const client: RegistrationData = { ...registration, password: 'secret-1', privacyAccepted: true, termsAccepted: true };

export const quoteRequest: QuoteRequest = {
  pickup_address: bookingForm.pickup, dropoff_address: bookingForm.dropoff, pickup_date: '2030-06-01', pickup_time: '15:05',
  passenger_email: 'amelia@example.com', passenger_phone: '+447700900123', passenger_name: 'Amelia Hart', website: '',
  additional_info: '', passengers: 2, luggages: 1,
};

// A signed-in corporate passenger (SPEC 3: passenger_token and passenger_corporate_details).
export const passenger: PassengerProfile = {
  passenger_id: 7, passenger_name: 'Amelia Hart', passenger_email: 'amelia@example.com', passenger_contact_no: '+44770090012',
};
export const session: Session = { token: 'token-stored', passenger };

// SPEC 4 'Card payment': the provider's public key (test mode), and what a card booking sends and gets back.
export const cardKey: CardKeyResponse = { success: true, publishableKey: 'pk_test_51TestCarsKey', testMode: true, stripeJs: null };

/** A booking as the card page pays for it: vehicle 2 (46.76) twice, 93.52 in all, under the wizard's Idempotency-Key. */
export const cardBooking: CreateBookingInput = {
  idempotencyKey: '5f0c4c1e9b7a4d2e8a3b6c9d0e1f2a3b', bookingType: 'milleage', bookingForm, hourlyForm: null,
  vehicle: prices[1], quantity: 2, mode: 'guest_login', registration, paymentMethod: 'card', token: null,
};

export const cardBookingOk: BookingResponse = {
  ...bookingOk,
  data: { ...bookingOk.data!, booking: { ...bookingOk.data!.booking, payment_method: 'card', total_booking_amount: '93.52' } },
};
