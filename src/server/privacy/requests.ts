// A passenger's requests about their personal data (issue 43 §4, decision 60), made to the office and done from the
// console by an administrator: EXPORT everything the database holds about an e-mail address (every table's step in
// ./tables.ts finds its rows), and ERASE it at once by the same anonymiser as the daily job (./anonymise.ts), except
// what the law says to keep (src/domain/retention.ts KEPT_ON_ERASE). An erase is refused while a booking of the
// address is still to come. Each is written to the audit log, the address shortened (maskedEmail).
import type { Db, Queryable } from '../db/index';
import { DomainError } from '../errors';
import { mailboxKey } from '../../domain/fields';
import { normalisePhone } from '../../domain/phone';
import {
  KEPT_ON_ERASE, eraseRefusal, invoicesCutoff, maskedEmail, retentionTimes, type EraseAnswer, type PrivacyExport, type RetentionTimes,
} from '../../domain/retention';
import type { Settings } from '../../domain/settings';
import { recordChange, type ChangedBy } from '../bookings/bookingHistory';
import { anonymiseAccountInvoices, anonymiseBookings, anonymiseInvoices, anonymisePassengers } from './anonymise';
import { JOURNEY_END_SQL } from './job';
import { PERSONAL_TABLES, type Subject } from './tables';

const json = (v: unknown) => JSON.stringify(v);

/** What the database links to an address: its bookings (by their passenger's e-mail or its passenger rows) and phones. */
export async function findSubject(q: Queryable, email: string): Promise<Subject> {
  const address = email.trim().toLowerCase();
  const passengers = await q.query<{ id: number; phone: string }>('SELECT id, phone FROM passengers WHERE lower(email) = $1 ORDER BY id', [address]);
  const passengerIds = passengers.map((p) => p.id);
  const bookings = await q.query<{ id: number; phone: string | null }>(
    `SELECT b.id, bp.passenger_contact_no AS phone FROM bookings b LEFT JOIN booking_passengers bp ON bp.booking_id = b.id
      WHERE lower(bp.passenger_email) = $1
         OR b.passenger_id IN (SELECT value::int FROM json_array_elements_text($2::json))
         OR bp.passenger_id IN (SELECT value::int FROM json_array_elements_text($2::json))
      ORDER BY b.id`, [address, json(passengerIds)]);
  const typed = [...passengers.map((p) => p.phone), ...bookings.map((b) => b.phone ?? '')].map((p) => p.trim()).filter(Boolean);
  const phones = [...new Set([...typed, ...typed.map((p) => normalisePhone(p)).filter((p): p is string => p !== null)])];
  return { email: email.trim(), bookingIds: bookings.map((b) => b.id), passengerIds, phones, allowanceKeys: [mailboxKey(address)] };
}

export type PersonalDataExport = PrivacyExport;

/** The address's bookings with their status and journey's end, locked when asked (an erase). */
async function bookingsOf(q: Queryable, s: Subject, lock: boolean) {
  return q.query<{ id: number; booking_number: string; status: string; journey_end: Date; done: boolean }>(
    `SELECT b.id, b.booking_number, b.status, ${JOURNEY_END_SQL} AS journey_end, b.personal_data_removed_at IS NOT NULL AS done
       FROM bookings b WHERE b.id IN (SELECT value::int FROM json_array_elements_text($1::json)) ORDER BY b.id ${lock ? 'FOR UPDATE OF b' : ''}`,
    [json(s.bookingIds)]);
}

const refusalOf = (bookings: { booking_number: string; status: string; journey_end: Date }[], now: Date) =>
  eraseRefusal(bookings.map((b) => ({ booking_number: b.booking_number, status: b.status, journeyEnd: new Date(b.journey_end) })), now);

/** Everything the database holds about the address (audited by the caller's member of staff). */
export async function exportAddress(db: Db, email: string, by: ChangedBy, settings: Settings, now: Date): Promise<PersonalDataExport> {
  const subject = await findSubject(db, email);
  const sections = [];
  for (const t of PERSONAL_TABLES) {
    const rows = await t.find(db, subject);
    if (rows.length) sections.push({ table: t.table, title: t.title, holds: t.holds, rows });
  }
  const refusal = refusalOf(await bookingsOf(db, subject, false), now);
  const times = retentionTimes(settings);
  await recordChange(db, by, 'Personal data exported', null, maskedEmail(email), undefined,
    { bookings: subject.bookingIds.length, tables: sections.map((s) => s.table) });
  return {
    email: subject.email, exported_at: now.toISOString(), sections, kept_on_erase: KEPT_ON_ERASE,
    erase: { allowed: refusal === null, refusal }, retention: { records_months: times.recordsMonths, invoice_years: times.invoiceYears },
  };
}

export type EraseResult = EraseAnswer;

/**
 * Erases the address at once: its bookings' and passenger rows' personal data (an account is closed: its password
 * goes too), what is held by the address alone, and its invoices already past their time. Refused (422 naming
 * `email`) while a booking of it is still to come; its bookings are locked first, so one cannot be moved meanwhile.
 */
export async function eraseAddress(db: Db, email: string, by: ChangedBy, settings: Settings, now: Date): Promise<EraseResult> {
  return db.transaction(async (tx) => {
    const subject = await findSubject(tx, email);
    const bookings = await bookingsOf(tx, subject, true);
    const refusal = refusalOf(bookings, now);
    if (refusal) throw new DomainError('invalid', refusal, 'email');
    const todo = bookings.filter((b) => !b.done).map((b) => b.id);
    await anonymiseBookings(tx, todo, 'erase', by);
    await anonymisePassengers(tx, subject.passengerIds);
    for (const t of PERSONAL_TABLES) await t.address?.(tx, subject);
    const invoices = await invoicesOf(tx, subject, retentionTimes(settings), now);
    await anonymiseInvoices(tx, invoices.past);
    await anonymiseAccountInvoices(tx, invoices.pastOfAccounts);
    const result = {
      bookings: todo.length, already: bookings.length - todo.length, passengers: subject.passengerIds.length,
      invoices_kept: invoices.kept, kept: KEPT_ON_ERASE,
    };
    await recordChange(tx, by, 'Personal data erased', null, maskedEmail(email), undefined,
      { bookings: result.bookings, passengers: result.passengers, invoices_kept: result.invoices_kept });
    return result;
  });
}

/** The address's invoices: those past their time (made anonymous now) and how many are kept. */
async function invoicesOf(tx: Queryable, s: Subject, times: RetentionTimes, now: Date): Promise<{ past: number[]; pastOfAccounts: number[]; kept: number }> {
  // A booking's own invoice, and (issue 44) a company account's monthly invoice that lists one of its journeys.
  const rows = await tx.query<{ number: number; past: boolean; account: boolean }>(
    `SELECT number, issued_at < $2::timestamptz AS past, account_id IS NOT NULL AS account FROM invoices
      WHERE (booking_id IN (SELECT value::int FROM json_array_elements_text($1::json))
             OR number IN (SELECT invoice_number FROM invoice_bookings WHERE booking_id IN (SELECT value::int FROM json_array_elements_text($1::json))))
        AND personal_data_removed_at IS NULL
      ORDER BY number FOR UPDATE`, [json(s.bookingIds), invoicesCutoff(now, times).toISOString()]);
  return {
    past: rows.filter((r) => r.past && !r.account).map((r) => r.number),
    pastOfAccounts: rows.filter((r) => r.past && r.account).map((r) => r.number),
    kept: rows.filter((r) => !r.past).length,
  };
}
