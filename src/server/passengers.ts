// Passenger accounts (new and existing clients) and guest contact records.
import type { Queryable } from './db/index';
import { hashPassword, verifyPassword } from './auth/passwords';
import { HttpError } from './http';

export interface Account { id: number; name: string; email: string; phone: string; password_hash: string }

export async function findAccount(db: Queryable, email: string): Promise<Account | null> {
  const [row] = await db.query<Account>(
    `SELECT id, name, email, phone, password_hash FROM passengers
      WHERE lower(email) = lower($1) AND password_hash IS NOT NULL`, [email.trim()],
  );
  return row ?? null;
}

export type SignInResult = { ok: true; account: Account } | { ok: false; reason: 'not_found' | 'wrong_password' };

export async function checkCredentials(db: Queryable, email: string, password: string): Promise<SignInResult> {
  const account = await findAccount(db, email);
  if (!account) return { ok: false, reason: 'not_found' };
  return (await verifyPassword(password, account.password_hash)) ? { ok: true, account } : { ok: false, reason: 'wrong_password' };
}

export const MAX_FAILED_CHECKS = 10;
export const FAILED_CHECK_WINDOW_MINUTES = 15;
export const TOO_MANY_ATTEMPTS = `Too many wrong passwords for this email. Please wait ${FAILED_CHECK_WINDOW_MINUTES} minutes or reset your password.`;

/**
 * A password check that counts: after MAX_FAILED_CHECKS wrong passwords for one e-mail within the window,
 * further checks are refused (HTTP 429) without looking at the password.
 */
export async function checkCredentialsLimited(db: Queryable, email: string, password: string): Promise<SignInResult> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM login_attempts
      WHERE lower(email) = lower($1) AND NOT succeeded AND created_at > now() - make_interval(mins => $2)`,
    [email.trim(), FAILED_CHECK_WINDOW_MINUTES]);
  if (n >= MAX_FAILED_CHECKS) throw new HttpError(429, TOO_MANY_ATTEMPTS, 'password');
  const result = await checkCredentials(db, email, password);
  if (result.ok || result.reason === 'wrong_password') {
    await db.query('INSERT INTO login_attempts (email, succeeded) VALUES ($1, $2)', [email.trim(), result.ok]);
  }
  return result;
}

export async function createPassenger(
  tx: Queryable, p: { name: string; email: string; phone: string; password?: string },
): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    'INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.name, p.email.trim(), p.phone.trim(), p.password ? await hashPassword(p.password) : null],
  );
  return row.id;
}
