// Complaints and lost property (issue 43 §3, decision 61): the two registers a licensed operator keeps beside its
// booking records. London's regulation 15 (SI 2000/3146) asks of lost property found: the date, the place, the
// vehicle, a description, the attempts to return it and its disposal; of property reported lost: the date reported,
// the date and place lost, a description and the searches made. Councils ask of a complaint: the booking's date, the
// driver, the vehicle, the complainant and how to reach them, its nature, the investigation and the action taken.
// These are the forms' rules, for the console's forms and the server alike (the server also checks that a booking
// reference names a booking the viewer may see), and who may do what with an entry.
import { emailProblem } from './fields';
import { isCalendarDate } from './ukTime';
import { isPhone, normalisePhone } from './phone';
import { normaliseBookingReference } from './bookingReference';
import type { FormErrors } from './operatorDesk';
import { optional, string, type, type Struct } from 'superstruct';

export const REGISTERS = ['complaints', 'lost-property'] as const;
/** A register by the name its address uses (/operator/complaints, /operator/lost-property). */
export type Register = typeof REGISTERS[number];
export const isRegister = (v: string): v is Register => (REGISTERS as readonly string[]).includes(v);
export const REGISTER_LABELS: Record<Register, { title: string; one: string; prefix: string }> = {
  complaints: { title: 'Complaints', one: 'Complaint', prefix: 'C' },
  'lost-property': { title: 'Lost property', one: 'Lost property', prefix: 'LP' },
};
/** An entry as people name it: C-0012, LP-0003. */
export const entryNumber = (register: Register, id: number) => `${REGISTER_LABELS[register].prefix}-${String(id).padStart(4, '0')}`;

/** How the office heard of it. */
export const SOURCES = ['contact_form', 'phone', 'email', 'in_person', 'driver'] as const;
export type Source = typeof SOURCES[number];
export const SOURCE_LABELS: Record<Source, string> = {
  contact_form: 'Contact Us form', phone: 'Phone', email: 'E-mail', in_person: 'In person', driver: 'Driver',
};
/** What the office may choose in its own form (the Contact Us form and the driver's page open their own). */
export const OFFICE_SOURCES: Source[] = ['phone', 'email', 'in_person', 'driver'];

export const LOST_KINDS = ['found', 'reported'] as const;
export type LostKind = typeof LOST_KINDS[number];
export const LOST_KIND_LABELS: Record<LostKind, string> = { found: 'Found in a car', reported: 'Reported lost' };

export const ENTRY_STATUSES = ['open', 'closed'] as const;
export type EntryStatus = typeof ENTRY_STATUSES[number];

/** The longest a name, e-mail, phone or place may be; the longest a narrative (nature, investigation, notes...) may be. */
export const SHORT_TEXT = 200;
export const LONG_TEXT = 4000;

/** What the office, the Contact Us form and the driver's page fill in, common to both registers. */
export interface EntryCommonInput {
  booking_reference: string; booking_date: string; contact_name: string; contact_email: string; contact_phone: string;
  source: string; notes: string;
}
export interface ComplaintInput extends EntryCommonInput { nature: string; investigation: string; action_taken: string }
export interface LostItemInput extends EntryCommonInput {
  kind: string; description: string; found_on: string; found_place: string; return_attempts: string; disposal: string;
  reported_on: string; lost_on: string; lost_place: string; searches: string;
}
export interface CloseInput { outcome: string }
/** A driver's "found item" on one of their jobs (the driver's page). */
export interface FoundItemInput { description: string; found_place: string }

export const COMPLAINT_FIELDS: (keyof ComplaintInput)[] = [
  'booking_reference', 'booking_date', 'contact_name', 'contact_email', 'contact_phone', 'source', 'nature', 'investigation', 'action_taken', 'notes',
];
export const LOST_ITEM_FIELDS: (keyof LostItemInput)[] = [
  'kind', 'booking_reference', 'booking_date', 'contact_name', 'contact_email', 'contact_phone', 'source', 'description', 'found_on',
  'found_place', 'return_attempts', 'disposal', 'reported_on', 'lost_on', 'lost_place', 'searches', 'notes',
];

/** Text, or the field left out: the bodies check types only, the rules above say what a value must be (consoleSchemas.ts). */
const text = optional(string());
const bodyOf = <T>(fields: (keyof T)[]) => type(Object.fromEntries(fields.map((f) => [f, text]))) as unknown as Struct<Partial<Record<keyof T, string>>, null>;
/** POST and PUT /operator/casework/complaints[/id]. */
export const ComplaintBody = bodyOf<ComplaintInput>(COMPLAINT_FIELDS);
/** POST and PUT /operator/casework/lost-property[/id]. */
export const LostItemBody = bodyOf<LostItemInput>(LOST_ITEM_FIELDS);
/** POST /operator/casework/{register}/{id}/close. */
export const CloseBody = bodyOf<CloseInput>(['outcome']);
/** POST /driver/jobs/{reference}/found. */
export const FoundItemBody = bodyOf<FoundItemInput>(['description', 'found_place']);

type Loose<T> = Partial<Record<keyof T, unknown>>;
const textOf = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

function set<T>(errors: FormErrors<T>, field: keyof T, message: string | undefined): void {
  if (message && !errors[field]) errors[field] = message;
}

function textProblem(value: string, what: string, max: number, required = false): string | undefined {
  if (!value) return required ? `Enter ${what}.` : undefined;
  return value.length > max ? `Keep ${what} to ${max} characters at most (this is ${value.length}).` : undefined;
}

/** A date the form may leave empty; when given, a real date, and (`notAfter`) not later than today. */
function dateProblem(value: string, what: string, today: string, opts: { required?: boolean; notAfter?: boolean } = {}): string | undefined {
  if (!value) return opts.required ? `Enter the ${what}.` : undefined;
  if (!isCalendarDate(value)) return `Enter the ${what} as a date, e.g. 2027-03-31.`;
  if (opts.notAfter && value > today) return `The ${what} cannot be in the future.`;
  return undefined;
}

/** A booking reference as the site issues them, when one is typed ('' when none is: an entry may concern no booking). */
export const bookingReferenceOf = (typed: unknown): string => {
  const text = textOf(typed);
  return text ? normaliseBookingReference(text) ?? text.toUpperCase() : '';
};

function commonErrors<T extends EntryCommonInput>(e: Loose<T>, today: string, errors: FormErrors<T>): void {
  const reference = textOf(e.booking_reference);
  if (reference && !normaliseBookingReference(reference)) {
    set(errors, 'booking_reference', 'Enter the booking reference as on the confirmation, e.g. BK-7Q2M9XKD, or leave it empty.');
  }
  set(errors, 'booking_date', dateProblem(textOf(e.booking_date), 'date of the journey', today));
  set(errors, 'contact_name', textProblem(textOf(e.contact_name), 'the name', SHORT_TEXT));
  set(errors, 'contact_email', emailProblem(textOf(e.contact_email), false));
  const phone = textOf(e.contact_phone);
  if (phone.length > 40 || (phone && !isPhone(phone))) set(errors, 'contact_phone', 'Enter a telephone number, e.g. 07700 900123, or leave it empty.');
  if (!(SOURCES as readonly string[]).includes(textOf(e.source))) set(errors, 'source', 'Choose how it reached the office.');
  set(errors, 'notes', textProblem(textOf(e.notes), 'the notes', LONG_TEXT));
}

/** The complaint form's rules: field -> message. `today` is the UK day (no date of a journey in the future). */
export function complaintErrors(c: Loose<ComplaintInput>, today: string): FormErrors<ComplaintInput> {
  const errors: FormErrors<ComplaintInput> = {};
  commonErrors(c, today, errors);
  set(errors, 'nature', textProblem(textOf(c.nature), 'the nature of the complaint', LONG_TEXT, true));
  set(errors, 'investigation', textProblem(textOf(c.investigation), 'the investigation', LONG_TEXT));
  set(errors, 'action_taken', textProblem(textOf(c.action_taken), 'the action taken', LONG_TEXT));
  return errors;
}

/**
 * The lost property form's rules: an item found needs the date it was found (not in the future) and may say where,
 * what was done to return it and how it was disposed of; an item reported lost needs the date it was reported and
 * may say when and where it was lost (not in the future) and the searches made. Both need a description.
 */
export function lostItemErrors(l: Loose<LostItemInput>, today: string): FormErrors<LostItemInput> {
  const errors: FormErrors<LostItemInput> = {};
  const kind = textOf(l.kind);
  if (!(LOST_KINDS as readonly string[]).includes(kind)) errors.kind = 'Choose whether the item was found in a car or reported lost.';
  commonErrors(l, today, errors);
  set(errors, 'description', textProblem(textOf(l.description), 'a description of the item', LONG_TEXT, true));
  set(errors, 'found_on', dateProblem(textOf(l.found_on), 'date it was found', today, { required: kind === 'found', notAfter: true }));
  set(errors, 'found_place', textProblem(textOf(l.found_place), 'the place found', SHORT_TEXT));
  set(errors, 'return_attempts', textProblem(textOf(l.return_attempts), 'the attempts to return it', LONG_TEXT));
  set(errors, 'disposal', textProblem(textOf(l.disposal), 'the disposal', LONG_TEXT));
  set(errors, 'reported_on', dateProblem(textOf(l.reported_on), 'date it was reported', today, { required: kind === 'reported', notAfter: true }));
  set(errors, 'lost_on', dateProblem(textOf(l.lost_on), 'date it was lost', today, { notAfter: true }));
  set(errors, 'lost_place', textProblem(textOf(l.lost_place), 'the place lost', SHORT_TEXT));
  set(errors, 'searches', textProblem(textOf(l.searches), 'the searches made', LONG_TEXT));
  return errors;
}

/** Closing needs the outcome: what the complainant or the owner is told. */
export function closeErrors(c: Loose<CloseInput>): FormErrors<CloseInput> {
  const errors: FormErrors<CloseInput> = {};
  set(errors, 'outcome', textProblem(textOf(c.outcome), 'the outcome', LONG_TEXT, true));
  return errors;
}

/** The driver's "found item" form. */
export function foundItemErrors(f: Loose<FoundItemInput>): FormErrors<FoundItemInput> {
  const errors: FormErrors<FoundItemInput> = {};
  set(errors, 'description', textProblem(textOf(f.description), 'what you found', 1000, true));
  set(errors, 'found_place', textProblem(textOf(f.found_place), 'where in the car', SHORT_TEXT));
  return errors;
}

/** A checked form's values as stored: trimmed, the reference as the site writes it, empty dates as null. */
export function entryValues<T extends object>(input: Loose<T>, fields: (keyof T)[]): Record<keyof T, string | null> {
  const out = {} as Record<keyof T, string | null>;
  for (const f of fields) {
    const typed = textOf(input[f]);
    const v = f === 'booking_reference' ? bookingReferenceOf(typed) : f === 'contact_phone' && typed ? normalisePhone(typed) ?? typed : typed;
    out[f] = /(_on|_date)$/.test(String(f)) && !v ? null : v;
  }
  return out;
}

/**
 * Who may do what (decision 61): the office (administrators and dispatchers) every entry; a company's staff see and
 * work on the entries about their company's bookings (they may open one about such a booking, and write its
 * investigation, action and notes), but closing an entry, which answers the complainant or the owner in the
 * operator's name, is the office's.
 */
export const mayClose = (role: string): boolean => role === 'admin' || role === 'dispatcher';
/** A company's staff open entries only about one of their own bookings. */
export const needsBooking = (role: string): boolean => role === 'company';

/** A job on which the driver may report an item found in the car: the passenger has been on board. */
export const mayReportFound = (job: { status: string; cancelled: boolean }): boolean =>
  !job.cancelled && (job.status === 'on_board' || job.status === 'completed');

export const CASEWORK_MESSAGES = {
  unknownBooking: 'No booking has this reference (or it is not one of yours). Check it, or leave it empty.',
  bookingNeeded: "Enter the reference of your company's booking this is about.",
  closed: 'This entry is closed: it can no longer be changed.',
  alreadyClosed: 'This entry was closed already (by someone else, or a moment ago).',
  officeCloses: 'Only the office (a dispatcher or an administrator) closes an entry: it answers the complainant in the operator\'s name.',
  notFound: 'No such entry (or it is not about one of your bookings).',
  foundNotNow: 'An item can be reported found once the passenger has been on board.',
} as const;

/** A row of a register's list (GET /operator/casework/{register}). */
export interface CaseRow {
  id: number; number: string; status: EntryStatus; kind: LostKind | null; source: Source; source_label: string; booking_reference: string;
  booking_linked: boolean; booking_date: string | null; company_name: string | null; driver_name: string; vehicle_registration: string;
  contact_name: string; summary: string; opened_at: string; closed_at: string | null;
}
export interface CaseList { register: Register; title: string; rows: CaseRow[]; total: number }
/** One entry (GET /operator/casework/{register}/{id}): its columns, who did what to it, and what the viewer may do now. */
export interface CaseEntry {
  register: Register;
  entry: Record<string, string | number | boolean | null> & { id: number; number: string; status: EntryStatus; booking_id: number | null };
  history: { at: string; action: string; by: string }[];
  may: { edit: boolean; close: boolean };
}
export type ListStatus = EntryStatus | 'all';

/** The form's rules for a register (the console's machine asks them before it sends; the server again). */
export const entryErrors = (register: Register, form: Record<string, unknown>, today: string): Record<string, string | undefined> =>
  (register === 'complaints' ? complaintErrors(form, today) : lostItemErrors(form, today));
