// The field rules that every form and every API body share: one e-mail
// address rule and one free-text rule, so the browser and the server can never
// disagree about what a valid value is.
import { coerce, defaulted, pattern, refine, size, string, unknown } from 'superstruct';
import { isCalendarDate } from './ukTime';
import { EMAIL_INVALID, EMAIL_REQUIRED } from './messages';
import { normaliseTravelReference } from './flightNumbers';

/**
 * One address as name@domain.tld. Beyond the usual shape it refuses what would
 * let a value become several recipients or a header: list and group separators
 * (`,` `;` `:`), angle brackets, quotes, brackets, backslashes, whitespace
 * (line and paragraph separators among it), control characters and the
 * bidirectional controls.
 */
const ADDRESS_PART = String.raw`[^\s@,;:<>()\[\]"\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+`;
export const EMAIL_PATTERN = new RegExp(`^${ADDRESS_PART}@${ADDRESS_PART}\\.${ADDRESS_PART}$`);
export const EMAIL_MAX_LENGTH = 254;

/** The one e-mail rule: forms and API alike (surrounding spaces are ignored). */
export function isEmail(value: string | null | undefined): boolean {
  const v = (value ?? '').trim();
  return v.length >= 3 && v.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(v);
}

/** What is wrong with a form's e-mail field, in SPEC 5's words: nothing typed (when it is required), or not one address. */
export function emailProblem(value: string | null | undefined, required = true): string | undefined {
  if (!value?.trim()) return required ? EMAIL_REQUIRED : undefined;
  return isEmail(value) ? undefined : EMAIL_INVALID;
}

/** One mailbox however it is typed: surrounding spaces and capitals do not make another address. */
export const emailKey = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

/**
 * The mailbox an address delivers to, for counting what the site sends to it (issue 39): as emailKey, and a `+tag`
 * of the local part (which most providers deliver to the same mailbox) is left out, as are Gmail's dots (Gmail
 * ignores them, and googlemail.com is gmail.com). Only for counting: an address is always written as it was given.
 */
export function mailboxKey(value: string | null | undefined): string {
  const key = emailKey(value);
  const at = key.lastIndexOf('@');
  if (at < 1) return key;
  const domain = key.slice(at + 1) === 'googlemail.com' ? 'gmail.com' : key.slice(at + 1);
  const untagged = key.slice(0, at).split('+')[0] || key.slice(0, at);
  return `${domain === 'gmail.com' ? untagged.replaceAll('.', '') : untagged}@${domain}`;
}

/** A real calendar date as YYYY-MM-DD. */
export const CalendarDate = refine(pattern(string(), /^\d{4}-\d{2}-\d{2}$/), 'CalendarDate', (v) =>
  isCalendarDate(v) ? true : `Expected a real date as YYYY-MM-DD but received "${v}"`,
);

const EMAIL_MESSAGE = 'must be one e-mail address, like name@example.com';

/** Text trimmed; anything else as it is (for the schema to refuse). */
const trimText = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** An e-mail address in an API body: trimmed, then checked with the one rule. */
export const Email = coerce(
  refine(string(), 'email', (v) => (isEmail(v) ? true : EMAIL_MESSAGE)),
  // The condition is unknown() and the trim checks the type itself: with string() as the condition, superstruct built
  // an error object for every e-mail field left out (an optional one) just to learn it was not a string.
  unknown(), trimText,
);

/** An e-mail address, or '' where the field may be left empty. */
export const EmailOrEmpty = coerce(
  refine(string(), 'email', (v) => (v === '' || isEmail(v) ? true : EMAIL_MESSAGE)),
  unknown(), trimText,
);

// C0 and C1 control characters (NUL, escape, CR/LF...), the bidirectional embeddings, overrides and isolates
// (U+202A-U+202E, U+2066-U+2069: text that shows in another order than it is, in a mail subject, a log line or the
// operator's board) and the line and paragraph separators (U+2028, U+2029). Multi-line text may hold tab, LF, CR
// and the two separators, which are line breaks too; never the bidirectional controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const CONTROL_IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_IN_MULTILINE : CONTROL).test(value);
}

export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

/**
 * Free text of min..max characters with no control characters (line breaks
 * only where `multiline`); a required field (min > 0) must not be blank.
 */
export function Text(min: number, max: number, opts: { multiline?: boolean } = {}) {
  return refine(size(string(), min, max), 'text', (v) => {
    if (hasControlCharacters(v, opts.multiline)) return CONTROL_CHARACTERS_MESSAGE;
    if (min > 0 && v.trim() === '') return 'must not be blank';
    return true;
  });
}

/** Optional free text: missing means ''. */
export const OptionalText = (max: number, opts: { multiline?: boolean } = {}) => defaulted(Text(0, max, opts), '');

/**
 * SPEC 3's flight, train, port or ferry reference (issue 42): up to 40 characters, a flight stored as airlines write
 * it ("ba0283" is "BA 283"), anything else as typed. Whether it must be one is the booking form's rule, by its
 * addresses (schemas.ts BookingForm, flightNumbers.ts travelReferenceFailure).
 */
export const TravelReference = coerce(OptionalText(40), string(), normaliseTravelReference);
