// The bodies that carry a phone number a person typed: the quote request (and
// the Quote Now form's checks), the contact form and the profile update (SPEC
// 3, 5 and 7). Kept apart from ./schemas (which re-exports the schemas) because
// they carry the phone rule and its libphonenumber-js metadata (decision 20):
// the first page reads ./schemas and must not load them, so browser code
// imports them from here. Shared by the server and the lazy views.
import { defaulted, enums, integer, nullable, optional, pattern, refine, size, string, type, union, type Infer } from 'superstruct';
import { BookingReferenceOrEmpty } from './bookingReference';
import { CalendarDate, Email, EmailOrEmpty, emailProblem, isEmail, OptionalText, Text } from './fields';
import { isPhone, Phone, PHONE_MESSAGE, PhoneOrEmpty } from './phone';

/**
 * A field hidden from people and assistive technology on the contact and quote forms (src/web/components/Honeypot):
 * only a program filling every input it finds fills it. Such a message is answered as sent and never sent.
 */
export const HONEYPOT_FIELD = 'website';
const Honeypot = defaulted(size(string(), 0, 500), '');

/** Filled in: written by a program, not a person. */
export const isHoneypotFilled = (body: { website?: string }) => Boolean(body[HONEYPOT_FIELD]?.trim());

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
  [HONEYPOT_FIELD]: Honeypot,
});
export type QuoteRequest = Infer<typeof QuoteRequest>;

/** The Quote Now form's checks (SPEC 5 'Quote form'): date, time, e-mail and telephone required; the telephone follows the one phone rule. */
export function validateQuoteForm(v: { pickup_date?: string; pickup_time?: string; passenger_email?: string; passenger_phone?: string | number }) {
  const e: Record<string, string> = {};
  if (!v.pickup_date) e.pickup_date = 'Choose a date';
  if (!v.pickup_time) e.pickup_time = 'Choose a time';
  const email = emailProblem(v.passenger_email);
  if (email) e.passenger_email = email;
  const phone = String(v.passenger_phone ?? '').trim();
  if (!phone) e.passenger_phone = 'Telephone is required';
  else if (!isPhone(phone)) e.passenger_phone = PHONE_MESSAGE;
  return e;
}

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
  [HONEYPOT_FIELD]: Honeypot,
}), 'reachable', (v) => (v.email || v.telephone ? true : 'give an e-mail address or a telephone number so we can reply'));
export type ContactForm = Infer<typeof ContactForm>;

/** PATCH /update-passenger (SPEC 5 'Profile': name and e-mail required; the phone, when given, stored as E.164). passenger_id, when sent, must be the signed-in passenger's. */
export const UpdatePassengerRequest = type({
  name: Text(1, 100),
  email: Email,
  phone: defaulted(PhoneOrEmpty, ''),
  passenger_id: optional(nullable(union([integer(), pattern(string(), /^\d{1,9}$/)]))),
  /** Needed to change the e-mail (a bearer token alone must not be enough to take an account over). */
  current_password: optional(size(string(), 0, 200)),
});
