// POST /booking (SPEC 7): the answer is success, data.{booking, bookingDetail, bookingStops, passengerDetails}, message.
import { Hono } from 'hono';
import { BookingRequest } from '../../domain/schemas';
import { createBooking } from '../bookings/bookings';
import { HttpError, readBody } from '../http/errors';
import { quoteContext } from './pricing';
import { clientAddress } from '../http/clientAddress';
import { SESSION_ENDED, bearerToken, passengerOfToken } from '../auth/tokens';
import type { AppDeps } from '../deps';

export function bookingRoutes(deps: AppDeps) {
  return new Hono().post('/booking', async (c) => {
    const body = await readBody(c, BookingRequest);
    const key = c.req.header('Idempotency-Key')?.trim() || null;
    if (key && key.length > 200) throw new HttpError(422, 'Idempotency-Key is longer than 200 characters', 'Idempotency-Key');
    // A booking sent with a corporate token belongs to that passenger; a token that no longer works is a 401, not a guest booking.
    const token = bearerToken(c);
    const signedIn = token ? await passengerOfToken(deps.db, token) : null;
    if (token && signedIn === null) throw new HttpError(401, SESSION_ENDED, 'Authorization');
    const data = await createBooking({
      db: deps.db, ctx: await quoteContext(deps), client: clientAddress(c, deps.security.trustProxy), signedIn,
      hashCost: deps.security.passwordHashCost, secret: deps.security.secret,
    }, body, key);
    deps.mail.kick();
    return c.json({ success: true, message: `Your booking ${data.booking.booking_number} is confirmed.`, data });
  });
}
