// Prices and distances (SPEC 7): always computed here, from the operator's rates.
import { Hono } from 'hono';
import { BookingForm, HourlyRateForm } from '../../domain/schemas';
import { DistanceRequest } from '../../domain/requestSchemas';
import { isEnabled } from '../../domain/settings';
import { DomainError } from '../errors';
import { readBody } from '../http/body';
import { apiJson } from '../http/securityHeaders';
import { checkNotSamePlace, leg, quoteContext, quoteDistance, quoteHourly, waypoint, type DistanceQuote, type PricedOffer } from './quote';
import type { AppEnv } from '../deps';

/** What an offer's price detail says of the vehicle, whatever the trip: serialised once per offer (per reference load). */
const vehicleParts = new WeakMap<object, string>();

function detailJson(o: PricedOffer): string {
  const d = o.detail;
  let head = vehicleParts.get(o.offer);
  if (head === undefined) {
    head = JSON.stringify({
      vehicle_id: d.vehicle_id, company_id: d.company_id, company_name: d.company_name, vehicle_image: d.vehicle_image,
      vehicle_type: d.vehicle_type, max_seat: d.max_seat, luggage: d.luggage, small_luggage: d.small_luggage,
    }).slice(0, -1);
    vehicleParts.set(o.offer, head);
  }
  const b = d.breakdown;
  const str = JSON.stringify;
  const lines = b.lines.map((l) => (typeof l.code === 'string' && typeof l.leg === 'string'
    ? `{"code":${str(l.code)},"leg":${str(l.leg)},"label":${str(l.label)},"amount":${str(l.amount)}}` : str(l))).join(',');
  return `${head},"price":${str(d.price)},"final_price":${str(d.final_price)},"breakdown":{"currency":${str(b.currency)},"final_price":${str(b.final_price)},"lines":[${lines}]}}`;
}

/**
 * The answer of calculate-distance-price as JSON text: exactly JSON.stringify of { price_details, via_miles, ... }
 * (test/api/pricing.test.ts compares them), with each vehicle's own fields serialised once instead of on every call
 * (serialising the answer was a sixth of the call's CPU).
 */
export function distancePriceJson(quote: DistanceQuote): string {
  const rest = JSON.stringify({
    via_miles: quote.route.miles, time_duration: quote.route.seconds, return_via_miles: quote.route.returnMiles,
    return_time_duration: quote.route.returnSeconds, estimated: quote.route.estimated,
  });
  return `{"price_details":[${quote.offers.map(detailJson).join(',')}],${rest.slice(1)}`;
}

export const pricingRoutes = new Hono<AppEnv>()
  .post('/calculate-distance-price', async (c) => {
    const form = await readBody(c, BookingForm);
    const quote = await quoteDistance(await quoteContext(c.var.deps), form);
    return apiJson(distancePriceJson(quote));
  })
  .post('/calculate-hourly-price', async (c) => {
    const form = await readBody(c, HourlyRateForm);
    const ctx = await quoteContext(c.var.deps);
    if (!isEnabled(ctx.settings, 'HOURLY_RATE_STATUS')) {
      throw new DomainError('invalid', 'Hourly hire is not offered at the moment. Please get a quote for your journey instead.', 'pickup_duration');
    }
    const quote = await quoteHourly(ctx, form);
    return c.json({ price_details: quote.offers.map((o) => o.detail), hours: quote.hours });
  })
  .post('/calculate-distance', async (c) => {
    const body = await readBody(c, DistanceRequest);
    const ctx = await quoteContext(c.var.deps);
    const from = await waypoint(ctx, body.pickup, 'pickup');
    const to = await waypoint(ctx, body.dropoff, 'dropoff');
    checkNotSamePlace(from, to, 0);
    const l = await leg(ctx, from, to, 'pickup', 'dropoff');
    return c.json({ via_miles: l.miles, time_duration: l.seconds, estimated: l.estimated });
  });
