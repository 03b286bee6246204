// Prices and distances (SPEC 7): always computed here, from the operator's rates.
import { Hono } from 'hono';
import { BookingForm, DistanceRequest } from '../../domain/schemas';
import { currencyOf } from '../../domain/settings';
import { findPlace, UnknownPlaceError } from '../geo/places';
import { readBody } from '../http';
import { quoteDistance } from '../pricing/quote';
import { loadSettings, type AppDeps } from '../app';

export function pricingRoutes(deps: AppDeps) {
  const { db, distance } = deps;
  return new Hono()
    .post('/calculate-distance-price', async (c) => {
      const form = await readBody(c, BookingForm);
      const currency = currencyOf(await loadSettings(db));
      const quote = await quoteDistance(db, distance, form, currency);
      return c.json({
        price_details: quote.offers.map((o) => o.detail),
        via_miles: quote.route.miles,
        time_duration: quote.route.seconds,
        return_via_miles: quote.route.returnMiles,
        return_time_duration: quote.route.returnSeconds,
        estimated: quote.route.estimated,
      });
    })
    .post('/calculate-distance', async (c) => {
      const body = await readBody(c, DistanceRequest);
      const from = await findPlace(db, body.pickup);
      if (!from) throw new UnknownPlaceError(body.pickup, 'pickup');
      const to = await findPlace(db, body.dropoff);
      if (!to) throw new UnknownPlaceError(body.dropoff, 'dropoff');
      const leg = await distance.leg(from, to);
      return c.json({ via_miles: leg.miles, time_duration: leg.seconds, estimated: distance.estimated });
    });
}
