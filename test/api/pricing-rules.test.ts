// The pricing engine through the API: extras from settings, return legs, stops,
// hourly hire, the grace period in UK time and banned addresses.
import { SKIPPED_HOUR_MESSAGE } from '../../src/domain/clockChanges';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEATHROW_TO_TRAFALGAR, testApp } from './setup';
import { banAddress, setSetting, unbanAddress } from '../../src/server/operator/operator';
import { loadOffers, quoteContext, quoteDistance, quoteHourly } from '../../src/server/pricing/quote';
import { estimateDistance, UnroutableError, type DistanceService, type Waypoint } from '../../src/server/geo/distance';
import { SAME_PLACE } from '../../src/domain/messages';
import { distanceFarePence } from '../../src/server/pricing/engine';

let t: Awaited<ReturnType<typeof testApp>>;
// The fares to the penny: ROUND_OFF off here; its whole-pound prices are test/api/one-price.test.ts's.
beforeAll(async () => { t = await testApp(); await setSetting(t.db, 'ROUND_OFF', 'no'); });
afterAll(async () => { await t.db.close(); });

const trip = HEATHROW_TO_TRAFALGAR;
const saloonOf = (body: any, company = 'Albion Executive Cars') =>
  body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
const pence = (s: string) => Math.round(Number(s) * 100);

describe('extras priced from the settings', () => {
  it('adds each extra asked for, at the seeded UK prices, and lists it in the breakdown', async () => {
    const plain = saloonOf((await t.call('POST', '/calculate-distance-price', trip)).body);
    const res = await t.call('POST', '/calculate-distance-price', {
      ...trip, meet_and_greet: 'yes', baby_seats: 2, booster_seats: 1, wheel_chair: 'yes', special_luggage: 3, waiting_min: 15,
    });
    const withExtras = saloonOf(res.body);
    // Seeded: meet and greet 15, baby seat 10 each, booster 8 each, wheelchair 20, special luggage 10 each, 3 per started 5 minutes.
    const extras = 1500 + 2 * 1000 + 800 + 2000 + 3 * 1000 + 3 * 300;
    expect(pence(withExtras.price)).toBe(pence(plain.price) + extras);
    expect(withExtras.breakdown.lines.map((l: any) => [l.code, l.amount])).toEqual([
      ['fare', plain.price], ['meet_and_greet', '15.00'], ['baby_seat', '20.00'], ['booster_seat', '8.00'],
      ['wheel_chair', '20.00'], ['special_luggage', '30.00'], ['waiting', '9.00'],
    ]);
  });

  it('charges waiting per started five minutes', async () => {
    const body = (await t.call('POST', '/calculate-distance-price', { ...trip, waiting_min: 5 })).body;
    expect(saloonOf(body).breakdown.lines.find((l: any) => l.code === 'waiting').amount).toBe('3.00');
  });

  it('leaves out an extra whose setting is 0', async () => {
    await setSetting(t.db, 'MEET_AND_GREET', '0');
    const body = (await t.call('POST', '/calculate-distance-price', { ...trip, meet_and_greet: 'yes' })).body;
    expect(saloonOf(body).breakdown.lines.map((l: any) => l.code)).toEqual(['fare']);
    await setSetting(t.db, 'MEET_AND_GREET', '15');
  });
});

describe('return trips and stops', () => {
  it('prices the return leg with its own options', async () => {
    const res = await t.call('POST', '/calculate-distance-price', {
      ...trip, select_option: 'return', return_date: '2030-06-08', return_hour: '9am', return_min: '30',
      return_meet_and_greet: 'yes', return_baby_seats: 1,
    });
    expect(res.status).toBe(200);
    const lines = saloonOf(res.body).breakdown.lines;
    expect(lines.map((l: any) => `${l.leg}:${l.code}`)).toEqual(['outbound:fare', 'return:fare', 'return:meet_and_greet', 'return:baby_seat']);
    expect(lines[2].label).toBe('Return: Meet and Greet');
    expect(res.body.return_via_miles).toBe(res.body.via_miles);
  });

  it('refuses a return before the outbound pickup', async () => {
    const res = await t.call('POST', '/calculate-distance-price', {
      ...trip, select_option: 'return', return_date: '2030-06-01', return_hour: '2pm', return_min: '00',
    });
    expect([res.status, res.body.field]).toEqual([422, 'return_date']);
  });

  it('adds each stop\'s leg to the distance', async () => {
    const direct = (await t.call('POST', '/calculate-distance-price', trip)).body;
    const via = (await t.call('POST', '/calculate-distance-price', {
      ...trip, stops: [{ street_name: 'Windsor Castle, Windsor', number: '', postcode: 'SL4 1NJ' }],
    })).body;
    expect(via.via_miles).toBeGreaterThan(direct.via_miles + 10);
    const offers = await loadOffers(t.db);
    const saloon = offers.find((o) => o.vehicle_type === 'Saloon' && o.company_name === 'Albion Executive Cars')!;
    expect(pence(saloonOf(via).price)).toBe(distanceFarePence(saloon.rate, via.via_miles));
  });
});

describe('hourly hire', () => {
  const hourly = { pickup: 'Canary Wharf, One Canada Square, London E14 5AB', pickup_date: '2030-06-01', pickup_duration: '6hour', pickup_hour: '9am', pickup_min: '00' };

  it('is refused while HOURLY_RATE_STATUS is not enable', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'disable');
    const res = await t.call('POST', '/calculate-hourly-price', hourly);
    expect([res.status, res.body.field]).toEqual([422, 'pickup_duration']);
  });

  it('prices hours times the hourly rate, for 4 to 24 hours', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    const res = await t.call('POST', '/calculate-hourly-price', hourly);
    expect(res.status).toBe(200);
    const offers = await loadOffers(t.db);
    expect(res.body.price_details).toHaveLength(offers.filter((o) => o.hourly_rate_pence > 0).length);
    for (const d of res.body.price_details) {
      const o = offers.find((x) => x.vehicle_id === d.vehicle_id && x.company_id === d.company_id)!;
      expect(pence(d.price)).toBe(o.hourly_rate_pence * 6);
    }
    expect((await t.call('POST', '/calculate-hourly-price', { ...hourly, pickup_duration: '3hour' })).body.field).toBe('pickup_duration');
    expect((await t.call('POST', '/calculate-hourly-price', { ...hourly, pickup_duration: '25hour' })).body.field).toBe('pickup_duration');
    expect((await t.call('POST', '/calculate-hourly-price', { ...hourly, pickup_duration: '24hour' })).status).toBe(200);
  });
});

describe('the grace period, in UK time', () => {
  afterAll(() => { t.clock.now = new Date(); });

  it('refuses a pickup sooner than GRACE_TIME minutes with the SPEC message', async () => {
    // 12:00 UTC on 1 June 2030 is 13:00 in London (BST).
    t.clock.now = new Date('2030-06-01T12:00:00Z');
    const at = (hour: string, min: string) => t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2030-06-01', pickup_hour: hour, pickup_min: min });
    const tooSoon = await at('2pm', '55'); // 1 h 55 min ahead
    expect([tooSoon.status, tooSoon.body.message]).toEqual([422, 'Pickup time is within the grace period']);
    expect((await at('3pm', '00')).status).toBe(200); // exactly 2 hours ahead
    expect((await at('11am', '00')).body.message).toBe('Pickup time is within the grace period'); // in the past
  });

  it('holds for hourly hire too, on its price and on its booking (SPEC 8: a pickup sooner than GRACE_TIME is booked by phone)', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    t.clock.now = new Date('2030-06-01T12:00:00Z'); // 13:00 in London
    const hourly = (hour: string, min: string) => ({
      pickup: 'Canary Wharf, One Canada Square, London E14 5AB', pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: hour, pickup_min: min,
    });
    const tooSoon = await t.call('POST', '/calculate-hourly-price', hourly('2pm', '55'));
    expect([tooSoon.status, tooSoon.body.message]).toEqual([422, 'Pickup time is within the grace period']);
    const inTime = await t.call('POST', '/calculate-hourly-price', hourly('3pm', '00'));
    expect(inTime.status).toBe(200);
    // A booking of a price given earlier is checked again when it is made.
    const booked = await t.call('POST', '/booking', {
      selectedVehicleData: inTime.body.price_details[0], selectedVehicle: 1, bookingType: 'hourly', hourlyRateForm: hourly('2pm', '30'),
      payment_method: 'car', selected_passenger: 'guest_login',
      registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email: 'hourly.grace@example.com' },
    });
    expect([booked.status, booked.body.message]).toEqual([422, 'Pickup time is within the grace period']);
  });

  it('judges winter pickups on GMT', async () => {
    t.clock.now = new Date('2030-12-01T12:00:00Z'); // 12:00 in London
    const r = (hour: string) => t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2030-12-01', pickup_hour: hour, pickup_min: '00' });
    expect((await r('1pm')).status).toBe(422);
    expect((await r('2pm')).status).toBe(200);
  });

  it('refuses a time the clocks skip (1am to 1:59am on the last Sunday of March) on the hour, for both forms; the October hour that happens twice is taken', async () => {
    t.clock.now = new Date('2031-03-01T12:00:00Z');
    const skipped = await t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2031-03-30', pickup_hour: '1am', pickup_min: '30' });
    expect([skipped.status, skipped.body.field, skipped.body.message]).toEqual([422, 'pickup_hour', SKIPPED_HOUR_MESSAGE]);
    const hourly = await t.call('POST', '/calculate-hourly-price', { pickup: trip.pickup, pickup_date: '2031-03-30', pickup_hour: '1am', pickup_min: '00', pickup_duration: '4hour' });
    expect([hourly.status, hourly.body.field]).toEqual([422, 'pickup_hour']);
    expect((await t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2031-03-30', pickup_hour: '2am', pickup_min: '00' })).status).toBe(200);
    expect((await t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' })).status).toBe(422); // before now
    t.clock.now = new Date('2030-10-01T12:00:00Z');
    expect((await t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' })).status).toBe(200);
  });

  it('follows the GRACE_TIME setting', async () => {
    t.clock.now = new Date('2030-12-01T12:00:00Z');
    await setSetting(t.db, 'GRACE_TIME', '30');
    const r = await t.call('POST', '/calculate-distance-price', { ...trip, pickup_date: '2030-12-01', pickup_hour: '12pm', pickup_min: '45' });
    expect(r.status).toBe(200);
    await setSetting(t.db, 'GRACE_TIME', '120');
  });
});

describe('banned addresses', () => {
  it('refuses a pickup, drop-off or stop that contains a banned address', async () => {
    await banAddress(t.db, 'Trafalgar Square', 'Road closures');
    const res = await t.call('POST', '/calculate-distance-price', trip);
    expect([res.status, res.body.message, res.body.field]).toEqual([422, 'Address is banned', 'dropoff']);
    const stop = await t.call('POST', '/calculate-distance-price', {
      ...trip, dropoff: 'Waterloo Station, Waterloo Road, London SE1 8SW', stops: [{ street_name: 'trafalgar   square', number: '', postcode: '' }],
    });
    expect([stop.status, stop.body.field]).toEqual([422, 'stops.0']);
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    const hourly = await t.call('POST', '/calculate-hourly-price', {
      pickup: trip.dropoff, pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: '9am', pickup_min: '00',
    });
    expect(hourly.body.message).toBe('Address is banned');
    await unbanAddress(t.db, 'Trafalgar Square');
    expect((await t.call('POST', '/calculate-distance-price', trip)).status).toBe(200);
  });

  it('matches whole words only', async () => {
    await banAddress(t.db, 'Wharf');
    expect((await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: 'Canary Wharf, One Canada Square, London E14 5AB' })).status).toBe(422);
    expect((await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: 'Wharfedale, Otley' })).status).not.toBe(422);
    await unbanAddress(t.db, 'Wharf');
  });
});

describe('the worked example of docs/pricing.md', () => {
  it('comes out at £132.48 a vehicle', async () => {
    const res = await t.call('POST', '/calculate-distance-price', {
      ...trip, meet_and_greet: 'yes', waiting_min: 15, select_option: 'return', return_date: '2030-06-05',
      return_hour: '6pm', return_min: '30', return_baby_seats: 1,
    });
    const saloon = saloonOf(res.body);
    expect(res.body.via_miles).toBe(20.4);
    expect(saloon.breakdown.lines.map((l: any) => l.amount)).toEqual(['49.24', '15.00', '9.00', '49.24', '10.00']);
    expect(saloon.price).toBe('132.48');
  });

  it('comes out at £132 with ROUND_OFF yes, the 48p taken off in a Rounding line', async () => {
    await setSetting(t.db, 'ROUND_OFF', 'yes');
    try {
      const res = await t.call('POST', '/calculate-distance-price', {
        ...trip, meet_and_greet: 'yes', waiting_min: 15, select_option: 'return', return_date: '2030-06-05',
        return_hour: '6pm', return_min: '30', return_baby_seats: 1,
      });
      const saloon = saloonOf(res.body);
      expect(saloon.breakdown.lines.map((l: any) => [l.label, l.amount]).at(-1)).toEqual(['Rounding', '-0.48']);
      expect(saloon.price).toBe('132.00');
    } finally {
      await setSetting(t.db, 'ROUND_OFF', 'no');
    }
  });
});

describe('a return trip\'s own fields (the booking form\'s return leg)', () => {
  const ret = { ...trip, select_option: 'return', return_date: '2030-06-08', return_hour: '9am', return_min: '30' };

  it('names each return field that is missing', async () => {
    for (const field of ['return_date', 'return_hour', 'return_min']) {
      const res = await t.call('POST', '/calculate-distance-price', { ...ret, [field]: '' });
      expect([res.status, res.body.field, res.body.message]).toEqual([422, field, `${field} is required for a return trip`]);
    }
  });

  it('refuses a return at the very time of the outbound pickup, and a return in the hour the clocks skip, on the return hour', async () => {
    const same = await t.call('POST', '/calculate-distance-price', { ...ret, return_date: trip.pickup_date, return_hour: trip.pickup_hour, return_min: trip.pickup_min });
    expect([same.status, same.body.field, same.body.message]).toEqual([422, 'return_date', 'return_date: the return pickup must be after the outbound pickup']);
    const skipped = await t.call('POST', '/calculate-distance-price', { ...ret, return_date: '2031-03-30', return_hour: '1am', return_min: '15' });
    expect([skipped.status, skipped.body.field, skipped.body.message]).toEqual([422, 'return_hour', SKIPPED_HOUR_MESSAGE]);
  });

  it('measures the return from the drop-off straight back to the pickup, past no stop', async () => {
    const viaWindsor = { ...ret, stops: [{ street_name: 'Windsor Castle, Windsor', number: '', postcode: 'SL4 1NJ' }] };
    const withStop = (await t.call('POST', '/calculate-distance-price', viaWindsor)).body;
    const straightBack = (await t.call('POST', '/calculate-distance-price', { ...trip, pickup: trip.dropoff, dropoff: trip.pickup })).body;
    expect(withStop.return_via_miles).toBe(straightBack.via_miles);
    expect(withStop.via_miles).toBeGreaterThan(withStop.return_via_miles);
  });
});

describe('places the distance service cannot route, and a service that fails (decision 23)', () => {
  const routeless = (which: 'from' | 'to', when: (from: Waypoint) => boolean = () => true): DistanceService => ({
    ...estimateDistance,
    leg: async (from, to) => {
      if (when(from)) throw new UnroutableError(which, 'No road reaches this place');
      return estimateDistance.leg(from, to);
    },
  });

  it('names the drop-off, or the pickup, that cannot be reached, quoting the customer\'s own text', async () => {
    const to = await testApp({ db: t.db, distance: routeless('to') });
    const r1 = await to.call('POST', '/calculate-distance-price', trip);
    expect([r1.status, r1.body.field, r1.body.message]).toEqual([422, 'dropoff', `No road reaches this place. Please check "${trip.dropoff}".`]);
    const from = await testApp({ db: t.db, distance: routeless('from') });
    const r2 = await from.call('POST', '/calculate-distance-price', trip);
    expect([r2.status, r2.body.field, r2.body.message]).toEqual([422, 'pickup', `No road reaches this place. Please check "${trip.pickup}".`]);
  });

  it('names the pickup when only the way back to it cannot be routed', async () => {
    const back = await testApp({ db: t.db, distance: routeless('to', (from) => from.text === trip.dropoff) });
    const res = await back.call('POST', '/calculate-distance-price', { ...trip, select_option: 'return', return_date: '2030-06-08', return_hour: '9am', return_min: '30' });
    expect([res.status, res.body.field]).toEqual([422, 'pickup']);
  });

  it('answers 503 with a way to book when the distance service fails', async () => {
    const down = await testApp({ db: t.db, distance: { ...estimateDistance, leg: async () => { throw new Error('connection refused'); } } });
    const res = await down.call('POST', '/calculate-distance-price', trip);
    expect([res.status, res.body.message]).toEqual([503, 'We cannot measure this journey right now. Please try again in a minute, or call us to book.']);
  });

  it('calls a journey estimated when only its way back was measured between rough points', async () => {
    const roughBack = await testApp({
      db: t.db,
      distance: { ...estimateDistance, leg: async (from, to) => ({ ...(await estimateDistance.leg(from, to)), estimated: from.text === trip.dropoff }) },
    });
    const oneWay = await roughBack.call('POST', '/calculate-distance-price', trip);
    const ret = await roughBack.call('POST', '/calculate-distance-price', { ...trip, select_option: 'return', return_date: '2030-06-08', return_hour: '9am', return_min: '30' });
    expect([oneWay.body.estimated, ret.body.estimated]).toEqual([false, true]);
  });
});

describe('what the price call refuses, by field', () => {
  it('refuses the same pickup and drop-off, and a stop it cannot place by its own field', async () => {
    const same = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: trip.pickup });
    expect([same.status, same.body.field, same.body.message]).toEqual([422, 'dropoff', SAME_PLACE]);
    const stop = await t.call('POST', '/calculate-distance-price', { ...trip, stops: [{ street_name: 'Qqqzx Nowhere Lane', number: '', postcode: '' }] });
    expect([stop.status, stop.body.field]).toEqual([422, 'stops.0']);
  });

  it('refuses a pickup sooner than the grace time on the pickup date field', async () => {
    t.clock.now = new Date('2030-06-01T12:00:00Z');
    try {
      const res = await t.call('POST', '/calculate-distance-price', { ...trip, pickup_hour: '1pm', pickup_min: '30' });
      expect([res.status, res.body.field]).toEqual([422, 'pickup_date']);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('refuses a banned address whatever its case and punctuation, on the field that holds it, for hourly hire too', async () => {
    await banAddress(t.db, 'Somewhere Else Entirely');
    await banAddress(t.db, 'TRAFALGAR,  Square!');
    try {
      const stop = await t.call('POST', '/calculate-distance-price', {
        ...trip, dropoff: 'Waterloo Station, Waterloo Road, London SE1 8SW', stops: [{ street_name: 'Trafalgar Square', number: '', postcode: 'WC2N 5DN' }],
      });
      expect([stop.status, stop.body.field, stop.body.message]).toEqual([422, 'stops.0', 'Address is banned']);
      await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
      const hourly = await t.call('POST', '/calculate-hourly-price', {
        pickup: 'Trafalgar Square, London WC2N 5DN', pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: '9am', pickup_min: '00',
      });
      expect([hourly.status, hourly.body.field, hourly.body.message]).toEqual([422, 'pickup', 'Address is banned']);
    } finally {
      await unbanAddress(t.db, 'Somewhere Else Entirely');
      await unbanAddress(t.db, 'TRAFALGAR,  Square!');
    }
  });
});

describe('hourly hire\'s price line and pickup', () => {
  it('prices one line, "Hourly hire, N hours at £R an hour", and knows an airport pickup', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    const res = await t.call('POST', '/calculate-hourly-price', {
      pickup: 'Canary Wharf, One Canada Square, London E14 5AB', pickup_date: '2030-06-01', pickup_duration: '5hour', pickup_hour: '9am', pickup_min: '00',
    });
    const offers = await loadOffers(t.db);
    for (const d of res.body.price_details) {
      const rate = offers.find((o) => o.vehicle_id === d.vehicle_id && o.company_id === d.company_id)!.hourly_rate_pence;
      expect(d.breakdown.lines).toEqual([{ code: 'hourly', leg: 'outbound', label: `Hourly hire, 5 hours at ${(rate / 100).toFixed(2)} an hour`, amount: (rate * 5 / 100).toFixed(2) }]);
    }
    const ctx = await quoteContext({ db: t.db, distance: estimateDistance, now: () => new Date('2030-01-01T00:00:00Z') });
    const form = { pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: '9am', pickup_min: '00' as const };
    expect((await quoteHourly(ctx, { ...form, pickup: 'Canary Wharf, One Canada Square, London E14 5AB' })).pickupAirport).toBe(false);
    expect((await quoteHourly(ctx, { ...form, pickup: trip.pickup })).pickupAirport).toBe(true);
  });
});

describe('a booking\'s price', () => {
  it('is of the vehicle it books alone: that vehicle of that company', async () => {
    const ctx = await quoteContext({ db: t.db, distance: estimateDistance, now: () => new Date('2030-01-01T00:00:00Z') });
    const offers = await loadOffers(t.db);
    const saloon = offers.find((o) => o.vehicle_type === 'Saloon' && o.company_name === 'Albion Executive Cars')!;
    const otherCompany = offers.find((o) => o.company_id !== saloon.company_id)!;
    const form = { ...trip, stops: [], select_option: 'one_way' } as any;
    const quoted = await quoteDistance(ctx, form, { vehicle_id: saloon.vehicle_id, company_id: saloon.company_id });
    expect(quoted.offers.map((o) => [o.offer.vehicle_id, o.offer.company_id])).toEqual([[saloon.vehicle_id, saloon.company_id]]);
    const mixed = await quoteDistance(ctx, form, { vehicle_id: saloon.vehicle_id, company_id: otherCompany.company_id });
    expect(mixed.offers.every((o) => o.offer.vehicle_id === saloon.vehicle_id && o.offer.company_id === otherCompany.company_id)).toBe(true);
    expect(quoted.route.pickupAirport).toBe(true);
    expect((await quoteDistance(ctx, { ...form, pickup: trip.dropoff, dropoff: trip.pickup })).route.pickupAirport).toBe(false);
  });
});
