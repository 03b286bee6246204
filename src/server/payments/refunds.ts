// Refunds through the card provider (Stripe's Refunds API, or the local test gateway's copy of it). The refund row is
// written with the cancellation (desk.ts), so there is one per booking however often the button is pressed; this asks
// the provider for it under the row's own idempotency key, so a retry (after a timeout, a crash, or Retry in the
// console) is answered with the same refund instead of a second one. Before a retry, the provider's refunds of the
// payment are read too: a key is only remembered for a day, the refund's metadata for ever.
import type { Db } from '../db/index';
import type { CardProvider } from './provider';
import { paymentsLeft, refundableLeft } from './ledger';

export type RefundOutcome = { status: 'succeeded'; providerId: string } | { status: 'failed'; error: string };

export async function makeRefund(db: Db, cards: CardProvider, refundId: number): Promise<RefundOutcome | null> {
  const [r] = await db.query<{ id: number; booking_id: number; amount_pence: number; status: string; idempotency_key: string;
    payment_intent_id: string; provider_refund_id: string | null }>(
    'SELECT id, booking_id, amount_pence, status, idempotency_key, payment_intent_id, provider_refund_id FROM refunds WHERE id = $1',
    [refundId]);
  if (!r) return null;
  if (r.status === 'succeeded') return { status: 'succeeded', providerId: r.provider_refund_id! };
  let providerId: string;
  try {
    const stripe = await cards.stripe();
    const earlier = r.status === 'failed'
      ? (await stripe.refunds.list({ payment_intent: r.payment_intent_id, limit: 100 })).data
        .find((x) => x.metadata?.refund_id === String(r.id) && x.status !== 'failed' && x.status !== 'canceled')
      : undefined;
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
  });
  return { status: 'succeeded', providerId };
}

/** Makes each refund in turn: all succeeded, or the first failure (the rest are tried by Retry). */
export async function makeRefunds(db: Db, cards: CardProvider, ids: readonly number[]): Promise<RefundOutcome | null> {
  let last: RefundOutcome | null = null;
  for (const id of ids) {
    last = await makeRefund(db, cards, id);
    if (last?.status === 'failed') return last;
  }
  return last;
}
