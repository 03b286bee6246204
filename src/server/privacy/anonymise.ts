// The one anonymiser (issue 43 §4, decision 60): makes bookings, passengers and invoices anonymous by every table's
// step (./tables.ts), inside the caller's transaction, which holds the rows it names (FOR UPDATE). The daily job, the
// unpaid-booking clean-up (./job.ts) and the erase on request (./requests.ts) all come through here.
import type { Queryable } from '../db/index';
import { PERSONAL_TABLES } from './tables';
import { anonymousJourney, anonymousRoute } from './redact';

/** Why a booking's personal data went, as its timeline says it. */
export const REMOVED_BECAUSE = {
  retention: 'Personal data removed: the time records are kept after the journey is up',
  unpaid: 'Personal data removed: the booking was never paid',
  erase: "Personal data erased at the passenger's request",
} as const;
export type RemovalReason = keyof typeof REMOVED_BECAUSE;

/** Who the timeline names for the daily job and the clean-up (an erase names the member of staff). */
export const RETENTION_ACTOR = 'Records and privacy (automatic)';

const ids = (list: number[]) => JSON.stringify(list);
const IN_IDS = 'IN (SELECT value::int FROM json_array_elements_text($1::json))';

/**
 * Makes these bookings anonymous: every table's booking step, the mark `personal_data_removed_at` and one timeline
 * entry each. Their guest contact records go too when no other booking of theirs is kept. The caller locked the rows
 * and left out those already done.
 */
export async function anonymiseBookings(
  tx: Queryable, bookingIds: number[], reason: RemovalReason, by: { staffId: number | null; name: string } = { staffId: null, name: RETENTION_ACTOR },
): Promise<void> {
  if (!bookingIds.length) return;
  const contacts = await tx.query<{ id: number }>(
    `SELECT DISTINCT p.id FROM passengers p
      WHERE p.id IN (SELECT passenger_id FROM bookings WHERE id ${IN_IDS}
                     UNION SELECT passenger_id FROM booking_passengers WHERE booking_id ${IN_IDS})`, [ids(bookingIds)]);
  for (const t of PERSONAL_TABLES) await t.bookings?.(tx, bookingIds);
  await tx.query(`UPDATE bookings SET personal_data_removed_at = coalesce(personal_data_removed_at, now()) WHERE id ${IN_IDS}`, [ids(bookingIds)]);
  await tx.query(
    `INSERT INTO audit_log (staff_id, staff_name, action, booking_id) SELECT $2, $3, $4, value::int FROM json_array_elements_text($1::json)`,
    [ids(bookingIds), by.staffId, by.name, REMOVED_BECAUSE[reason]]);
  // A guest's contact record, once none of its bookings keeps its data (the bookings just done no longer point at it).
  const guests = await tx.query<{ id: number }>(
    `SELECT p.id FROM passengers p
      WHERE p.id IN (SELECT value::int FROM json_array_elements_text($1::json)) AND p.password_hash IS NULL AND p.personal_data_removed_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.passenger_id = p.id AND b.personal_data_removed_at IS NULL)
        AND NOT EXISTS (SELECT 1 FROM booking_passengers bp JOIN bookings b ON b.id = bp.booking_id
                         WHERE bp.passenger_id = p.id AND b.personal_data_removed_at IS NULL)
      FOR UPDATE OF p SKIP LOCKED`, [ids(contacts.map((c) => c.id))]);
  await anonymisePassengers(tx, guests.map((g) => g.id));
}

/** Makes these passenger rows anonymous (a guest's contact record, an account closed): their data, sign-ins, codes. */
export async function anonymisePassengers(tx: Queryable, passengerIds: number[]): Promise<void> {
  if (!passengerIds.length) return;
  for (const t of PERSONAL_TABLES) await t.passengers?.(tx, passengerIds);
}

/**
 * Makes these invoices anonymous once their time is up: the buyer's name goes and the journey's addresses keep their
 * postcode district (a flight number goes); the number, lines, amounts, seller and dates stay in the accounts.
 */
export async function anonymiseInvoices(tx: Queryable, numbers: number[]): Promise<void> {
  if (!numbers.length) return;
  const found = await tx.query<{ number: number; journey: { label: string; value: string }[] }>(
    `SELECT number, journey FROM invoices WHERE number ${IN_IDS}`, [ids(numbers)]);
  const journeys = found.map((i) => ({
    number: i.number,
    journey: anonymousJourney(Array.isArray(i.journey) ? i.journey : []),
  }));
  await tx.query(
    `UPDATE invoices i SET buyer = jsonb_build_object('name', ''), journey = v.journey, personal_data_removed_at = now()
       FROM json_to_recordset($1::json) AS v(number int, journey jsonb) WHERE i.number = v.number`, [JSON.stringify(journeys)]);
}

/**
 * Makes these accounts' invoices anonymous once their time is up (issue 44): each journey's line loses its passenger,
 * and its route keeps its postcode districts; the company, references, fields, amounts and dates stay in the accounts.
 */
export async function anonymiseAccountInvoices(tx: Queryable, numbers: number[]): Promise<void> {
  if (!numbers.length) return;
  const found = await tx.query<{ number: number; lines: { route?: string; passenger?: string }[] }>(
    `SELECT number, lines FROM invoices WHERE number ${IN_IDS}`, [ids(numbers)]);
  const anonymous = found.map((i) => ({
    number: i.number,
    lines: (Array.isArray(i.lines) ? i.lines : []).map((l) => ({ ...l, passenger: '', route: anonymousRoute(l.route ?? '') })),
  }));
  await tx.query(
    `UPDATE invoices i SET lines = v.lines, personal_data_removed_at = now()
       FROM json_to_recordset($1::json) AS v(number int, lines jsonb) WHERE i.number = v.number`, [JSON.stringify(anonymous)]);
}
