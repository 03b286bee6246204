// The bodies the API receives that only the server checks (SPEC 7): the browser builds them (their types come from
// here) but never validates them, so they stay out of its first page. The forms inside them (BookingForm,
// HourlyRateForm, RegistrationData) are in ./schemas, which the browser checks too.
import { defaulted, enums, integer, nullable, object, optional, pattern, record, size, string, type, unknown, type Infer } from 'superstruct';
import { Email, Text } from './fields';
import { BookingType, RegistrationData, RegistrationMode } from './schemas';

export const DistanceRequest = object({ pickup: Text(1, 300), dropoff: Text(1, 300) });

export const PaymentMethod = enums(['car', 'card', 'account']);

/** A booking paid on account (issue 44): the values of the account's booking fields, by field id. */
export const AccountFieldValues = record(pattern(string(), /^\d{1,9}$/), size(string(), 0, 200));

/** Body of POST /api/v1/booking (SPEC 7). */
export const BookingRequest = type({
  selectedVehicleData: type({ vehicle_id: integer(), company_id: integer() }),
  selectedVehicle: defaulted(size(integer(), 1, 6), 1),
  bookingType: BookingType,
  // Checked against BookingForm or HourlyRateForm by booking type, so errors name e.g. bookingForm.pickup.
  bookingForm: optional(nullable(record(string(), unknown()))),
  hourlyRateForm: optional(nullable(record(string(), unknown()))),
  registrationData: RegistrationData,
  payment_method: PaymentMethod,
  selected_passenger: defaulted(RegistrationMode, 'guest_login'),
  stripe_session_id: optional(nullable(Text(0, 255))),
  paymentId: optional(nullable(Text(0, 255))),
  account_fields: optional(AccountFieldValues),
});
export type BookingRequest = Infer<typeof BookingRequest>;

/** POST /check-passenger-email. */
export const CheckEmailRequest = object({
  email: Email,
  password: size(string(), 1, 200),
});

/** SPEC 7 auth calls of the forgot-password flow. */
const clientType = defaulted(Text(0, 40), 'website');
export const ForgotPasswordRequest = type({ email: Email, type: clientType });
export const VerifyCodeRequest = type({ email: Email, code: pattern(string(), /^\d{6}$/) });
export const ResetPasswordRequest = type({
  email: Email, code: pattern(string(), /^\d{6}$/), new_password: size(string(), 6, 200), type: clientType,
});

/** POST /check-passenger-login. */
export const PassengerLoginRequest = object({ email: Email, password: size(string(), 1, 200) });
