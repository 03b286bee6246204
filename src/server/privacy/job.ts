// The retention job (issue 43 §4, decision 60), run once a day with the periodic jobs (../server.ts):
//  - bookings whose journey ended more than RECORDS_RETENTION_MONTHS ago (a return: its later leg's day) lose their
//    personal data; a guest's contact record goes with its last kept booking, or once it is that old with none;
//  - VAT invoices older than INVOICE_RETENTION_YEARS, of bookings already anonymous, lose their buyer and journey;
//  - complaints and lost property about no booking lose theirs once closed for the records time (those about a booking
//    go with it);
//  - card bookings that expired unpaid lose theirs PENDING_RETENTION_DAYS after they were made (issue 24).
// Each batch is one transaction that takes its rows FOR UPDATE SKIP LOCKED among those not yet done, so two processes
// running it at once each take other rows, and a row done is never taken again; a big database is worked through in
// batches, never one long transaction.
import type { Db } from '../db/index';
import { invoicesCutoff, recordsCutoff, retentionTimes } from '../../domain/retention';
import type { Settings } from '../../domain/settings';
import { anonymiseBookings, anonymiseAccountInvoices, anonymiseInvoices, anonymisePassengers } from './anonymise';
import { anonymiseEntries } from './tables';

export const BATCH_SIZE = 200;

/** When a booking's journey ends (its later leg's day for a return), in SQL over `bookings b` (src/domain/retention.ts journeyEnd). */
export const JOURNEY_END_SQL = `greatest(coalesce(b.pickup_at, b.pick_up_date::timestamp AT TIME ZONE 'Europe/London'),
  (b.return_date + time '23:59') AT TIME ZONE 'Europe/London')`;

export interface RetentionRun { bookings: number; passengers: number; invoices: number; entries: number }

/** Runs `batch` until it finds fewer rows than a batch; answers how many it did. */
async function inBatches(size: number, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await batch();
    total += done;
    if (done < size) return total;
  }
}

/** The daily job: what has passed its time, made anonymous. Answers how many of each. */
export async function removeExpiredPersonalData(db: Db, settings: Settings, now: Date = new Date(), size = BATCH_SIZE): Promise<RetentionRun> {
  const times = retentionTimes(settings);
  const records = recordsCutoff(now, times).toISOString();
  const bookings = await inBatches(size, () => db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT b.id FROM bookings b
        WHERE b.personal_data_removed_at IS NULL AND (b.pickup_at < $1::timestamptz OR b.pickup_at IS NULL) AND ${JOURNEY_END_SQL} < $1::timestamptz
        ORDER BY b.id LIMIT $2 FOR UPDATE OF b SKIP LOCKED`, [records, size]);
    await anonymiseBookings(tx, due.map((b) => b.id), 'retention');
    return due.length;
  }));
  // Guests' contact records left with no kept booking (two of a guest's bookings done at once, each saw the other kept;
  // a record whose booking was never written): once they are as old as the records time.
  const passengers = await inBatches(size, () => db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT p.id FROM passengers p
        WHERE p.personal_data_removed_at IS NULL AND p.password_hash IS NULL AND p.created_at < $1::timestamptz
          AND NOT EXISTS (SELECT 1 FROM bookings b WHERE b.passenger_id = p.id AND b.personal_data_removed_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM booking_passengers bp JOIN bookings b ON b.id = bp.booking_id
                           WHERE bp.passenger_id = p.id AND b.personal_data_removed_at IS NULL)
        ORDER BY p.id LIMIT $2 FOR UPDATE OF p SKIP LOCKED`, [records, size]);
    await anonymisePassengers(tx, due.map((p) => p.id));
    return due.length;
  }));
  const invoices = await inBatches(size, () => db.transaction(async (tx) => {
    const due = await tx.query<{ number: number }>(
      `SELECT i.number FROM invoices i JOIN bookings b ON b.id = i.booking_id
        WHERE i.personal_data_removed_at IS NULL AND i.issued_at < $1::timestamptz AND b.personal_data_removed_at IS NOT NULL
        ORDER BY i.number LIMIT $2 FOR UPDATE OF i SKIP LOCKED`, [invoicesCutoff(now, times).toISOString(), size]);
    await anonymiseInvoices(tx, due.map((i) => i.number));
    return due.length;
  })) + await inBatches(size, () => db.transaction(async (tx) => {
    // An account's monthly invoice (issue 44): its lines name the passengers, kept as long as the invoice is.
    const due = await tx.query<{ number: number }>(
      `SELECT i.number FROM invoices i
        WHERE i.account_id IS NOT NULL AND i.personal_data_removed_at IS NULL AND i.issued_at < $1::timestamptz
        ORDER BY i.number LIMIT $2 FOR UPDATE OF i SKIP LOCKED`, [invoicesCutoff(now, times).toISOString(), size]);
    await anonymiseAccountInvoices(tx, due.map((i) => i.number));
    return due.length;
  }));
  // Complaints and lost property about no booking (those about one go with it): once closed for the records time.
  let entries = 0;
  for (const table of ['complaints', 'lost_property'] as const) {
    entries += await inBatches(size, () => db.transaction(async (tx) => {
      const due = await tx.query<{ id: number }>(
        `SELECT id FROM ${table} WHERE personal_data_removed_at IS NULL AND booking_id IS NULL AND closed_at < $1::timestamptz
          ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`, [records, size]);
      await anonymiseEntries(tx, table, 'id IN (SELECT value::int FROM json_array_elements_text($1::json))', [JSON.stringify(due.map((r) => r.id))]);
      return due.length;
    }));
  }
  return { bookings, passengers, invoices, entries };
}

/**
 * Card bookings expired unpaid more than `days` ago (bookings/unpaidBookings.ts expires them) lose their personal
 * data, as any booking does; the row stays for the accounts. Answers how many.
 */
export async function removeUnpaidPersonalData(db: Db, days: number, now: Date = new Date(), size = BATCH_SIZE): Promise<number> {
  return inBatches(size, () => db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT b.id FROM bookings b
        WHERE b.status = 'expired' AND b.personal_data_removed_at IS NULL AND b.created_at < $1::timestamptz - make_interval(days => $2)
        ORDER BY b.id LIMIT $3 FOR UPDATE OF b SKIP LOCKED`, [now.toISOString(), days, size]);
    await anonymiseBookings(tx, due.map((b) => b.id), 'unpaid');
    return due.length;
  }));
}
