// SPEC 3 and 7: the shapes of the API bodies and of what the browser stores, as src/domain/schemas.ts declares
// them. The server validates every body with them and the browser checks what it reads back, so each shape must
// accept what the site sends and refuse what it never would (the API tests check the calls; these, the rules).
import { describe, expect, it } from 'vitest';
import { create, is, validate, type Struct } from 'superstruct';
import { AddressItem, ApiError, AuthResponse, BookingDetail, BookingForm, BookingRecord, BookingResponse, BookingResult, BookingStopRecord, BookingType, CheckEmailResponse, Company, CorporateBooking, DistanceResult, FleetVehicle, Hour12, HourlyRateDraft, HourlyRateForm, LatLon, Minute, PassengerDetail, PassengerLoginResponse, PassengerProfile, PriceBreakdown, PriceDetail, PriceResponse, RegistrationData, RegistrationDraft, RegistrationMode, Setting, Stop, UpdatePassengerResponse } from '../../src/domain/schemas';
import { BookingRequest, CheckEmailRequest, DistanceRequest, ForgotPasswordRequest, PassengerLoginRequest, PaymentMethod, ResetPasswordRequest, VerifyCodeRequest } from '../../src/domain/requestSchemas';
import { bookingForm, bookingOk, hourlyForm, passenger, prices, registration } from '../machine/fixtures';

/** The first failure's message, or null when the value passes (after coercion and defaults). */
const failure = (value: unknown, struct: Struct<any, any>): string | null =>
  validate(value, struct, { coerce: true })[0]?.failures()[0].message ?? null;
/** The path of the first failure, e.g. 'pickup', or null. */
const failingKey = (value: unknown, struct: Struct<any, any>): string | null =>
  validate(value, struct, { coerce: true })[0]?.path.join('.') ?? null;

const result = bookingOk.data!;
const corporate = {
  ...result.booking, booking_details: result.bookingDetail, booking_stops: [{ id: 1, stop_address: 'Oxford Street', stop_post_code: 'W1D 1BS', stop_street_number: '10' }],
  passenger_detail: result.passengerDetails,
};

describe('every response and record shape accepts what the server sends and refuses an empty object', () => {
  const samples: [string, Struct<any, any>, unknown][] = [
    ['Setting', Setting, { setting_name: 'CURRENCY', setting_value: '£' }],
    ['Company', Company, { id: 1, company: { company_name: 'Albion' } }],
    ['FleetVehicle', FleetVehicle, { tbms_vid: 1, vehicle_img: '/v.svg', category_name: 'Saloon', seats: 4, hand_luggage: 2, luggage: 2 }],
    ['AddressItem', AddressItem, { id: 3, address: 'Heathrow Terminal 5' }],
    ['PriceBreakdown', PriceBreakdown, prices[0].breakdown],
    ['PriceDetail', PriceDetail, prices[0]],
    ['PriceResponse', PriceResponse, { price_details: prices, via_miles: 16.2, time_duration: 2400, estimated: false }],
    ['DistanceRequest', DistanceRequest, { pickup: 'Heathrow', dropoff: 'Gatwick' }],
    ['DistanceResult', DistanceResult, { via_miles: 40.5, time_duration: 3600 }],
    ['LatLon', LatLon, { lat: 51.47, lon: -0.45 }],
    ['BookingRecord', BookingRecord, result.booking],
    ['BookingDetail', BookingDetail, result.bookingDetail],
    ['BookingStopRecord', BookingStopRecord, corporate.booking_stops[0]],
    ['PassengerDetail', PassengerDetail, result.passengerDetails],
    ['BookingResult', BookingResult, result],
    ['BookingResponse', BookingResponse, bookingOk],
    ['ApiError', ApiError, { success: false, message: 'Address is banned', field: 'pickup' }],
    ['CheckEmailRequest', CheckEmailRequest, { email: 'a@b.co', password: 'x' }],
    ['CheckEmailResponse', CheckEmailResponse, { success: true, found: true, message: 'Email found. Proceeding to payment.' }],
    ['AuthResponse', AuthResponse, { success: true, message: 'A reset code has been sent to your email.' }],
    ['PassengerProfile', PassengerProfile, passenger],
    ['PassengerLoginRequest', PassengerLoginRequest, { email: 'a@b.co', password: 'secret' }],
    ['PassengerLoginResponse', PassengerLoginResponse, { success: true, message: 'Login Successfully', access_token: 't', passenger }],
    ['UpdatePassengerResponse', UpdatePassengerResponse, { success: true, message: 'Passenger Details Updated', passenger }],
    ['CorporateBooking', CorporateBooking, corporate],
    ['HourlyRateForm', HourlyRateForm, hourlyForm],
    ['BookingForm', BookingForm, bookingForm],
    ['RegistrationData', RegistrationData, registration],
    ['RegistrationDraft', RegistrationDraft, { ...registration, email: '' }],
    ['ForgotPasswordRequest', ForgotPasswordRequest, { email: 'a@b.co' }],
    ['VerifyCodeRequest', VerifyCodeRequest, { email: 'a@b.co', code: '123456' }],
    ['ResetPasswordRequest', ResetPasswordRequest, { email: 'a@b.co', code: '123456', new_password: 'secret' }],
    ['Stop', Stop, { street_name: 'Oxford Street', number: '10', postcode: 'W1D 1BS' }],
  ];
  it.each(samples)('%s', (_name, struct, sample) => {
    expect(failure(sample, struct)).toBeNull();
    expect(failure({}, struct)).not.toBeNull();
  });

  it('names the missing field of a record, so a changed server answer is caught where it changed', () => {
    const { company_name: _c, ...noCompany } = result.booking;
    expect(failingKey(noCompany, BookingRecord)).toBe('company_name');
    const { vehicle_qty: _q, ...noQuantity } = result.bookingDetail;
    expect(failingKey(noQuantity, BookingDetail)).toBe('vehicle_qty');
    const { passenger_contact_no: _p, ...noPhone } = result.passengerDetails;
    expect(failingKey(noPhone, PassengerDetail)).toBe('passenger_contact_no');
    expect(failingKey({ ...corporate, booking_details: undefined }, CorporateBooking)).toBe('booking_details');
    expect(failingKey({ ...corporate, pick_up_time: undefined }, CorporateBooking)).toBe('pick_up_time');
    expect(failingKey({ ...prices[0], breakdown: { currency: '£', final_price: '1.00' } }, PriceDetail)).toBe('breakdown.lines');
    expect(failingKey({ ...result, bookingStops: [{ id: 1 }] }, BookingResult)).toBe('bookingStops.0.stop_address');
  });

  it('reads an error body only when success is false', () => {
    expect(is({ success: true, message: 'x' }, ApiError)).toBe(false);
    expect(is({ success: false, message: 'x' }, ApiError)).toBe(true);
  });

  it('keeps a stop to its three fields', () => {
    expect(failingKey({ street_name: 'Oxford Street', door: 'blue' }, Stop)).toBe('door');
    expect(create({ street_name: 'Oxford Street' }, Stop)).toEqual({ street_name: 'Oxford Street', number: '', postcode: '' });
  });
});

describe('the booking form (SPEC 3)', () => {
  it('takes the 12-hour clock as the form stores it: 12am, 1am .. 11pm', () => {
    for (const h of ['12am', '1am', '9am', '10am', '11am', '12pm', '1pm', '9pm', '11pm']) expect(is(h, Hour12), h).toBe(true);
    for (const h of ['0am', '13pm', '00am', '1', 'am', '1 pm', '1AM', 'x1am', '1amx', '10', '19pm', '']) expect(is(h, Hour12), h).toBe(false);
  });

  it('takes minutes in steps of five, as two digits', () => {
    for (const m of ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']) expect(is(m, Minute), m).toBe(true);
    for (const m of ['0', '5', '01', '60', '']) expect(is(m, Minute), m).toBe(false);
  });

  it('fills what a one-way trip leaves out with SPEC 3 defaults', () => {
    const minimal = { pickup: 'Heathrow', dropoff: 'Gatwick', pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05' };
    expect(create(minimal, BookingForm)).toEqual({
      ...minimal, select_option: 'one_way', return_date: '', return_hour: '', return_min: '', stops: [],
      passengers: 0, luggages: 0, hand_luggages: 0, return_passengers: 0, return_luggages: 0, return_hand_luggages: 0,
      meet_and_greet: 'no', return_meet_and_greet: 'no', baby_seats: 0, booster_seats: 0, return_baby_seats: 0,
      return_booster_seats: 0, wheel_chair: 'no', return_wheel_chair: 'no', special_luggage: 0, return_special_luggage: 0,
      waiting_min: 0, return_waiting_min: 0, pickup_fight_number: '', return_fight_number: '',
    });
  });

  it('takes a return trip with its date, hour and minute', () => {
    const trip = { ...bookingForm, select_option: 'return', return_date: '2030-06-03', return_hour: '11pm', return_min: '55', meet_and_greet: 'yes', wheel_chair: 'yes', return_meet_and_greet: 'yes', return_wheel_chair: 'yes' };
    expect(failure(trip, BookingForm)).toBeNull();
    expect(failingKey({ ...trip, select_option: 'both' }, BookingForm)).toBe('select_option');
    expect(failingKey({ ...trip, return_date: '2030-02-30' }, BookingForm)).toBe('return_date');
    expect(failingKey({ ...trip, return_hour: '13pm' }, BookingForm)).toBe('return_hour');
    expect(failingKey({ ...trip, return_min: '07' }, BookingForm)).toBe('return_min');
    expect(failingKey({ ...trip, meet_and_greet: 'maybe' }, BookingForm)).toBe('meet_and_greet');
  });

  it('refuses each missing or wrong required field by its name', () => {
    expect(failingKey({ ...bookingForm, pickup: undefined }, BookingForm)).toBe('pickup');
    expect(failingKey({ ...bookingForm, dropoff: '' }, BookingForm)).toBe('dropoff');
    expect(failingKey({ ...bookingForm, pickup_date: '01-06-2030' }, BookingForm)).toBe('pickup_date');
    expect(failingKey({ ...bookingForm, pickup_hour: '15' }, BookingForm)).toBe('pickup_hour');
    expect(failingKey({ ...bookingForm, pickup_min: '03' }, BookingForm)).toBe('pickup_min');
  });

  it('counts passengers, luggage and extras from 0 to their limits', () => {
    const limits: [keyof BookingForm, number][] = [
      ['passengers', 50], ['luggages', 20], ['hand_luggages', 20], ['return_passengers', 50], ['return_luggages', 20],
      ['return_hand_luggages', 20], ['baby_seats', 15], ['booster_seats', 15], ['return_baby_seats', 15], ['return_booster_seats', 15],
      ['special_luggage', 15], ['return_special_luggage', 15],
    ];
    for (const [key, max] of limits) {
      expect(failure({ ...bookingForm, [key]: max }, BookingForm), key).toBeNull();
      expect(failingKey({ ...bookingForm, [key]: max + 1 }, BookingForm), key).toBe(key);
      expect(failingKey({ ...bookingForm, [key]: -1 }, BookingForm), key).toBe(key);
      expect(failingKey({ ...bookingForm, [key]: 1.5 }, BookingForm), key).toBe(key);
    }
  });

  it('takes waiting time in minutes that are a multiple of 5, up to 100', () => {
    for (const key of ['waiting_min', 'return_waiting_min'] as const) {
      expect(create({ ...bookingForm, [key]: 100 }, BookingForm)[key]).toBe(100);
      expect(failure({ ...bookingForm, [key]: 7 }, BookingForm)).toBe('must be a multiple of 5');
      expect(failingKey({ ...bookingForm, [key]: 105 }, BookingForm)).toBe(key);
    }
  });

  it('takes up to 10 stops, each with a street name', () => {
    const stop = { street_name: 'Oxford Street', number: '', postcode: '' };
    expect(failure({ ...bookingForm, stops: Array(10).fill(stop) }, BookingForm)).toBeNull();
    expect(failingKey({ ...bookingForm, stops: Array(11).fill(stop) }, BookingForm)).toBe('stops');
    expect(failingKey({ ...bookingForm, stops: [{ street_name: ' ' }] }, BookingForm)).toBe('stops.0.street_name');
  });
});

describe('the hourly form (SPEC 3)', () => {
  it('hires a car for 4 to 24 hours', () => {
    for (let h = 4; h <= 24; h++) expect(failure({ ...hourlyForm, pickup_duration: `${h}hour` }, HourlyRateForm), `${h}hour`).toBeNull();
    for (const d of ['3hour', '25hour', '30hour', '0hour', '4 hour', '4hours', 'x4hour', '10', '']) {
      expect(failingKey({ ...hourlyForm, pickup_duration: d }, HourlyRateForm), d).toBe('pickup_duration');
    }
  });

  it('refuses a missing pickup, date, hour or minute', () => {
    for (const key of ['pickup', 'pickup_date', 'pickup_hour', 'pickup_min'] as const) {
      expect(failingKey({ ...hourlyForm, [key]: undefined }, HourlyRateForm), key).toBe(key);
    }
    expect(failure({ ...hourlyForm, userLocation: { lat: 51.5, lon: -0.1 } }, HourlyRateForm)).toBeNull();
    expect(failingKey({ ...hourlyForm, userLocation: { lat: '51.5' } }, HourlyRateForm)).toBe('userLocation.lat');
  });

  it('saves a half-filled form, within the sizes of each field', () => {
    expect(failure({}, HourlyRateDraft)).toBeNull();
    expect(failure({ pickup: 'Canary', pickup_duration: '24hour', pickup_hour: '12am', pickup_min: '05', pickup_date: '2030-06-01' }, HourlyRateDraft)).toBeNull();
    expect(failingKey({ pickup_duration: '100hours' }, HourlyRateDraft)).toBe('pickup_duration');
    expect(failingKey({ pickup_hour: '12 am' }, HourlyRateDraft)).toBe('pickup_hour');
    expect(failingKey({ pickup_min: '005' }, HourlyRateDraft)).toBe('pickup_min');
    expect(failingKey({ pickup_date: '2030-06-011' }, HourlyRateDraft)).toBe('pickup_date');
    expect(failingKey({ pickup: 'x'.repeat(301) }, HourlyRateDraft)).toBe('pickup');
    expect(failingKey({ userLocation: { lat: 1 } }, HourlyRateDraft)).toBe('userLocation.lon');
  });
});

describe('the booking call (SPEC 7)', () => {
  const body = {
    selectedVehicleData: { vehicle_id: 1, company_id: 2 }, bookingType: 'milleage', bookingForm, registrationData: registration,
    payment_method: 'car',
  };

  it('takes a mileage or an hourly booking, paid in the car or by card, and defaults the rest', () => {
    expect(create(body, BookingRequest)).toMatchObject({ selectedVehicle: 1, selected_passenger: 'guest_login' });
    expect(failure({ ...body, bookingType: 'hourly', bookingForm: null, hourlyRateForm: hourlyForm, payment_method: 'card' }, BookingRequest)).toBeNull();
    expect(['milleage', 'hourly'].map((t) => is(t, BookingType))).toEqual([true, true]);
    expect(['car', 'card'].map((m) => is(m, PaymentMethod))).toEqual([true, true]);
    expect(['guest_login', 'new_client', 'existing_client'].map((m) => is(m, RegistrationMode))).toEqual([true, true, true]);
    expect(is('mileage', BookingType) || is('cash', PaymentMethod) || is('guest', RegistrationMode)).toBe(false);
  });

  it('refuses what it cannot book', () => {
    expect(failingKey({ ...body, bookingType: 'daily' }, BookingRequest)).toBe('bookingType');
    expect(failingKey({ ...body, payment_method: 'cash' }, BookingRequest)).toBe('payment_method');
    expect(failingKey({ ...body, selectedVehicle: 7 }, BookingRequest)).toBe('selectedVehicle');
    expect(failingKey({ ...body, selectedVehicleData: { vehicle_id: 1 } }, BookingRequest)).toBe('selectedVehicleData.company_id');
    expect(failingKey({ ...body, registrationData: { ...registration, email: 'amelia' } }, BookingRequest)).toBe('registrationData.email');
    expect(failingKey({ ...body, selected_passenger: 'admin' }, BookingRequest)).toBe('selected_passenger');
  });

  it('takes the details a person typed, with one e-mail address and notes on several lines', () => {
    const typed = {
      ...registration, passengerDetails: 'yes', passengerName: 'Ben', passengerLastname: 'Hart', passengerEmail: '',
      passengerPhone: '07700 900123', additionalInfo: 'Two cases.\nOne pushchair.', return_additionalInfo: 'Gate 3\r\nthanks',
    };
    expect(failure(typed, RegistrationData)).toBeNull();
    expect(create({ email: 'a@b.co' }, RegistrationData)).toEqual({
      firstName: '', surname: '', number: '', email: 'a@b.co', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
    });
    expect(failingKey({ ...typed, passengerDetails: 'maybe' }, RegistrationData)).toBe('passengerDetails');
    expect(failingKey({ ...typed, passengerEmail: 'ben@' }, RegistrationData)).toBe('passengerEmail');
    expect(failingKey({ ...typed, firstName: 'A\nB' }, RegistrationData)).toBe('firstName');
    expect(failingKey({ ...typed, email: '' }, RegistrationData)).toBe('email');
    // The draft saved while typing may not have the e-mail yet.
    expect(failure({ ...typed, email: '' }, RegistrationDraft)).toBeNull();
    expect(failingKey({ ...typed, email: 'a@' }, RegistrationDraft)).toBe('email');
  });
});

describe('the sign-in and password reset calls (SPEC 7)', () => {
  it('tells the server which client asks, the website unless said', () => {
    expect(create({ email: ' a@b.co ' }, ForgotPasswordRequest)).toEqual({ email: 'a@b.co', type: 'website' });
    expect(create({ email: 'a@b.co', type: 'app' }, ForgotPasswordRequest)).toEqual({ email: 'a@b.co', type: 'app' });
    expect(create({ email: 'a@b.co', code: '123456', new_password: 'secret' }, ResetPasswordRequest).type).toBe('website');
  });

  it('takes a six-digit code and a new password of at least 6 characters', () => {
    for (const code of ['12345', '1234567', 'abcdef', '12345x', ' 123456']) {
      expect(failingKey({ email: 'a@b.co', code }, VerifyCodeRequest), code).toBe('code');
      expect(failingKey({ email: 'a@b.co', code, new_password: 'secret' }, ResetPasswordRequest), code).toBe('code');
    }
    expect(failingKey({ email: 'a@b.co', code: '123456', new_password: 'short' }, ResetPasswordRequest)).toBe('new_password');
  });

  it('needs a password to sign in or check an e-mail, and one address', () => {
    for (const struct of [PassengerLoginRequest, CheckEmailRequest]) {
      expect(failingKey({ email: 'a@b.co', password: '' }, struct)).toBe('password');
      expect(failingKey({ email: 'a@b.co, c@d.co', password: 'x' }, struct)).toBe('email');
    }
  });
});
