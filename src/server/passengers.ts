// Passenger accounts (new and existing clients) and guest contact records.
import type { Queryable } from './db/index';
import { hashPassword, verifyPassword } from './auth/passwords';

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

export async function createPassenger(
  tx: Queryable, p: { name: string; email: string; phone: string; password?: string },
): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    'INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4) RETURNING id',
    [p.name, p.email.trim(), p.phone.trim(), p.password ? await hashPassword(p.password) : null],
  );
  return row.id;
}
