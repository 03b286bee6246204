// Sign-in limits. An attempt is counted BEFORE the password is checked, in one
// statement per limit key, so concurrent attempts cannot all slip under a limit.
// Three keys: an e-mail from one client address (the owner's own address is
// never locked by a stranger elsewhere), a client address across all e-mails
// (password spraying), and an e-mail across all addresses (a distributed
// attack, with a limit high enough that one stranger cannot reach it).
import type { Db, Queryable } from '../db/index';
import { DomainError } from '../errors';
import { emailKey } from '../../domain/fields';

export const WINDOW_MINUTES = 15;
export const LIMITS = { pair: 10, client: 50, account: 100 } as const;
export const TOO_MANY_ATTEMPTS = `Too many wrong passwords for this email. Please wait ${WINDOW_MINUTES} minutes or reset your password.`;
export const TOO_MANY_FROM_ADDRESS = `Too many sign-in attempts from your network. Please wait ${WINDOW_MINUTES} minutes or call us.`;


/**
 * Counts one attempt on each key, or none: when any key is at its limit the
 * transaction rolls back (nothing counted) and the attempt is refused with 429.
 */
export async function reserveSignInAttempt(db: Db, email: string, client: string): Promise<void> {
  const refused = await db.transaction(async (tx) => {
    const rows = await tx.query<{ scope: keyof typeof LIMITS }>(
      `INSERT INTO auth_throttle AS t (scope, email, client, attempts)
       VALUES ('pair', $1, $2, 1), ('client', '', $2, 1), ('account', $1, '', 1)
       ON CONFLICT (scope, email, client) DO UPDATE SET
         attempts = CASE WHEN t.window_started <= now() - make_interval(mins => $3) THEN 1 ELSE t.attempts + 1 END,
         window_started = CASE WHEN t.window_started <= now() - make_interval(mins => $3) THEN now() ELSE t.window_started END
       WHERE t.window_started <= now() - make_interval(mins => $3)
          OR t.attempts < CASE t.scope WHEN 'pair' THEN $4::int WHEN 'client' THEN $5::int ELSE $6::int END
       RETURNING t.scope`,
      [emailKey(email), client, WINDOW_MINUTES, LIMITS.pair, LIMITS.client, LIMITS.account]);
    if (rows.length === 3) return null;
    const counted = new Set(rows.map((r) => r.scope));
    throw new Refused(counted.has('client') ? TOO_MANY_ATTEMPTS : TOO_MANY_FROM_ADDRESS);
  }).catch((err) => {
    if (err instanceof Refused) return err.message;
    throw err;
  });
  if (refused) throw new DomainError('tooMany', refused, 'password');
  void sweepOldRows(db);
}

class Refused extends Error {}

/** A right password: that attempt was not a failure. */
export async function signInSucceeded(db: Queryable, email: string, client: string): Promise<void> {
  await db.query(
    `UPDATE auth_throttle SET attempts = CASE WHEN scope = 'pair' THEN 0 ELSE greatest(attempts - 1, 0) END
      WHERE (scope = 'pair' AND email = $1 AND client = $2) OR (scope = 'client' AND email = '' AND client = $2)
         OR (scope = 'account' AND email = $1 AND client = '')`,
    [emailKey(email), client]);
}

/**
 * An attempt whose password was never checked (the hashing queue was full: 503, try again shortly): it was no
 * failure, and spends nothing (issue 39).
 */
export async function signInNotTried(db: Queryable, email: string, client: string): Promise<void> {
  await db.query(
    `UPDATE auth_throttle SET attempts = greatest(attempts - 1, 0)
      WHERE (scope = 'pair' AND email = $1 AND client = $2) OR (scope = 'client' AND email = '' AND client = $2)
         OR (scope = 'account' AND email = $1 AND client = '')`,
    [emailKey(email), client]);
}

/** A password reset proves the owner: every failure counted against the account is forgotten. */
export async function clearSignInFailures(db: Queryable, email: string): Promise<void> {
  await db.query("DELETE FROM auth_throttle WHERE email = $1 AND scope IN ('pair', 'account')", [emailKey(email)]);
}

let lastSweep = 0;
/** Rows whose window ended long ago are dropped, at most every ten minutes per process. */
async function sweepOldRows(db: Queryable): Promise<void> {
  if (Date.now() - lastSweep < 10 * 60_000) return;
  lastSweep = Date.now();
  await db.query("DELETE FROM auth_throttle WHERE window_started < now() - interval '1 day'").catch(() => {});
}
