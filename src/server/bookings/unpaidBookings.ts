// Card bookings that were never paid (issue 24): every card try writes a pending booking with a person's details, so
// abandoned ones must not pile up. After a day a pending booking's intent is canceled at the provider (so it can never
// be paid later) and the booking is marked 'expired'; one whose payment succeeded after all is completed instead.
// After PENDING_RETENTION_DAYS the expired booking's personal data is removed, by the one anonymiser of every table
// (../privacy/job.ts removeUnpaidPersonalData). Both run with the periodic jobs of main.ts; each row changes once,
// whichever process gets to it (`WHERE status = 'pending'`, `personal_data_removed_at IS NULL`).
import type Stripe from 'stripe';
import type { Db } from '../db/index';
import { completeCardBooking } from './cardBookings';
import type { CardProvider } from '../payments/provider';

export const PENDING_HOURS = 24;

/**
 * Marks the card bookings left pending for a day as expired, and those of a payment link (issue 43) once the link has
 * expired; answers how many.
 */
export async function expireUnpaidCardBookings(db: Db, cards: CardProvider): Promise<number> {
  const stale = await db.query<{ id: number; payment_intent_id: string | null }>(
    `SELECT b.id, b.payment_intent_id FROM bookings b LEFT JOIN payment_links l ON l.booking_id = b.id
      WHERE b.status = 'pending' AND b.payment_method = 'card'
        AND coalesce(l.expires_at, b.created_at + make_interval(hours => $1)) < now()
      ORDER BY b.created_at LIMIT 500`, [PENDING_HOURS]);
  let expired = 0;
  for (const b of stale) {
    if (b.payment_intent_id && !(await cancelUnpaidIntent(db, cards, b.payment_intent_id))) continue;
    const rows = await db.query(
      "UPDATE bookings SET status = 'expired', payment_status = 'expired' WHERE id = $1 AND status = 'pending' RETURNING id", [b.id]);
    expired += rows.length;
  }
  return expired;
}

/**
 * True when the intent can no longer take money (canceled now or before, or failed for good). A payment that
 * succeeded completes its booking; one still processing, or a provider that does not answer, waits for the next run.
 */
async function cancelUnpaidIntent(db: Db, cards: CardProvider, intentId: string): Promise<boolean> {
  const stripe = await cards.stripe();
  let pi: Stripe.PaymentIntent;
  try {
    pi = await stripe.paymentIntents.retrieve(intentId);
    if (pi.status !== 'succeeded' && pi.status !== 'processing' && pi.status !== 'canceled') {
      pi = await stripe.paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' });
    }
  } catch (err) {
    console.error(`Could not cancel the unpaid payment ${intentId}: ${(err as Error).message}`);
    return false;
  }
  if (pi.status === 'succeeded') {
    await db.transaction((tx) => completeCardBooking(tx, pi));
    return false;
  }
  return pi.status === 'canceled';
}
