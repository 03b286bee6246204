// The console's New booking (issue 43 §1, ./phoneBookings.ts): POST /operator/phone-bookings takes a booking by phone,
// GET /operator/passengers?q= finds a passenger on record by name, phone or e-mail, and /operator/quote/distance and
// /hourly are the website's price calls as the office asks them (the same code and answers).
import { Hono } from 'hono';
import type { AppEnv } from '../deps';
import { readBody } from '../http/body';
import { DomainError } from '../errors';
import { PhoneBookingBody } from '../../domain/phoneBookings';
import { idempotencyKey } from '../bookings/request';
import { requireStaff } from './session';
import { asOffice, officeQuoteContext, takePhoneBooking } from './phoneBookings';
import { BookingForm, HourlyRateForm } from '../../domain/schemas';
import { quoteDistance, quoteHourly } from '../pricing/quote';
import { distancePriceJson } from '../pricing/routes';
import { apiJson } from '../http/securityHeaders';
import { findPassengers } from './passengerSearch';

export const phoneRoutes = new Hono<AppEnv>()
  .post('/operator/phone-bookings', async (c) => {
    const staff = await requireStaff(c);
    const body = await readBody(c, PhoneBookingBody);
    const result = await takePhoneBooking(c.var.deps, staff, body, idempotencyKey(c));
    c.var.deps.mail.kick();
    return c.json(result);
  })
  // The website's price calls as the office asks them: any time still to come, hourly hire whatever the website offers.
  .post('/operator/quote/distance', async (c) => {
    await requireStaff(c);
    const form = await readBody(c, BookingForm);
    const quote = await asOffice(quoteDistance(await officeQuoteContext(c.var.deps), form));
    return apiJson(distancePriceJson(quote));
  })
  .post('/operator/quote/hourly', async (c) => {
    await requireStaff(c);
    const form = await readBody(c, HourlyRateForm);
    const quote = await asOffice(quoteHourly(await officeQuoteContext(c.var.deps), form));
    return c.json({ price_details: quote.offers.map((o) => o.detail), hours: quote.hours });
  })
  .get('/operator/passengers', async (c) => {
    const staff = await requireStaff(c);
    const q = (c.req.query('q') ?? '').trim();
    if (q.length < 2) throw new DomainError('invalid', 'Type at least 2 letters or digits of a name, phone or e-mail.', 'q');
    if (q.length > 100) throw new DomainError('invalid', 'Type at most 100 characters.', 'q');
    return c.json({ passengers: await findPassengers(c.var.deps.db, staff, q) });
  });
