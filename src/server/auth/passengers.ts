// Passenger accounts (new and existing clients) and guest contact records.
import type { Db, Queryable } from '../db/index';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';
import { reserveSignInAttempt, signInNotTried, signInSucceeded } from './throttle';
import { DomainError } from '../errors';
import { ACCOUNT_EXISTS } from '../../domain/messages';

export interface Account { id: number; name: string; email: string; phone: string; password_hash: string }

export async function findAccount(db: Queryable, email: string): Promise<Account | null> {
  const [row] = await db.query<Account>(
    `SELECT id, name, email, phone, password_hash FROM passengers
      WHERE lower(email) = lower($1) AND password_hash IS NOT NULL`, [email.trim()],
  );
  return row ?? null;
}

export type SignInResult = { ok: true; account: Account } | { ok: false; reason: 'not_found' | 'wrong_password' };

/** A sign-in as a person makes it: the client address it comes from, and the hash cost in force. */
export interface SignIn { email: string; password: string; client: string; hashCost: number }

/**
 * A password check that counts: the attempt is counted before the password is
 * looked at (429 when a limit is reached, see auth/throttle.ts). An unknown
 * e-mail costs the same hashing time as a known one. A right password stored
 * with an older, cheaper hash is hashed again at today's cost.
 */
export async function signIn(db: Db, s: SignIn): Promise<SignInResult> {
  await reserveSignInAttempt(db, s.email, s.client);
  let account: Account | null;
  let check: { ok: boolean; needsRehash: boolean };
  try {
    account = await findAccount(db, s.email);
    check = account ? await verifyPassword(s.password, account.password_hash, s.hashCost)
      : (await verifyAgainstDecoy(s.password, s.hashCost), { ok: false, needsRehash: false });
  } catch (err) {
    // Not checked (the hashing queue was full, or the database failed): the attempt is given back (issue 39).
    await signInNotTried(db, s.email, s.client);
    throw err;
  }
  if (!account) return { ok: false, reason: 'not_found' };
  if (!check.ok) return { ok: false, reason: 'wrong_password' };
  await signInSucceeded(db, s.email, s.client);
  if (check.needsRehash) {
    // Only if nobody changed the password meanwhile.
    await db.query('UPDATE passengers SET password_hash = $2 WHERE id = $1 AND password_hash = $3',
      [account.id, await hashPassword(s.password, s.hashCost), account.password_hash]);
  }
  return { ok: true, account };
}

/**
 * A passenger record: an account when it has a password hash (hashed before the
 * transaction, as scrypt is slow; 422 if the e-mail already has an account,
 * whoever got there first), otherwise a guest's contact record.
 */
export async function createPassenger(
  tx: Queryable, p: { name: string; email: string; phone: string; passwordHash?: string | null },
): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (lower(email)) WHERE password_hash IS NOT NULL DO NOTHING RETURNING id`,
    [p.name, p.email.trim(), p.phone.trim(), p.passwordHash ?? null],
  );
  if (!row) throw new DomainError('invalid', ACCOUNT_EXISTS, 'registrationData.email');
  return row.id;
}
