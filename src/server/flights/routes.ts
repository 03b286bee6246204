// GET /api/v1/flights/check (issue 42 §2): the details step's look-up of the flight typed, for the pickup's airport and
// date. Always 200: a flight that does not land there is a warning, never a refusal; no service, no answer.
import { Hono } from 'hono';
import { loadSettings, type AppEnv } from '../deps';
import { checkFlightAtBooking } from './check';

export const flightRoutes = new Hono<AppEnv>();

flightRoutes.get('/flights/check', async (c) => {
  const { db, flights, now } = c.var.deps;
  const q = (name: string) => (c.req.query(name) ?? '').slice(0, 300);
  const check = await checkFlightAtBooking({ db, service: flights ?? null, now: now(), settings: await loadSettings(db) },
    { number: q('number'), date: q('date'), pickup: q('pickup') });
  return c.json({ success: true, ...check });
});
