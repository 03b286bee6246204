// What a booking call brings besides its body: its Idempotency-Key, and who and where it comes from (a corporate
// passenger's token, the client address), joined with the server's deps into what writing a booking needs.
import type { Context } from 'hono';
import { DomainError } from '../errors';
import { quoteContext } from '../pricing/quote';
import { clientAddress } from '../http/clientAddress';
import { SESSION_ENDED, bearerToken, passengerOfToken } from '../auth/tokens';
import type { AppDeps } from '../deps';
import type { BookingDeps } from './bookings';

export function idempotencyKey(c: Context): string | null {
  const key = c.req.header('Idempotency-Key')?.trim() || null;
  if (key && key.length > 200) throw new DomainError('invalid', 'Idempotency-Key is longer than 200 characters', 'Idempotency-Key');
  return key;
}

/** What writing a booking needs from this request: a booking sent with a corporate token belongs to that passenger. */
export async function bookingDeps(deps: AppDeps, c: Context): Promise<BookingDeps> {
  // A token that no longer works is a 401, not a guest booking.
  const token = bearerToken(c);
  const signedIn = token ? await passengerOfToken(deps.db, token) : null;
  if (token && signedIn === null) throw new DomainError('unauthenticated', SESSION_ENDED, 'Authorization');
  return {
    db: deps.db, ctx: await quoteContext(deps), client: clientAddress(c, deps.security.trustProxy), signedIn,
    hashCost: deps.security.passwordHashCost, secret: deps.security.secret, limits: deps.security.limits, siteUrl: deps.siteUrl,
  };
}
