// SPEC 5 'Contact form' in the browser: each field checked with the same schema
// the server validates POST /contact-us with (ContactForm in ./contactSchemas), with
// messages a person can act on.
import { validate, type Struct } from 'superstruct';
import { ContactForm } from './contactSchemas';
import { DETAILS_MESSAGES } from './detailsValidation';

export const CONTACT_MESSAGES = {
  reachable: 'Please give an e-mail address or a telephone number so we can reply.',
  bookingNumber: 'Please enter the booking number as it appears on your confirmation, for example BK-7KQ2M9A4.',
} as const;

export type ContactValues = { [K in keyof ContactForm]?: string };

const fails = (field: keyof ContactForm, value: unknown) =>
  validate(value, ContactForm.schema[field] as Struct<unknown, unknown>, { coerce: true })[0] !== undefined;

export function validateContactForm(v: ContactValues): Partial<Record<keyof ContactForm, string>> {
  const e: Partial<Record<keyof ContactForm, string>> = {};
  const email = v.email?.trim() ?? '';
  const telephone = v.telephone?.trim() ?? '';
  if (!email && !telephone) e.email = CONTACT_MESSAGES.reachable;
  else if (email && fails('email', email)) e.email = DETAILS_MESSAGES.emailInvalid;
  if (telephone && fails('telephone', telephone)) e.telephone = DETAILS_MESSAGES.phoneInvalid;
  if (v.bookingNumber?.trim() && fails('bookingNumber', v.bookingNumber.trim())) e.bookingNumber = CONTACT_MESSAGES.bookingNumber;
  return e;
}
