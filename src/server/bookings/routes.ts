// POST /booking (SPEC 7): the answer is success, data.{booking, bookingDetail, bookingStops, passengerDetails}, message.
// A card booking was written when its payment started; this call completes it (./cardBookings.ts).
import { Hono, type Context } from 'hono';
import { BookingRequest } from '../../domain/schemas';
import { createBooking, type BookingDeps } from './bookings';
import { finishCardBooking } from './cardBookings';
import { DomainError } from '../errors';
import { readBody } from '../http/body';
import { apiJson } from '../http/securityHeaders';
import { quoteContext } from '../pricing/routes';
import { clientAddress } from '../http/clientAddress';
import { SESSION_ENDED, bearerToken, passengerOfToken } from '../auth/tokens';
import type { AppDeps, AppEnv } from '../deps';

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
    hashCost: deps.security.passwordHashCost, secret: deps.security.secret, limits: deps.security.limits,
  };
}

export const bookingRoutes = new Hono<AppEnv>().post('/booking', async (c) => {
  const { deps } = c.var;
  const body = await readBody(c, BookingRequest);
  const key = idempotencyKey(c);
  const bd = await bookingDeps(deps, c);
  const data = body.payment_method === 'card'
    ? await finishCardBooking({ ...bd, cards: deps.cards }, body, key)
    : await createBooking(bd, body, key);
  deps.mail.kick();
  return apiJson({ success: true, message: `Your booking ${data.booking.booking_number} is confirmed.`, data });
});
