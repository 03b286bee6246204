// Refunds through the card provider (Stripe's Refunds API, or the local test gateway's copy of it). The refund row is
// written with the cancellation or the change (desk.ts, manage/), so there is one per payment however often the button
// is pressed; this asks the provider for it under the row's own idempotency key, so a retry within the provider's
// window (a day) is answered with the same refund instead of a second one. A key is only remembered for a day, a
// refund's metadata for ever: so every try is claimed first, by one statement that counts it, and any try after the
// first (the one before failed, timed out, or stopped after the provider answered) looks the payment's refunds up at
// the provider for this row's id in their metadata before asking for a new one (decision 50). The first try, the
// common case, is one call.
import type Stripe from 'stripe';
import type { Db } from '../db/index';
import type { CardProvider } from './provider';
import { paymentsLeft, refundableLeft } from './ledger';
import { settleInvoice } from './invoices';

/** 'pending': another try is being made at this moment (or stopped less than a lease ago). */
export type RefundOutcome = { status: 'succeeded'; providerId: string } | { status: 'failed'; error: string } | { status: 'pending' };

/** How long a running try holds its refund: longer than the SDK's own timeout and retries (30 seconds, three tries). */
export const TRY_LEASE_MINUTES = 5;

interface ClaimedTry { id: number; booking_id: number; amount_pence: number; idempotency_key: string; payment_intent_id: string; tries: number }

/**
 * Claims a try of a refund not made yet, when no other try holds it (one that failed holds it no more; one that
 * stopped midway, after the lease): one statement, so two processes retrying at once never both ask the provider.
 */
async function claimTry(db: Db, refundId: number, now: Date): Promise<ClaimedTry | null> {
  const [r] = await db.query<ClaimedTry>(
    `UPDATE refunds SET status = 'pending', tries = tries + 1, asked_at = $2
      WHERE id = $1 AND status <> 'succeeded'
        AND (status = 'failed' OR asked_at IS NULL OR asked_at <= $2::timestamptz - $3::int * interval '1 minute')
      RETURNING id, booking_id, amount_pence, idempotency_key, payment_intent_id, tries`, [refundId, now, TRY_LEASE_MINUTES]);
  return r ?? null;
}

/** A refund this row asked for on an earlier try, found among all the payment's refunds at the provider (page by page). */
async function madeEarlier(stripe: Stripe, r: ClaimedTry): Promise<Stripe.Refund | undefined> {
  for await (const x of stripe.refunds.list({ payment_intent: r.payment_intent_id, limit: 100 })) {
    if (x.metadata?.refund_id === String(r.id) && x.metadata?.booking_id === String(r.booking_id)
      && x.status !== 'failed' && x.status !== 'canceled') return x;
  }
  return undefined;
}

export async function makeRefund(db: Db, cards: CardProvider, refundId: number, now = new Date()): Promise<RefundOutcome | null> {
  const r = await claimTry(db, refundId, now);
  if (!r) {
    // Made already, being made by another try, or no such refund.
    const [row] = await db.query<{ status: string; provider_refund_id: string | null }>(
      'SELECT status, provider_refund_id FROM refunds WHERE id = $1', [refundId]);
    if (!row) return null;
    return row.status === 'succeeded' ? { status: 'succeeded', providerId: row.provider_refund_id! } : { status: 'pending' };
  }
  let providerId: string;
  try {
    const stripe = await cards.stripe();
    const earlier = r.tries > 1 ? await madeEarlier(stripe, r) : undefined;
    const refund = earlier ?? await stripe.refunds.create({
      payment_intent: r.payment_intent_id, amount: r.amount_pence, reason: 'requested_by_customer',
      metadata: { booking_id: String(r.booking_id), refund_id: String(r.id) },
    }, { idempotencyKey: `refund-${r.idempotency_key}` });
    if (refund.status === 'failed' || refund.status === 'canceled') throw new Error(`the card provider answered ${refund.status}`);
    providerId = refund.id;
  } catch (err) {
    const error = (err as Error).message || 'the card provider did not answer';
    await db.query("UPDATE refunds SET status = 'failed', last_error = $2 WHERE id = $1 AND status <> 'succeeded'", [r.id, error]);
    return { status: 'failed', error };
  }
  await db.transaction(async (tx) => {
    // The booking's row first, the order every change, cancel and payment of a booking takes: a passenger's change
    // being applied meanwhile (it locks the booking, then writes a refund row) never waits on this in a circle.
    await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [r.booking_id]);
    await tx.query("UPDATE refunds SET status = 'succeeded', provider_refund_id = $2, last_error = NULL, refunded_at = now() WHERE id = $1", [r.id, providerId]);
    // Refunded: nothing is left of any of its payments; otherwise partly.
    const left = refundableLeft(await paymentsLeft(tx, r.booking_id));
    const [{ made }] = await tx.query<{ made: boolean }>(
      "SELECT NOT EXISTS (SELECT 1 FROM refunds WHERE booking_id = $1 AND status <> 'succeeded') AS made", [r.booking_id]);
    await tx.query('UPDATE bookings SET payment_status = $2 WHERE id = $1', [r.booking_id, left === 0 && made ? 'refunded' : 'partially_refunded']);
    // A VAT invoice already issued never changes: the refund is a credit note referring to it, dated now (decision 48).
    await settleInvoice(tx, r.booking_id);
  });
  return { status: 'succeeded', providerId };
}

/** Makes each refund in turn: all succeeded, or the first failure (the rest are tried by Retry). */
export async function makeRefunds(db: Db, cards: CardProvider, ids: readonly number[], now = new Date()): Promise<RefundOutcome | null> {
  let last: RefundOutcome | null = null;
  for (const id of ids) {
    last = await makeRefund(db, cards, id, now);
    if (last?.status === 'failed') return last;
  }
  return last;
}
