import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEATHROW_TO_TRAFALGAR, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { distanceFarePence } from '../../src/server/pricing/engine';
import { loadOffers } from '../../src/server/pricing/quote';
import { penceToPounds } from '../../src/domain/money';

let t: Awaited<ReturnType<typeof testApp>>;
// The fares to the penny: ROUND_OFF off here; its whole-pound prices are test/api/one-price.test.ts's.
beforeAll(async () => { t = await testApp(); await setSetting(t.db, 'ROUND_OFF', 'no'); });
afterAll(async () => { await t.db.close(); });

const trip = HEATHROW_TO_TRAFALGAR;

describe('POST /calculate-distance-price', () => {
  it('prices every offered vehicle from the stored rates and the distance', async () => {
    const { status, body } = await t.call('POST', '/calculate-distance-price', trip);
    expect(status).toBe(200);
    expect(body.via_miles).toBeCloseTo(20.4, 1);
    expect(body.time_duration).toBeGreaterThan(0);
    expect(body.estimated).toBe(true);
    const offers = await loadOffers(t.db);
    expect(body.price_details).toHaveLength(offers.length);
    for (const d of body.price_details) {
      const offer = offers.find((o) => o.vehicle_id === d.vehicle_id && o.company_id === d.company_id)!;
      expect(d.price).toBe(penceToPounds(distanceFarePence(offer.rate, body.via_miles)));
      expect(d).toMatchObject({
        company_name: offer.company_name, vehicle_type: offer.vehicle_type, max_seat: offer.max_seat,
        luggage: offer.luggage, small_luggage: offer.small_luggage, final_price: d.price,
        breakdown: { currency: '£', final_price: d.price },
      });
    }
  });

  it('adds the return leg for a return trip', async () => {
    const one = await t.call('POST', '/calculate-distance-price', trip);
    const both = await t.call('POST', '/calculate-distance-price', {
      ...trip, select_option: 'return', return_date: '2030-06-03', return_hour: '6pm', return_min: '30',
    });
    expect(both.body.price_details[0].breakdown.lines).toHaveLength(2);
    expect(Number(both.body.price_details[0].price)).toBeCloseTo(2 * Number(one.body.price_details[0].price), 2);
  });

  it('places an address by its postcode when the text is not an exact match', async () => {
    const { status, body } = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: '1 Some Street, WC2N 5DN' });
    expect(status).toBe(200);
    expect(body.via_miles).toBeCloseTo(20.4, 1);
  });

  it('names an address it cannot place with 422', async () => {
    const { status, body } = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: 'Atlantis' });
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, field: 'dropoff' });
    expect(body.message).toContain('We could not find "Atlantis"');
  });

  it.each([
    [{ ...trip, pickup: undefined }, 'pickup'],
    [{ ...trip, pickup_date: '2030-02-30' }, 'pickup_date'],
    [{ ...trip, pickup_hour: '15' }, 'pickup_hour'],
    [{ ...trip, pickup_min: '07' }, 'pickup_min'],
    [{ ...trip, passengers: 51 }, 'passengers'],
    [{ ...trip, luggages: -1 }, 'luggages'],
    [{ ...trip, waiting_min: 7 }, 'waiting_min'],
    [{ ...trip, select_option: 'return' }, 'return_date'],
    [{ ...trip, stops: [{ number: '1' }] }, 'stops.0.street_name'],
  ])('answers a bad body with 422 naming the field (%#)', async (body, field) => {
    const res = await t.call('POST', '/calculate-distance-price', body);
    expect(res.status).toBe(422);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toContain(field);
  });

  it('answers malformed JSON with 400', async () => {
    expect((await t.call('POST', '/calculate-distance-price', '{"pickup": ')).status).toBe(400);
    expect((await t.call('POST', '/calculate-distance-price', '')).status).toBe(400);
    expect((await t.call('POST', '/calculate-distance-price', '[]')).status).toBe(422);
  });
});

describe('POST /calculate-distance', () => {
  it('answers via_miles and time_duration in seconds', async () => {
    const { status, body } = await t.call('POST', '/calculate-distance', { pickup: trip.pickup, dropoff: trip.dropoff });
    expect(status).toBe(200);
    expect(body).toEqual({ via_miles: expect.closeTo(20.4, 1), time_duration: expect.any(Number), estimated: true });
  });

  it('names the field it cannot place', async () => {
    const { status, body } = await t.call('POST', '/calculate-distance', { pickup: 'Nowhere at all', dropoff: trip.dropoff });
    expect([status, body.field]).toEqual([422, 'pickup']);
  });
});

describe('the price answer as JSON text (issue 12)', () => {
  it('is exactly JSON.stringify of the answer, for a one-way and a return trip with extras', async () => {
    const { create } = await import('superstruct');
    const { BookingForm } = await import('../../src/domain/schemas');
    const { quoteDistance } = await import('../../src/server/pricing/quote');
    const { distancePriceJson } = await import('../../src/server/pricing/routes');
    const { estimateDistance } = await import('../../src/server/geo/distance');
    const { loadSettings } = await import('../../src/server/deps');
    const ctx = { db: t.db, distance: estimateDistance, settings: await loadSettings(t.db), now: new Date() };
    for (const extra of [{}, { select_option: 'return', return_date: '2030-06-08', return_hour: '11am', return_min: '30', meet_and_greet: 'yes', baby_seats: 1, return_waiting_min: 15 }]) {
      const quote = await quoteDistance(ctx, create({ ...HEATHROW_TO_TRAFALGAR, ...extra }, BookingForm));
      // Twice: the second time with each vehicle's fields already serialised.
      for (let i = 0; i < 2; i++) {
        expect(distancePriceJson(quote)).toBe(JSON.stringify({
          price_details: quote.offers.map((o) => o.detail), via_miles: quote.route.miles, time_duration: quote.route.seconds,
          return_via_miles: quote.route.returnMiles, return_time_duration: quote.route.returnSeconds, estimated: quote.route.estimated,
        }));
      }
    }
  });
});
