// The one phone number rule (decision 20): every phone field of every form and
// every API body. A number is accepted when it is written with digits, spaces
// (hyphens and brackets too) and at most a leading +, and it is either
//  - a number libphonenumber-js judges valid, read as a UK number unless it
//    starts with + or 00 (07700 900123 is the same number as +44 7700 900123), or
//  - SPEC 5's '+xxx xxx xxx xxx', whatever the spacing: + and 10 to 12 digits.
// It is stored as E.164 (+447911123456) and shown formatted (+44 7911 123456).
//
// libphonenumber-js and its metadata stay off the first page: only lazily
// loaded views and the server import this module. Code on the first page (the
// booking machine) checks the stored form with `isStoredPhone` (./detailsValidation).
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { coerce, number, refine, string, union } from 'superstruct';
import { PHONE_MESSAGE } from './messages';

export { PHONE_MESSAGE };
export const PHONE_MAX_LENGTH = 30;

/** What a person may type: digits and separators, with at most one + in front. */
const TYPED = /^\+?[\d\s()-]+$/;
/** SPEC 5's pattern without its spaces: a plus sign, 1 to 3 digits, then 9 digits. */
const SPEC_DIGITS = /^\+\d{10,12}$/;
/**
 * Ofcom's numbers reserved for drama (07700 900000-900999, 01632 960000-960999, 0115 496 0000-0999): the numbers
 * used in examples and tests. libphonenumber-js calls them unallocated; the rest of Ofcom's list it accepts already.
 */
const OFCOM_DRAMA = /^\+44(?:7700900|1632960|1154960)\d{3}$/;

/** The number as stored (E.164, e.g. +447911123456), or null when it is not a valid phone number. */
export function normalisePhone(text: string | number | null | undefined): string | null {
  const typed = String(text ?? '').trim();
  if (typed.length === 0 || typed.length > PHONE_MAX_LENGTH || !TYPED.test(typed)) return null;
  const compact = typed.replace(/[\s()-]/g, '');
  const parsed = parsePhoneNumberFromString(typed, { defaultCountry: 'GB', extract: false });
  if (parsed && !parsed.ext && (parsed.isValid() || OFCOM_DRAMA.test(parsed.number))) return parsed.number;
  return SPEC_DIGITS.test(compact) ? compact : null;
}

export function isPhone(text: string | number | null | undefined): boolean {
  return normalisePhone(text) !== null;
}

/**
 * A stored number as a person reads it: international format for a number libphonenumber-js knows
 * (+44 7911 123456, +44 20 7946 0321), SPEC 5's groups for the others (+123 456 789 012). Anything else (an
 * older record) is shown as it was written.
 */
export function formatPhone(stored: string | null | undefined): string {
  const value = (stored ?? '').trim();
  const e164 = normalisePhone(value);
  if (!e164) return value;
  const parsed = parsePhoneNumberFromString(e164);
  if (parsed && (parsed.isValid() || OFCOM_DRAMA.test(e164))) return parsed.formatInternational();
  const m = /^\+(\d{1,3})(\d{3})(\d{3})(\d{3})$/.exec(e164)!;
  return `+${m.slice(1).join(' ')}`;
}

/** A phone in an API body (text, or a number from a number input): stored as E.164; anything else is refused with SPEC 5's text. */
export const Phone = coerce(
  refine(string(), 'phone', (v) => (normalisePhone(v) === v ? true : PHONE_MESSAGE)),
  union([string(), number()]),
  (v) => normalisePhone(v) ?? String(v),
);

/** A phone that may be left empty (''). */
export const PhoneOrEmpty = coerce(
  refine(string(), 'phone', (v) => (v === '' || normalisePhone(v) === v ? true : PHONE_MESSAGE)),
  union([string(), number()]),
  (v) => (String(v).trim() === '' ? '' : normalisePhone(v) ?? String(v)),
);
