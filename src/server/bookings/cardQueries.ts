// The card bookings' SQL: a key's card booking, its intent, its payment, the provider's events handled once.
import type { Queryable } from '../db/index';

export interface KeyedBooking {
  id: number; number: string; status: string; total: number; intent: string | null; passenger_id: number; has_account: boolean;
}

/** Whether a key was used, with its request's hash and the booking it made (none yet while that is written). */
export async function cardKeyUse(db: Queryable, key: string) {
  const [row] = await db.query<KeyedBooking & { request_hash: string; payment_method: string | null }>(
    `SELECT b.id, b.booking_number AS number, b.status, b.total_booking_amount_pence AS total, b.payment_intent_id AS intent,
            b.payment_method, k.request_hash, b.passenger_id, p.password_hash IS NOT NULL AS has_account
       FROM idempotency_keys k LEFT JOIN bookings b ON b.idempotency_key = k.key LEFT JOIN passengers p ON p.id = b.passenger_id
      WHERE k.key = $1`, [key]);
  return row;
}

/** Keeps the booking's first intent: the id it keeps (another request's, when one was kept first). */
export async function keepIntent(db: Queryable, bookingId: number, intentId: string): Promise<string> {
  const [kept] = await db.query<{ payment_intent_id: string }>(
    'UPDATE bookings SET payment_intent_id = COALESCE(payment_intent_id, $2) WHERE id = $1 RETURNING payment_intent_id',
    [bookingId, intentId]);
  return kept.payment_intent_id;
}

/** The booking an intent pays for: its own, or a change's difference (issue 27). */
export async function bookingOfAnyIntent(db: Queryable, intentId: string) {
  const [b] = await db.query<{ id: number; status: string }>(
    `SELECT id, status FROM bookings WHERE payment_intent_id = $1
     UNION ALL SELECT b.id, b.status FROM booking_changes c JOIN bookings b ON b.id = c.booking_id WHERE c.payment_intent_id = $1`, [intentId]);
  return b;
}

export async function bookingOfIntent(db: Queryable, intentId: string) {
  const [b] = await db.query<{ id: number; status: string }>('SELECT id, status FROM bookings WHERE payment_intent_id = $1', [intentId]);
  return b;
}

/** A succeeded payment as the provider reports it. */
export interface Payment {
  intentId: string; chargeId: string | null; amount: number; currency: string; bookingId: string; received: number; live: boolean;
}

/**
 * Confirms the pending booking of this payment, only when the payment is for exactly its amount in GBP and names it:
 * the booking's id, or null when no pending booking matched.
 */
export async function markPaid(tx: Queryable, p: Payment): Promise<number | null> {
  const rows = await tx.query<{ id: number }>(
    `UPDATE bookings SET status = 'confirmed', payment_status = 'paid', payment_id = $2, paid_at = now(), payment_livemode = $7, paid_pence = $3
      WHERE payment_intent_id = $1 AND status = 'pending' AND total_booking_amount_pence = $3 AND $4 = 'gbp'
        AND id::text = $5 AND $3 = $6
      RETURNING id`,
    [p.intentId, p.chargeId, p.amount, p.currency, p.bookingId, p.received, p.live]);
  return rows[0]?.id ?? null;
}

/** The intents of card bookings of the last 7 days still pending, oldest first. */
export async function recentPendingIntents(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ payment_intent_id: string }>(
    `SELECT payment_intent_id FROM bookings
      WHERE status = 'pending' AND payment_method = 'card' AND payment_intent_id IS NOT NULL AND created_at > now() - interval '7 days'
      ORDER BY created_at LIMIT 500`);
  return rows.map((r) => r.payment_intent_id);
}

/** Records a provider event; false when it was recorded before (it is handled once). */
export async function recordEvent(tx: Queryable, id: string, type: string): Promise<boolean> {
  const fresh = await tx.query('INSERT INTO payment_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [id, type]);
  return fresh.length > 0;
}
