// POST /booking (SPEC 7): the answer is success, data.{booking, bookingDetail, bookingStops, passengerDetails}, message.
import { Hono } from 'hono';
import { BookingRequest } from '../../domain/schemas';
import { currencyOf } from '../../domain/settings';
import { createBooking } from '../bookings';
import { HttpError, readBody } from '../http';
import { loadSettings, type AppDeps } from '../app';

export function bookingRoutes(deps: AppDeps) {
  return new Hono().post('/booking', async (c) => {
    const body = await readBody(c, BookingRequest);
    const key = c.req.header('Idempotency-Key')?.trim() || null;
    if (key && key.length > 200) throw new HttpError(422, 'Idempotency-Key is longer than 200 characters', 'Idempotency-Key');
    const currency = currencyOf(await loadSettings(deps.db));
    const data = await createBooking({ db: deps.db, distance: deps.distance, currency }, body, key);
    return c.json({ success: true, message: 'Your booking is confirmed.', data });
  });
}
