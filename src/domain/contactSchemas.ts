// The bodies that carry a phone number a person typed: the quote request, the
// contact form and the profile update (SPEC 3, 5 and 7). Kept apart from
// ./schemas (which re-exports them) because they carry the phone rule and its
// libphonenumber-js metadata (decision 20): the first page, which reads
// ./schemas, never loads them. Shared by the server and the lazy views.
import { defaulted, enums, integer, nullable, optional, pattern, refine, size, string, type, union, type Infer } from 'superstruct';
import { BookingReferenceOrEmpty } from './bookingReference';
import { CalendarDate, Email, EmailOrEmpty, OptionalText, Text } from './fields';
import { Phone, PhoneOrEmpty } from './phone';

/** SPEC 3 'Quote request' with SPEC 5 'Quote form' rules: date, time, e-mail and telephone required. */
export const QuoteRequest = type({
  pickup_address: OptionalText(300),
  dropoff_address: OptionalText(300),
  pickup_date: CalendarDate,
  pickup_time: pattern(string(), /^([01]\d|2[0-3]):[0-5]\d$/),
  passenger_email: Email,
  passenger_phone: Phone,
  passenger_name: OptionalText(200),
  additional_info: OptionalText(2000, { multiline: true }),
  passengers: defaulted(size(integer(), 1, 50), 1),
  luggages: defaulted(size(integer(), 0, 20), 0),
});
export type QuoteRequest = Infer<typeof QuoteRequest>;

export const QUERY_REASONS = ['Booking', 'Invoice', 'Complaint', 'Lost Item', 'Other'] as const;

/**
 * SPEC 3 'Contact form'. The telephone follows the one phone rule (digits, spaces, a leading +; stored as E.164) and
 * the booking number is a reference as the site issues it (BK-7Q2M9XKD); decision 20. Either may be left empty, but
 * there must be an e-mail address or a telephone number to reply to.
 */
export const ContactForm = refine(type({
  firstName: OptionalText(100),
  lastName: OptionalText(100),
  email: defaulted(EmailOrEmpty, ''),
  telephone: defaulted(PhoneOrEmpty, ''),
  queryReason: defaulted(enums(QUERY_REASONS), 'Booking'),
  bookingNumber: defaulted(BookingReferenceOrEmpty, ''),
  comments: OptionalText(5000, { multiline: true }),
}), 'reachable', (v) => (v.email || v.telephone ? true : 'give an e-mail address or a telephone number so we can reply'));
export type ContactForm = Infer<typeof ContactForm>;

/** PATCH /update-passenger (SPEC 5 'Profile': name and e-mail required; the phone, when given, stored as E.164). passenger_id, when sent, must be the signed-in passenger's. */
export const UpdatePassengerRequest = type({
  name: Text(1, 100),
  email: Email,
  phone: defaulted(PhoneOrEmpty, ''),
  passenger_id: optional(nullable(union([integer(), pattern(string(), /^\d{1,9}$/)]))),
});
