// The keys of "Manage your booking" links (issue 27): 256 random bits, handed out once (in the confirmation e-mail,
// on the success page, or by "Find my booking") and stored only as a SHA-256 hash, as a random value of that size
// needs no slow hash. A key opens one booking only: it is looked up together with the booking's reference.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';
import { MANAGE_MESSAGES } from '../../domain/manageRules';

/** How long after the pickup a link keeps working: a receipt is often asked for weeks later. */
export const KEY_DAYS_AFTER_PICKUP = 180;

/** The address of a booking's page with its key; the key is in the fragment, which browsers never send to a server. */
export const manageLink = (siteUrl: string, reference: string, key: string) => `${siteUrl}/manage/${reference}#key=${key}`;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const newKey = () => randomBytes(32).toString('base64url');
export const isKeyShaped = (key: string) => /^[\w-]{43}$/.test(key);

/** A new key for a booking, stored as its hash; the key itself is returned, once. */
export async function mintKey(db: Queryable, bookingId: number): Promise<string> {
  const key = newKey();
  await db.query(
    `INSERT INTO booking_keys (key_hash, booking_id, expires_at)
     SELECT $1, b.id, coalesce(b.pickup_at, now()) + make_interval(days => $3) FROM bookings b WHERE b.id = $2`,
    [hashKey(key), bookingId, KEY_DAYS_AFTER_PICKUP]);
  return key;
}

export type KeyCheck = { ok: true; bookingId: number } | { ok: false; why: 'unknown' | 'expired' };

/** The booking a key opens, if it is this reference's key: another booking's key is as unknown as a wrong one. */
export async function checkKey(db: Queryable, reference: string, key: string): Promise<KeyCheck> {
  if (!isKeyShaped(key)) return { ok: false, why: 'unknown' };
  const [row] = await db.query<{ id: number; expired: boolean }>(
    `SELECT b.id, k.expires_at <= now() AS expired FROM booking_keys k JOIN bookings b ON b.id = k.booking_id
      WHERE k.key_hash = $1 AND b.booking_number = $2`, [hashKey(key), reference.trim().toUpperCase()]);
  if (!row) return { ok: false, why: 'unknown' };
  return row.expired ? { ok: false, why: 'expired' } : { ok: true, bookingId: row.id };
}

/** The booking a link's key opens: 404 for a key that is not this booking's, 410 for an expired one. */
export async function bookingOfKey(db: Queryable, reference: string, key: string): Promise<number> {
  const check = await checkKey(db, reference, key);
  if (check.ok) return check.bookingId;
  throw check.why === 'expired' ? new DomainError('gone', MANAGE_MESSAGES.expiredLink) : new DomainError('notFound', MANAGE_MESSAGES.unknownLink);
}
