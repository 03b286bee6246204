// Corporate access tokens: 256 random bits, handed out once, stored only as a
// SHA-256 hash (a random 256-bit value needs no slow hash). A token is good
// while it is used at least every 12 hours, for 30 days at most, until logout
// or a password reset. Checking it and recording its use is one statement.
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Queryable } from '../db/index';
import { DomainError } from '../errors';

export const IDLE_HOURS = 12;
export const MAX_DAYS = 30;
import { SESSION_ENDED } from '../../domain/messages';

export { SESSION_ENDED };

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: Queryable, passengerId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query('INSERT INTO passenger_tokens (token_hash, passenger_id) VALUES ($1, $2)', [hashOf(token), passengerId]);
  return token;
}

/** The passenger a token signs in, recording its use; null when it is unknown, idle too long, too old or revoked. */
export async function passengerOfToken(db: Queryable, token: string): Promise<number | null> {
  if (!/^[\w-]{43}$/.test(token)) return null;
  const [row] = await db.query<{ passenger_id: number }>(
    `UPDATE passenger_tokens SET last_used_at = now()
      WHERE token_hash = $1 AND revoked_at IS NULL
        AND last_used_at > now() - make_interval(hours => $2) AND created_at > now() - make_interval(days => $3)
      RETURNING passenger_id`, [hashOf(token), IDLE_HOURS, MAX_DAYS]);
  return row?.passenger_id ?? null;
}

export async function revokeToken(db: Queryable, token: string): Promise<void> {
  await db.query('UPDATE passenger_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL', [hashOf(token)]);
}

/** A password reset signs the passenger out everywhere. */
export async function revokeAllTokens(db: Queryable, passengerId: number): Promise<void> {
  await db.query('UPDATE passenger_tokens SET revoked_at = now() WHERE passenger_id = $1 AND revoked_at IS NULL', [passengerId]);
}

/** A new sign-in e-mail ends every other session of the passenger; the one that made the change stays. */
export async function revokeOtherTokens(db: Queryable, passengerId: number, keep: string): Promise<void> {
  await db.query('UPDATE passenger_tokens SET revoked_at = now() WHERE passenger_id = $1 AND token_hash <> $2 AND revoked_at IS NULL',
    [passengerId, hashOf(keep)]);
}

/** The bearer token of a request, if it sends one. */
export function bearerToken(c: Context): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '');
  return m ? m[1] : null;
}

/** The signed-in passenger of a request: 401 without a good token. */
export async function requirePassenger(c: Context, db: Queryable): Promise<number> {
  const token = bearerToken(c);
  const id = token ? await passengerOfToken(db, token) : null;
  if (id === null) throw new DomainError('unauthenticated', SESSION_ENDED, 'Authorization');
  return id;
}
