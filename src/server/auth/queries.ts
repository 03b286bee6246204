// The password reset's SQL: the codes of a passenger, a try counted, a code used, the new password stored. (Tokens,
// sign-in failures and accounts are stores of their own: ./tokens.ts, ./throttle.ts, ./passengers.ts.)
import type { Queryable } from '../db/index';

/** One reset request per account at a time, so the hourly limit cannot be raced (inside the caller's transaction). */
export async function lockPassenger(tx: Queryable, passengerId: number): Promise<void> {
  await tx.query('SELECT id FROM passengers WHERE id = $1 FOR UPDATE', [passengerId]);
}

export async function codesInLastHour(tx: Queryable, passengerId: number): Promise<number> {
  const [{ n }] = await tx.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM password_reset_codes WHERE passenger_id = $1 AND created_at > now() - interval '1 hour'",
    [passengerId]);
  return n;
}

/** A new code, valid for `minutes`; the passenger's earlier codes stop working. */
export async function replaceCode(tx: Queryable, passengerId: number, codeHash: string, minutes: number): Promise<void> {
  await tx.query('UPDATE password_reset_codes SET used_at = now() WHERE passenger_id = $1 AND used_at IS NULL', [passengerId]);
  await tx.query(
    'INSERT INTO password_reset_codes (passenger_id, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(mins => $3))',
    [passengerId, codeHash, minutes]);
}

/**
 * Counts a try on the passenger's newest code, in one statement that succeeds only while that code is unused,
 * unexpired and under `maxAttempts`, so concurrent tries can never exceed it; undefined when it does not.
 */
export async function countTry(db: Queryable, passengerId: number, maxAttempts: number) {
  const [row] = await db.query<{ id: number; code_hash: string }>(
    `UPDATE password_reset_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM password_reset_codes WHERE passenger_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1)
        AND used_at IS NULL AND expires_at > now() AND attempts < $2
      RETURNING id, code_hash`, [passengerId, maxAttempts]);
  return row;
}

/** Marks the code used; false when another reset used it first. */
export async function consumeCode(tx: Queryable, codeId: number): Promise<boolean> {
  const consumed = await tx.query('UPDATE password_reset_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING id', [codeId]);
  return consumed.length > 0;
}

export async function setPasswordHash(tx: Queryable, passengerId: number, hash: string): Promise<void> {
  await tx.query('UPDATE passengers SET password_hash = $2 WHERE id = $1', [passengerId, hash]);
}
