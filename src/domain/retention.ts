// Keeping personal data only as long as needed (issue 43 §4, decision 60): how long the operator keeps a booking's
// personal data after its journey and a VAT invoice after its date, read from the settings; when a booking's time is
// up; whether an address may be erased on request now; and what an erase keeps, and why. The server's daily job and
// its erase on request (src/server/privacy/) and the console's privacy page read these rules.
import { optional, string, type } from 'superstruct';
import type { Settings } from './settings';
import { emailProblem } from './fields';

/** The settings, as src/domain/settingsCatalogue.ts lists them (group 'Records and privacy'). */
export const RETENTION_SETTINGS = { records: 'RECORDS_RETENTION_MONTHS', invoices: 'INVOICE_RETENTION_YEARS' } as const;

/**
 * What each takes. Booking records: at least 12 months (the licensing rules' least: SI 2000/3146 reg. 11 and most
 * councils), at most 10 years. VAT invoices: at least 6 years (HMRC), at most 20.
 */
export const RETENTION_RANGES = {
  records: { min: 12, max: 120, fallback: 12 },
  invoices: { min: 6, max: 20, fallback: 6 },
} as const;

export interface RetentionTimes { recordsMonths: number; invoiceYears: number }

/** A whole number within the range, else the fallback (empty, unreadable or out of range: the default). */
const within = (value: string | undefined, r: { min: number; max: number; fallback: number }): number => {
  const v = (value ?? '').trim();
  if (!/^\d{1,4}$/.test(v)) return r.fallback;
  const n = Number(v);
  return n >= r.min && n <= r.max ? n : r.fallback;
};

/** The retention times the settings give (empty or not a value the console takes: 12 months and 6 years). */
export function retentionTimes(settings: Settings): RetentionTimes {
  return {
    recordsMonths: within(settings[RETENTION_SETTINGS.records], RETENTION_RANGES.records),
    invoiceYears: within(settings[RETENTION_SETTINGS.invoices], RETENTION_RANGES.invoices),
  };
}

/**
 * The instant `months` calendar months before (negative: after) `at`, at the same time of day; a day the month lacks
 * is its last (31 March less one month is 28 or 29 February), as PostgreSQL's interval arithmetic does.
 */
export function addMonths(at: Date, months: number): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(at.getUTCDate(), lastDay), at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()));
}

/** A booking's personal data is kept until `recordsMonths` after its journey: journeys ending before this are past it. */
export const recordsCutoff = (now: Date, t: RetentionTimes): Date => addMonths(now, -t.recordsMonths);
/** Invoices issued before this are past their time. */
export const invoicesCutoff = (now: Date, t: RetentionTimes): Date => addMonths(now, -12 * t.invoiceYears);

/**
 * When a booking's journey ends, for its retention: its pickup, or with a return its return day's end (23:59 UK time,
 * whatever the return's hour). `returnEnd` is that instant when the booking has a return (the server reads it so).
 */
export function journeyEnd(pickupAt: Date, returnEnd: Date | null): Date {
  return returnEnd && returnEnd.getTime() > pickupAt.getTime() ? returnEnd : pickupAt;
}

/** When a booking's personal data goes (the daily job takes it at its first run after this). */
export const personalDataGoesAt = (end: Date, t: RetentionTimes): Date => addMonths(end, t.recordsMonths);

/** The statuses of a booking that is over, whenever its pickup was. */
export const FINISHED_STATUSES: readonly string[] = ['completed', 'cancelled', 'expired', 'no_show'];

/** A booking still to come: not finished, cancelled or expired, and its journey (the later leg) not yet begun. */
export const isStillToCome = (b: { status: string; journeyEnd: Date }, now: Date): boolean =>
  !FINISHED_STATUSES.includes(b.status) && b.journeyEnd.getTime() > now.getTime();

/** Why an address cannot be erased now (a booking of it still to come, by reference), or null. */
export function eraseRefusal(bookings: { booking_number: string; status: string; journeyEnd: Date }[], now: Date): string | null {
  const coming = bookings.filter((b) => isStillToCome(b, now)).map((b) => b.booking_number);
  if (!coming.length) return null;
  const list = coming.length === 1 ? `booking ${coming[0]} is` : `bookings ${coming.join(', ')} are`;
  return `This address cannot be erased yet: ${list} still to come. Cancel or finish ${coming.length === 1 ? 'it' : 'them'} first, or erase after the journey.`;
}

/** What an erase keeps, and why: shown on the console's page before the office confirms, and in every export. */
export const KEPT_ON_ERASE: readonly { what: string; why: string }[] = [
  {
    what: 'VAT invoices and their credit and debit notes, as issued (the buyer\'s name and the journey on them)',
    why: 'HMRC requires VAT records to be kept for 6 years (the "VAT invoices" setting); they are made anonymous when that time is up.',
  },
  {
    what: 'Each booking\'s non-personal record: reference, dates and times, prices and payments, vehicle type, company, status, the driver and car it was dispatched with, and the postcode district of each address',
    why: 'The operator\'s accounts and the licensing record of journeys; none of it names the passenger.',
  },
  {
    what: 'A phone number that answered STOP to texts',
    why: 'So that it is never texted again (the Privacy and Electronic Communications Regulations).',
  },
  {
    what: 'The record that this export or erasure was done: when, by whom, and the address shortened to its first letter and domain',
    why: 'To show the request was handled (UK GDPR accountability).',
  },
];

/** An address as the audit log keeps it after a request: 'o…@example.com'. */
export function maskedEmail(email: string): string {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf('@');
  if (at < 1) return '…';
  return `${e[0]}…${e.slice(at)}`;
}

/**
 * Who may export and erase what is held about a person: administrators only. A request is the operator's decision as
 * the data controller, and the export gathers a person's data from every company; dispatchers take bookings.
 */
export const mayHandlePrivacyRequests = (role: string | null | undefined): boolean => role === 'admin';

/** The body of POST /operator/privacy/export and /erase: the address (its rule, in the form's words: privacyEmailProblem). */
export const PrivacyRequestBody = type({ email: optional(string()) });

/** What is wrong with the address typed on the privacy page, or undefined. */
export const privacyEmailProblem = (email: string | null | undefined): string | undefined => emailProblem(email);

/** A row of a table as the export gives it (a secret is said to exist and named in `withheld`). */
export type ExportRow = Record<string, unknown> & { withheld?: string[] };

/** What POST /operator/privacy/export answers: everything the database holds about an address. */
export interface PrivacyExport {
  email: string;
  exported_at: string;
  /** Each table that holds something about the address, with its rows as stored. */
  sections: { table: string; title: string; holds: string; rows: ExportRow[] }[];
  /** What an erase would keep, and why. */
  kept_on_erase: readonly { what: string; why: string }[];
  /** Whether the address may be erased now, and why not. */
  erase: { allowed: boolean; refusal: string | null };
  retention: { records_months: number; invoice_years: number };
}

/** What POST /operator/privacy/erase answers. */
export interface EraseAnswer {
  /** Bookings made anonymous now; those already anonymous. */
  bookings: number;
  already: number;
  passengers: number;
  /** VAT invoices kept whole until their time. */
  invoices_kept: number;
  kept: readonly { what: string; why: string }[];
}

/** What the console's page says once an address is erased. */
export function erasedWords(e: EraseAnswer): string {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const kept = e.invoices_kept ? ` ${n(e.invoices_kept, 'VAT invoice is', 'VAT invoices are')} kept until their time.` : '';
  return `Erased: ${n(e.bookings, 'booking', 'bookings')} and ${n(e.passengers, 'contact record', 'contact records')} no longer hold this person's data.${kept}`;
}
