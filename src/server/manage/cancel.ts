// A passenger cancels their booking from its page (issue 27): free until CANCELLATION_WINDOW_HOURS before the pickup
// the booking was made for (a move never puts it later: src/domain/manageRules.ts deadlinePickup, issue 39).
// One transaction with the booking's row locked: the status, one refund row per card payment for all that is left
// of it (made after the commit, each under its own idempotency key: refunds.ts), a change still waiting for its
// payment dropped, the timeline's entry, and the e-mails to the passenger, the office and the company. The booking's
// changes allowance is counted in it, once the cancel is sure (a refused one counts nothing); the passenger's e-mail
// counts against their address, and over that allowance it is not sent: the cancel is made all the same (it happens
// once) and the office is told (recipients.ts).
import type { Db } from '../db/index';
import { CHANGE_MESSAGES } from '../../domain/manageChanges';
import { passengerMay } from '../../domain/manageRules';
import { currencyOf, type Settings } from '../../domain/settings';
import { DomainError } from '../errors';
import { enqueueEmail } from '../mail/queue';
import { bookingCancelledMail, refundWords } from '../mail/templates';
import { loadBooking } from '../bookings/queries';
import { byPassenger, recordChange, tellDriverCancelled, tellOffice } from '../bookings/bookingHistory';
import { paymentsLeft, refundableLeft, writeRefunds } from '../payments/ledger';
import { pickupTimes, storedBooking } from './changes';
import { bookingOfKey } from '../bookings/manageKeys';
import { takeAllowance, type Limits } from '../limits';
import { bookedAddress, countMessage, isBookedAddress } from './recipients';

export const PASSENGER_CANCEL_REASON = 'Cancelled by the passenger';
/** The office's notice says so when the passenger's own e-mail was not sent. */
export const PASSENGER_NOT_EMAILED = 'Not e-mailed: too many messages went to this address in the last hour. Please tell the passenger.';

export async function cancelByPassenger(
  deps: { db: Db; settings: Settings; now: Date; siteUrl: string; limits: Limits }, reference: string, key: string,
): Promise<{ refundIds: number[]; emailed: boolean }> {
  const bookingId = await bookingOfKey(deps.db, reference, key);
  return deps.db.transaction(async (tx) => {
    const b = await storedBooking(tx, bookingId, true);
    if (b.status !== 'confirmed') throw new DomainError('conflict', CHANGE_MESSAGES.notOpen);
    if (!passengerMay({ status: b.status, ...pickupTimes(b) }, deps.settings, deps.now).cancel) {
      throw new DomainError('conflict', CHANGE_MESSAGES.cancelTooLate);
    }
    await takeAllowance(tx, deps.limits, [{ limit: 'bookingChanges', key: String(bookingId) }]);
    const emailed = await countMessage(tx, deps.limits, b.passenger_email);
    const paid = refundableLeft(await paymentsLeft(tx, bookingId));
    // Whether the passenger was e-mailed is kept with the booking: the e-mail itself goes after retention (migration 020).
    await tx.query("UPDATE bookings SET status = 'cancelled', cancelled_at = now(), cancel_reason = $2, cancel_emailed = $3 WHERE id = $1",
      [bookingId, PASSENGER_CANCEL_REASON, emailed]);
    await tx.query("UPDATE booking_changes SET status = 'replaced' WHERE booking_id = $1 AND status = 'awaiting_payment'", [bookingId]);
    const refundIds = await writeRefunds(tx, bookingId, paid);
    await recordChange(tx, byPassenger(b.passenger_email), 'Cancelled by the passenger', bookingId, PASSENGER_CANCEL_REASON,
      { status: b.status }, { status: 'cancelled', refund_pence: paid });
    const result = (await loadBooking(tx, bookingId))!;
    const money = refundWords(b.payment_method, paid, paid, currencyOf(deps.settings));
    if (emailed) {
      const plain = !isBookedAddress(await bookedAddress(tx, bookingId, b.passenger_email), b.passenger_email);
      const mail = bookingCancelledMail(result, PASSENGER_CANCEL_REASON, money, deps.settings, plain);
      await enqueueEmail(tx, { kind: 'booking_cancelled', to: b.passenger_email, ...mail, bookingId });
    }
    const [{ driver }] = await tx.query<{ driver: unknown }>('SELECT driver FROM bookings WHERE id = $1', [bookingId]);
    await tellDriverCancelled(tx, { id: bookingId, driver }, result, deps.settings);
    await tellOffice(tx, deps, b, 'Cancelled by the passenger',
      [['Payment', money], ...(emailed ? [] : [['Passenger e-mail', PASSENGER_NOT_EMAILED] as [string, string]])],
      `the passenger (${b.passenger_email})`, b.passenger_email);
    return { refundIds, emailed };
  });
}
