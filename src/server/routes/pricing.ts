// Prices and distances (SPEC 7): always computed here, from the operator's rates.
import { Hono } from 'hono';
import { BookingForm, DistanceRequest, HourlyRateForm } from '../../domain/schemas';
import { isEnabled } from '../../domain/settings';
import { HttpError, readBody } from '../http/errors';
import { checkNotSamePlace, leg, quoteDistance, quoteHourly, waypoint, type QuoteContext } from '../pricing/quote';
import { loadSettings, type AppDeps } from '../deps';

export async function quoteContext(deps: AppDeps): Promise<QuoteContext> {
  return { db: deps.db, distance: deps.distance, settings: await loadSettings(deps.db), now: deps.now() };
}

export function pricingRoutes(deps: AppDeps) {
  return new Hono()
    .post('/calculate-distance-price', async (c) => {
      const form = await readBody(c, BookingForm);
      const quote = await quoteDistance(await quoteContext(deps), form);
      return c.json({
        price_details: quote.offers.map((o) => o.detail),
        via_miles: quote.route.miles,
        time_duration: quote.route.seconds,
        return_via_miles: quote.route.returnMiles,
        return_time_duration: quote.route.returnSeconds,
        estimated: quote.route.estimated,
      });
    })
    .post('/calculate-hourly-price', async (c) => {
      const form = await readBody(c, HourlyRateForm);
      const ctx = await quoteContext(deps);
      if (!isEnabled(ctx.settings, 'HOURLY_RATE_STATUS')) {
        throw new HttpError(422, 'Hourly hire is not offered at the moment. Please get a quote for your journey instead.', 'pickup_duration');
      }
      const quote = await quoteHourly(ctx, form);
      return c.json({ price_details: quote.offers.map((o) => o.detail), hours: quote.hours });
    })
    .post('/calculate-distance', async (c) => {
      const body = await readBody(c, DistanceRequest);
      const ctx = await quoteContext(deps);
      const from = await waypoint(ctx, body.pickup, 'pickup');
      const to = await waypoint(ctx, body.dropoff, 'dropoff');
      checkNotSamePlace(from, to, 0);
      const l = await leg(ctx, from, to, 'pickup', 'dropoff');
      return c.json({ via_miles: l.miles, time_duration: l.seconds, estimated: l.estimated });
    });
}
