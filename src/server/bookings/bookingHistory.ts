// What happens to a booking after it is made, written down once for every hand that changes it (the office's console,
// issue 26; the passenger's own page, issue 27): the timeline entry with who did it and the values before and after,
// and the notice to the office with the company that drives the booking in copy; a cancelled job's driver is texted.
import type { Queryable } from '../db/index';
import type { Settings } from '../../domain/settings';
import type { BookingResult } from '../../domain/schemas';
import { enqueueEmail, enqueueSms } from '../mail/queue';
import { officeChangeNotice } from '../mail/templates';
import { jobGoneText, textable } from '../mail/texts';
import { loadBooking } from './queries';
import { LIVE_CHANNEL_SQL } from '../live/hub';
import { officeRecipients } from './bookings';

/** A booking's page in the office's console. */
export const consoleUrl = (siteUrl: string, reference: string) => `${siteUrl}/operator/bookings/${reference}`;

/** Who changed a booking: a member of staff (their id), or the passenger (none). */
export interface ChangedBy { staffId: number | null; name: string }

export const byPassenger = (email: string): ChangedBy => ({ staffId: null, name: `Passenger (${email})` });

/** The booking's timeline entry: who did what, and the values before and after. */
export async function recordChange(
  tx: Queryable, by: ChangedBy, action: string, bookingId: number | null, subject: string, before: unknown, after: unknown,
): Promise<void> {
  // The booking's watchers (its passenger's page, the board: ../live/) hear of it once the change commits, in any process.
  await tx.query(
    `WITH logged AS (INSERT INTO audit_log (staff_id, staff_name, action, booking_id, subject, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING booking_id)
     SELECT pg_notify(${LIVE_CHANNEL_SQL}, b.id || ':' || b.company_id) FROM logged JOIN bookings b ON b.id = logged.booking_id`,
    [by.staffId, by.name, action, bookingId, subject, before === undefined ? null : JSON.stringify(before),
      after === undefined ? null : JSON.stringify(after)]);
}

/** The office's notice of a change (the company in copy), with a link to the booking in the console. */
export async function tellOffice(
  tx: Queryable, deps: { settings: Settings; siteUrl: string }, b: { id: number; booking_number: string; company_email: string },
  what: string, rows: [string, string][], by: string, replyTo?: string,
): Promise<void> {
  const result = await loadBooking(tx, b.id);
  if (!result) return;
  const mail = officeChangeNotice(result, what, rows, by, consoleUrl(deps.siteUrl, b.booking_number));
  const { to, cc } = officeRecipients(deps.settings, b.company_email);
  await enqueueEmail(tx, { kind: 'booking_change_notice', to, cc: cc ?? undefined, ...(replyTo ? { replyTo } : {}), ...mail, bookingId: b.id });
}

/** A driver who had the job is texted that it was cancelled (issue 41 §2): their page shows it cancelled too. */
export async function tellDriverCancelled(tx: Queryable, b: { id: number; driver: unknown }, result: BookingResult, settings: Settings) {
  const had = b.driver as { mobile?: string } | null;
  if (had?.mobile && textable(had.mobile)) {
    await enqueueSms(tx, { kind: 'booking_cancelled_sms', to: had.mobile, label: `Job ${result.booking.booking_number} cancelled`, bookingId: b.id, text: jobGoneText(result, 'cancelled', settings) });
  }
}
