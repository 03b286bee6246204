// A booking's card payments and refunds (issue 27): the first payment (bookings.paid_pence) and the difference of
// each change that raised the price (booking_changes.paid_pence), each refunded from its own payment intent. What a
// booking can still give back is what is left of each payment after the refunds written against it (a refund that
// failed is still owed: it is tried again, never written twice).
import type { Queryable } from '../db/index';
import { allocateRefund, type Refundable } from '../../domain/manageChanges';

/**
 * A booking's card payments with what is left of each, as SQL rows (intent, o, left_pence): the first payment (o 0),
 * then each applied change's difference, each less every refund written against it. `booking` is the SQL that names
 * the booking's id (`$1`, or an outer query's `b.id`): the one statement both paymentsLeft and the console's board use.
 */
export const paymentsLeftSql = (booking: string) =>
  `SELECT p.intent, p.o, (p.pence - coalesce((SELECT sum(r.amount_pence) FROM refunds r
                                               WHERE r.booking_id = ${booking} AND r.payment_intent_id = p.intent), 0))::int AS left_pence
     FROM (SELECT payment_intent_id AS intent, paid_pence AS pence, 0 AS o FROM bookings
            WHERE id = ${booking} AND payment_method = 'card' AND paid_pence IS NOT NULL AND payment_intent_id IS NOT NULL
           UNION ALL
           SELECT payment_intent_id, paid_pence, id FROM booking_changes
            WHERE booking_id = ${booking} AND status = 'applied' AND paid_pence IS NOT NULL AND payment_intent_id IS NOT NULL) p`;

/** The booking's payments, first payment first, each with what is left of it. */
export async function paymentsLeft(q: Queryable, bookingId: number): Promise<Refundable[]> {
  const rows = await q.query<{ intent: string; left_pence: number }>(`${paymentsLeftSql('$1')} ORDER BY p.o`, [bookingId]);
  return rows.map((r) => ({ paymentIntentId: r.intent, leftPence: Number(r.left_pence) }));
}

/** What is left to give back of all the booking's card payments (0 for a booking paid in the car). */
export const refundableLeft = (payments: readonly Refundable[]) => payments.reduce((sum, p) => sum + p.leftPence, 0);

/**
 * Writes the refund rows that give back `pence`, or what is left when that is less (latest payment first), 'pending':
 * the caller makes them after the commit. `afterCancel`: the office's refund of what a cancellation left (decision 50).
 */
export async function writeRefunds(
  tx: Queryable, bookingId: number, pence: number, by: { staffId?: number | null; changeId?: number | null; afterCancel?: boolean } = {},
): Promise<number[]> {
  const payments = await paymentsLeft(tx, bookingId);
  // Never more than is left (the office may have refunded part already).
  const amount = Math.min(pence, refundableLeft(payments));
  if (amount <= 0) return [];
  const ids: number[] = [];
  for (const part of allocateRefund(payments, amount)) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO refunds (booking_id, amount_pence, staff_id, payment_intent_id, change_id, after_cancel)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [bookingId, part.pence, by.staffId ?? null, part.paymentIntentId, by.changeId ?? null, by.afterCancel === true]);
    ids.push(row.id);
  }
  return ids;
}

export interface RefundSummary {
  /** The refund rows' ids, oldest first. */
  ids: number[];
  pence: number;
  /** succeeded: all were made; failed: one the provider did not make (Retry); pending: being made. */
  status: 'succeeded' | 'failed' | 'pending';
  providerIds: string[];
  error: string | null;
}

/** The booking's refunds together, or null when it has none. */
export async function refundSummary(q: Queryable, bookingId: number, only?: { cancellation: boolean }): Promise<RefundSummary | null> {
  const rows = await q.query<{ id: number; amount_pence: number; status: string; provider_refund_id: string | null; last_error: string | null }>(
    `SELECT id, amount_pence, status, provider_refund_id, last_error FROM refunds
      WHERE booking_id = $1 AND ($2::boolean IS NULL OR (change_id IS NULL) = $2) ORDER BY id`,
    [bookingId, only ? only.cancellation : null]);
  if (!rows.length) return null;
  const status = rows.some((r) => r.status === 'failed') ? 'failed' : rows.every((r) => r.status === 'succeeded') ? 'succeeded' : 'pending';
  return {
    ids: rows.map((r) => r.id), pence: rows.reduce((s, r) => s + r.amount_pence, 0), status,
    providerIds: rows.flatMap((r) => (r.provider_refund_id ? [r.provider_refund_id] : [])),
    error: rows.find((r) => r.last_error)?.last_error ?? null,
  };
}
