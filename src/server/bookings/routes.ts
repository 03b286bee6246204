// POST /booking (SPEC 7): the answer is success, data.{booking, bookingDetail, bookingStops, passengerDetails}, message.
// A card booking was written when its payment started; this call completes it (./cardBookings.ts).
import { Hono } from 'hono';
import { BookingRequest } from '../../domain/requestSchemas';
import { createBooking } from './bookings';
import { finishCardBooking } from './cardBookings';
import { readBody } from '../http/body';
import { apiJson } from '../http/securityHeaders';
import { bookingDeps, idempotencyKey } from './request';
import type { AppEnv } from '../deps';
import { timed, timedSync } from '../timing';

// The steps are timed with STEP_TIMING (../timing.ts, `npm run bench:steps`).
export const bookingRoutes = new Hono<AppEnv>().post('/booking', (c) => timed('booking (whole handler)', async () => {
  const { deps } = c.var;
  const body = await timed('booking 1 read and check the body', () => readBody(c, BookingRequest));
  const key = idempotencyKey(c);
  const bd = await timed('booking 2 who books, settings', () => bookingDeps(deps, c));
  const data = body.payment_method === 'card'
    ? await finishCardBooking({ ...bd, cards: deps.cards }, body, key)
    : await createBooking(bd, body, key);
  deps.mail.kick();
  return timedSync('booking 9 the answer', () => apiJson({ success: true, message: `Your booking ${data.booking.booking_number} is confirmed.`, data }));
}));
