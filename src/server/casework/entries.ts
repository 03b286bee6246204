// Writing the two registers (issue 43 §3, decision 61). An entry is opened by the office (the console), by a Contact Us
// message with the reason Complaint or Lost Item (in the message's own transaction: ../enquiries), or by a driver who
// found something in the car on one of their jobs (../driver). When it names a booking it is linked to it, with the
// booking's company, day, driver and car; an office's reference that names no booking it may see is refused (422), a
// visitor's is kept as typed. Every change is written with its row of the audit log (the booking's timeline shows it),
// in one transaction. Closing needs the outcome, happens once (one statement: 'open' -> 'closed'), and queues the
// e-mail to the complainant or the owner in the same transaction: a retry or a second press never sends it twice.
import type { Db, Queryable } from '../db/index';
import type { ContactForm } from '../../domain/schemas';
import type { Settings } from '../../domain/settings';
import type { FormErrors } from '../../domain/operatorDesk';
import {
  CASEWORK_MESSAGES, COMPLAINT_FIELDS, LOST_ITEM_FIELDS, OFFICE_SOURCES, REGISTER_LABELS, closeErrors, complaintErrors, entryNumber,
  entryValues, lostItemErrors, mayClose, needsBooking, type CloseInput, type FoundItemInput, type Register,
} from '../../domain/casework';
import { ukToday } from '../../domain/ukTime';
import { DomainError } from '../errors';
import { recordChange, type ChangedBy } from '../bookings/bookingHistory';
import { enqueueEmail } from '../mail/queue';
import { caseClosedMail } from '../mail/templates';
import { bookingLink, linkValues, TABLE, type BookingLink } from './queries';

/** A member of the office's staff as the console's session gives them (operator/staff.ts Staff). */
export interface Officer { id: number; name: string; email: string; role: string; company_id: number | null }
export interface CaseDeps { db: Db; settings: Settings; now: Date }

const byOfficer = (s: Officer): ChangedBy => ({ staffId: s.id, name: `${s.name} (${s.email})` });
/** The company a member of staff is limited to; null: every entry (operator/deskQueries.ts scopeOf). */
export const scopeOf = (s: Officer): number | null => (s.role === 'company' ? s.company_id : null);
const one = (register: Register) => REGISTER_LABELS[register].one;
/** The form's dates (stored as dates, read back as YYYY-MM-DD). */
const DATE_FIELDS = ['booking_date', 'found_on', 'reported_on', 'lost_on'];
const fieldsOf = (register: Register): string[] => (register === 'complaints' ? COMPLAINT_FIELDS : LOST_ITEM_FIELDS);

/** The first of a form's messages as the 422 the API gives, naming its field. */
function refuse(errors: Record<string, string | undefined>): void {
  const [field, message] = Object.entries(errors).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
}

/** The office's form's rules for a register (the kind of a lost item already on record is kept as it is). */
function formErrors(register: Register, input: Record<string, unknown>, today: string): FormErrors<Record<string, string>> {
  const errors: FormErrors<Record<string, string>> = register === 'complaints' ? complaintErrors(input, today) : lostItemErrors(input, today);
  if (!errors.source && !(OFFICE_SOURCES as string[]).includes(String(input.source ?? '').trim())) {
    errors.source = 'Choose how it reached the office: by phone, by e-mail, in person or from a driver.';
  }
  return errors;
}

/** The booking a form names, as the viewer may see it; none when the form names none (a company's staff must name one). */
async function linkOf(tx: Queryable, staff: Officer, reference: string): Promise<BookingLink | null> {
  if (!reference) {
    if (needsBooking(staff.role)) throw new DomainError('invalid', CASEWORK_MESSAGES.bookingNeeded, 'booking_reference');
    return null;
  }
  const link = await bookingLink(tx, scopeOf(staff), reference);
  if (!link) throw new DomainError('invalid', CASEWORK_MESSAGES.unknownBooking, 'booking_reference');
  return link;
}

/** Writes a new entry of `values` (columns of its register's fixed lists): its id. */
async function insertEntry(tx: Queryable, register: Register, values: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(values);
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO ${TABLE[register]} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    columns.map((c) => values[c]));
  return row.id;
}

/** The values an entry keeps of its form and its booking: the booking's day when it names one. */
function withLink(values: Record<string, string | null>, link: BookingLink | null) {
  return { ...values, booking_reference: link?.booking_reference ?? values.booking_reference ?? '', booking_date: link?.booking_date ?? values.booking_date, ...linkValues(link) };
}

/** The office opens an entry (a company's staff one about their company's booking). Its id and number. */
export async function openEntry(deps: CaseDeps, staff: Officer, register: Register, input: Record<string, unknown>) {
  refuse(formErrors(register, input, ukToday(deps.now)));
  const values = entryValues(input, fieldsOf(register) as never[]) as Record<string, string | null>;
  return deps.db.transaction(async (tx) => {
    const link = await linkOf(tx, staff, values.booking_reference ?? '');
    const stored = withLink(values, link);
    const id = await insertEntry(tx, register, { ...stored, opened_by: byOfficer(staff).name, opened_at: deps.now.toISOString(), updated_at: deps.now.toISOString() });
    const number = entryNumber(register, id);
    await recordChange(tx, byOfficer(staff), `${one(register)} opened`, link?.booking_id ?? null, number, undefined, values);
    return { id, number };
  });
}

/**
 * The office changes an open entry's form (a company's staff one of theirs): its booking linked again when the
 * reference changes. A closed entry is refused (409). The audit keeps the fields that changed, before and after.
 */
export async function updateEntry(deps: CaseDeps, staff: Officer, register: Register, id: number, input: Record<string, unknown>) {
  const fields = fieldsOf(register);
  return deps.db.transaction(async (tx) => {
    const [current] = await tx.query<Record<string, string | number | null> & { status: string; booking_id: number | null; driver_id: number | null }>(
      `SELECT status, booking_id, driver_id, ${fields.map((f) => (DATE_FIELDS.includes(f) ? `to_char(${f}, 'YYYY-MM-DD') AS ${f}` : f)).join(', ')}
         FROM ${TABLE[register]} WHERE id = $1 AND ($2::int IS NULL OR company_id = $2) FOR UPDATE`, [id, scopeOf(staff)]);
    if (!current) throw new DomainError('notFound', CASEWORK_MESSAGES.notFound);
    if (current.status !== 'open') throw new DomainError('conflict', CASEWORK_MESSAGES.closed);
    // A lost item stays found or reported, and an entry the Contact Us form or a driver opened stays theirs.
    const form = { ...input, ...(current.kind ? { kind: current.kind } : {}) };
    const fixedSource = current.source === 'contact_form' || current.source === 'driver' ? String(current.source) : null;
    refuse(formErrors(register, fixedSource ? { ...form, source: 'phone' } : form, ukToday(deps.now)));
    const values = entryValues(form, fields as never[]) as Record<string, string | null>;
    if (fixedSource) values.source = fixedSource;
    // The booking is linked again only when the reference changes (a visitor's that named none is kept as typed until
    // then); the driver and car are copied again only when the entry had none (a complaint made before the dispatch).
    const sameBooking = values.booking_reference === current.booking_reference;
    const link = sameBooking && (current.booking_id === null || current.driver_id !== null) ? undefined : await linkOf(tx, staff, values.booking_reference ?? '');
    const stored: Record<string, unknown> = link === undefined
      ? { ...values, booking_date: current.booking_id === null ? values.booking_date : current.booking_date }
      : withLink(values, link);
    const changed = Object.keys(values).filter((k) => String(stored[k] ?? '') !== String(current[k] ?? ''));
    if (!changed.length && link === undefined) return { id, number: entryNumber(register, id), changed };
    const columns = Object.keys(stored);
    await tx.query(`UPDATE ${TABLE[register]} SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = $${columns.length + 2} WHERE id = $1`,
      [id, ...columns.map((c) => stored[c]), deps.now.toISOString()]);
    const pick = (from: Record<string, unknown>) => Object.fromEntries(changed.map((k) => [k, from[k] ?? null]));
    await recordChange(tx, byOfficer(staff), `${one(register)} updated`, (stored.booking_id ?? current.booking_id ?? null) as number | null,
      entryNumber(register, id), pick(current), pick(stored));
    return { id, number: entryNumber(register, id), changed };
  });
}

/**
 * The office closes an open entry with its outcome: once. The complainant or the owner, when the entry has their
 * e-mail address, is e-mailed the outcome in the same transaction. A second close (a double press, another
 * dispatcher) is refused (409) and sends nothing.
 */
export async function closeEntry(deps: CaseDeps, staff: Officer, register: Register, id: number, input: Partial<Record<keyof CloseInput, unknown>>) {
  if (!mayClose(staff.role)) throw new DomainError('forbidden', CASEWORK_MESSAGES.officeCloses);
  refuse(closeErrors(input));
  const outcome = String(input.outcome).trim();
  return deps.db.transaction(async (tx) => {
    const [closed] = await tx.query<{ booking_id: number | null; booking_reference: string; contact_name: string; contact_email: string; about: string }>(
      `UPDATE ${TABLE[register]} SET status = 'closed', outcome = $2, closed_at = $3, closed_by = $4, updated_at = $3
        WHERE id = $1 AND status = 'open' AND ($5::int IS NULL OR company_id = $5)
        RETURNING booking_id, booking_reference, contact_name, contact_email, ${register === 'complaints' ? 'nature' : 'description'} AS about`,
      [id, outcome, deps.now.toISOString(), byOfficer(staff).name, scopeOf(staff)]);
    if (!closed) {
      const [seen] = await tx.query(`SELECT 1 FROM ${TABLE[register]} WHERE id = $1 AND ($2::int IS NULL OR company_id = $2)`, [id, scopeOf(staff)]);
      throw seen ? new DomainError('conflict', CASEWORK_MESSAGES.alreadyClosed) : new DomainError('notFound', CASEWORK_MESSAGES.notFound);
    }
    const number = entryNumber(register, id);
    await recordChange(tx, byOfficer(staff), `${one(register)} closed`, closed.booking_id, number, { status: 'open' }, { status: 'closed', outcome });
    if (!closed.contact_email) return { number, emailed: null };
    const mail = caseClosedMail({
      what: register === 'complaints' ? 'complaint' : 'lost property report', number, name: closed.contact_name,
      booking: closed.booking_reference, about: closed.about, outcome,
    }, deps.settings);
    await enqueueEmail(tx, { kind: 'casework_closed', to: closed.contact_email, ...mail, ...(closed.booking_id ? { bookingId: closed.booking_id } : {}) });
    return { number, emailed: closed.contact_email };
  });
}

/** Who opened an entry that no member of staff opened, in the audit log and on the entry. */
const CONTACT_FORM: ChangedBy = { staffId: null, name: 'Contact Us form' };

/**
 * A Contact Us message with the reason Complaint or Lost Item opens an entry, in the message's own transaction `tx`
 * (so it is never lost and never made twice: the message's id is unique among the entries). Its booking reference
 * links the booking that has it, whatever the case it was typed in; one that names no booking is kept as typed.
 * Any other reason opens nothing (null).
 */
export async function openFromContactMessage(tx: Queryable, messageId: number, m: ContactForm, now: Date): Promise<{ register: Register; id: number } | null> {
  const register: Register | null = m.queryReason === 'Complaint' ? 'complaints' : m.queryReason === 'Lost Item' ? 'lost-property' : null;
  if (!register) return null;
  const link = await bookingLink(tx, null, m.bookingNumber);
  const common = {
    source: 'contact_form', contact_message_id: messageId, booking_reference: link?.booking_reference ?? m.bookingNumber.trim(),
    booking_date: link?.booking_date ?? null, ...linkValues(link), contact_name: `${m.firstName} ${m.lastName}`.trim(), contact_email: m.email,
    contact_phone: m.telephone, opened_by: CONTACT_FORM.name, opened_at: now.toISOString(), updated_at: now.toISOString(),
  };
  const own = register === 'complaints'
    ? { nature: m.comments }
    : { kind: 'reported', description: m.comments, reported_on: ukToday(now), lost_on: link?.booking_date ?? null };
  const id = await insertEntry(tx, register, { ...common, ...own });
  await recordChange(tx, CONTACT_FORM, `${one(register)} opened`, link?.booking_id ?? null, entryNumber(register, id), undefined,
    { source: 'contact_form', contact_message: messageId });
  return { register, id };
}

/**
 * A driver's "found item" on one of their jobs (../driver/jobs.ts checks the job is theirs and the passenger has
 * been on board): a lost property entry, found today in the car of that booking, linked to it and to the driver and car.
 */
export async function openFoundItem(tx: Queryable, driver: { name: string }, reference: string, input: FoundItemInput, now: Date) {
  const link = (await bookingLink(tx, null, reference))!;
  const by: ChangedBy = { staffId: null, name: `${driver.name} (driver)` };
  const id = await insertEntry(tx, 'lost-property', {
    kind: 'found', source: 'driver', booking_reference: link.booking_reference, booking_date: link.booking_date, ...linkValues(link),
    description: input.description.trim(), found_on: ukToday(now), found_place: input.found_place.trim() || 'In the car',
    opened_by: by.name, opened_at: now.toISOString(), updated_at: now.toISOString(),
  });
  const number = entryNumber('lost-property', id);
  await recordChange(tx, by, 'Lost property opened', link.booking_id, number, undefined,
    { kind: 'found', description: input.description.trim(), found_place: input.found_place.trim() });
  return { id, number };
}
