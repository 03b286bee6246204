// A confirmation that could not be sent lost its body (it held the booking's manage link, issue 27). When the office
// retries it, it is written again from the booking, with a new link: the old key was never delivered. It is written
// rendered, in place of what a booking's confirmation is first written as (the template and its data, issue 40).
import type { Queryable } from '../db/index';
import type { Settings } from '../../domain/settings';
import { loadBooking } from './queries';
import { bookingConfirmation } from '../mail/templates';
import { manageLink, mintKey } from './manageKeys';

/** Writes the failed confirmation `emailId` again, waiting to be sent; false when it is no such message. */
export async function renewConfirmation(tx: Queryable, emailId: number, settings: Settings, siteUrl: string, scope: number | null): Promise<boolean> {
  const [m] = await tx.query<{ booking_id: number; breakdown: { lines: { label: string; amount: string }[] } }>(
    `SELECT e.booking_id, b.price_breakdown AS breakdown FROM outbound_emails e JOIN bookings b ON b.id = e.booking_id
      WHERE e.id = $1 AND e.status = 'failed' AND e.kind = 'booking_confirmation' AND ($2::int IS NULL OR b.company_id = $2)
      FOR UPDATE OF e`, [emailId, scope]);
  if (!m) return false;
  const booking = (await loadBooking(tx, m.booking_id))!;
  const mail = bookingConfirmation(booking, settings, m.breakdown.lines, manageLink(siteUrl, booking.booking.booking_number, await mintKey(tx, m.booking_id)));
  await tx.query(
    `UPDATE outbound_emails SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL,
            subject = $2, body_text = $3, body_html = $4, template = NULL, template_data = NULL, erase_after_send = true WHERE id = $1`,
    [emailId, mail.subject, mail.text, mail.html]);
  return true;
}
