// What the wizard asks the booking call for (SPEC 7 'booking'): the trip, the vehicle, the passenger and how it is
// paid, under the attempt's Idempotency-Key. The browser's API client turns it into the call's body; the card
// payment sends the same request, so the server knows it by the same key.
import type { BookingForm, BookingType, HourlyRateForm, PriceDetail, RegistrationData, RegistrationMode } from './schemas';

export interface CreateBookingInput {
  idempotencyKey: string;
  bookingType: BookingType;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  vehicle: PriceDetail;
  quantity: number;
  mode: RegistrationMode;
  registration: RegistrationData;
  /** 'account': billed to the signed-in booker's company on its monthly invoice (issue 44). */
  paymentMethod: 'car' | 'card' | 'account';
  /** Paid on account: the values of the account's booking fields, by field id. */
  accountFields?: Record<string, string>;
  /** The signed-in passenger's token: the booking is then theirs. */
  token: string | null;
  /** A card booking's payment (SPEC 7 booking: stripe_session_id and paymentId). */
  stripeSessionId?: string | null;
  paymentId?: string | null;
}
