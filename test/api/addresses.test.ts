// Decision 23 'Addresses: never price a guess' through the API: an address the server cannot place, or a trip
// to where it starts, is a 422 naming the field, on the distance price, the hourly price and the booking call;
// a postcode nobody knows is priced at its postcode area, as an estimate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEATHROW_TO_TRAFALGAR, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { SAME_PLACE, unknownPlaceMessage } from '../../src/domain/messages';
import type { DistanceService } from '../../src/server/geo/distance';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
});
afterAll(async () => { await t.db.close(); });

const trip = HEATHROW_TO_TRAFALGAR;
const hourly = { pickup: trip.pickup, pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: '9am', pickup_min: '00' };
const nowhere = '12 Imaginary Lane, Nowhere';
const refusal = (field: string, message: string) => ({ success: false, field, message, error: message });

describe('an address the server cannot place', () => {
  it.each([
    ['the pickup', { ...trip, pickup: nowhere }, 'pickup'],
    ['the drop-off', { ...trip, dropoff: nowhere }, 'dropoff'],
    ['the second stop', { ...trip, stops: [{ street_name: 'Euston Station, Euston Road, London NW1 2RT' }, { street_name: 'Imaginary Lane', number: '12', postcode: '' }] }, 'stops.1'],
  ])('is a 422 naming %s on the distance price', async (_which, body, field) => {
    const res = await t.call('POST', '/calculate-distance-price', body);
    const text = field === 'stops.1' ? '12 Imaginary Lane' : nowhere;
    expect([res.status, res.body]).toEqual([422, refusal(field, unknownPlaceMessage(text))]);
    expect(res.body.message).toBe(`We could not find "${text}". Pick a suggestion or add the postcode.`);
  });

  it('is a 422 naming the pickup on the hourly price and the distance call', async () => {
    const res = await t.call('POST', '/calculate-hourly-price', { ...hourly, pickup: nowhere });
    expect([res.status, res.body]).toEqual([422, refusal('pickup', unknownPlaceMessage(nowhere))]);
    const d = await t.call('POST', '/calculate-distance', { pickup: trip.pickup, dropoff: nowhere });
    expect([d.status, d.body.field]).toEqual([422, 'dropoff']);
  });

  it('is a 422 naming the field inside its form on the booking call, and nothing is booked', async () => {
    const priced = await t.call('POST', '/calculate-distance-price', trip);
    const vehicle = priced.body.price_details[0];
    const registrationData = { firstName: 'Amelia', surname: 'Hart', number: '+44 770 090 012', email: 'amelia@example.com' };
    const base = { selectedVehicleData: vehicle, selectedVehicle: 1, registrationData, payment_method: 'car', selected_passenger: 'guest_login' };
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    const distance = await t.call('POST', '/booking', { ...base, bookingType: 'milleage', bookingForm: { ...trip, dropoff: nowhere } });
    expect([distance.status, distance.body]).toEqual([422, refusal('bookingForm.dropoff', unknownPlaceMessage(nowhere))]);
    const same = await t.call('POST', '/booking', { ...base, bookingType: 'milleage', bookingForm: { ...trip, dropoff: trip.pickup } });
    expect([same.status, same.body]).toEqual([422, refusal('bookingForm.dropoff', SAME_PLACE)]);
    const hourlyVehicle = (await t.call('POST', '/calculate-hourly-price', hourly)).body.price_details[0];
    const byHour = await t.call('POST', '/booking', {
      ...base, selectedVehicleData: hourlyVehicle, bookingType: 'hourly', hourlyRateForm: { ...hourly, pickup: nowhere },
    });
    expect([byHour.status, byHour.body]).toEqual([422, refusal('hourlyRateForm.pickup', unknownPlaceMessage(nowhere))]);
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    expect(after[0].n).toBe(before[0].n);
  });

  it('is not a postcode that only looks like one, nor a word every address uses', async () => {
    for (const dropoff of ['Flat 3, 22 Acacia Avenue ZZ9 9ZZ', '10 High Street', '10 London Road', 'Flat B1']) {
      const res = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff });
      expect([res.status, res.body.field], dropoff).toEqual([422, 'dropoff']);
    }
  });
});

describe('what the server places', () => {
  it('prices the seeded places, GB towns and airports', async () => {
    for (const [pickup, dropoff] of [
      [trip.pickup, trip.dropoff], ['Reading', 'Oxford'], ['14 Castle Street, Reading', 'Birmingham Airport'], ['Heathrow (LHR)', 'Gatwick (LGW)'],
    ]) {
      const res = await t.call('POST', '/calculate-distance-price', { ...trip, pickup, dropoff });
      expect(res.status, `${pickup} to ${dropoff}`).toBe(200);
    }
  });

  it('places an unknown full postcode or a closing outward code at its postcode area, as an estimate', async () => {
    const area = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: 'Flat 3, 22 Acacia Avenue, SW1A 2AA' });
    const outward = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: '22 Acacia Avenue, SW1A' });
    const london = await t.call('POST', '/calculate-distance-price', { ...trip, dropoff: 'London' });
    expect([area.status, outward.status]).toEqual([200, 200]);
    expect(area.body.via_miles).toBe(london.body.via_miles);
    expect(outward.body.via_miles).toBe(london.body.via_miles);
    expect(area.body.estimated).toBe(true);
  });

  it('says a routing service\'s distance from a town or postcode area\'s middle is an estimate', async () => {
    const routed: DistanceService = { name: 'osrm', needsCoordinates: true, leg: async () => ({ miles: 12.3, seconds: 1500, estimated: false }) };
    const r = await testApp({ distance: routed, db: t.db });
    const exact = await r.call('POST', '/calculate-distance-price', trip);
    const rough = await r.call('POST', '/calculate-distance-price', { ...trip, dropoff: '22 Acacia Avenue, SW1A 2AA' });
    const town = await r.call('POST', '/calculate-hourly-price', { ...hourly, pickup: '14 Castle Street, Reading' });
    expect([exact.body.estimated, rough.body.estimated, town.status]).toEqual([false, true, 200]);
  });
});

describe('a trip to where it starts', () => {
  it.each([
    ['the same text', trip.pickup, trip.pickup.toUpperCase()],
    ['a known place and its postcode', trip.pickup, 'Arrivals, TW6 2GA'],
    ['one airport written two ways', 'Heathrow (LHR)', 'Heathrow Airport'],
  ])('is a 422 naming the drop-off: %s', async (_what, pickup, dropoff) => {
    const res = await t.call('POST', '/calculate-distance-price', { ...trip, pickup, dropoff });
    expect([res.status, res.body]).toEqual([422, refusal('dropoff', SAME_PLACE)]);
    const d = await t.call('POST', '/calculate-distance', { pickup, dropoff });
    expect([d.status, d.body.field]).toEqual([422, 'dropoff']);
  });

  it('is priced with a stop on the way, and two addresses in one town are not the same place', async () => {
    const round = await t.call('POST', '/calculate-distance-price', {
      ...trip, dropoff: trip.pickup, stops: [{ street_name: 'Trafalgar Square, London WC2N 5DN' }],
    });
    expect([round.status, round.body.via_miles]).toEqual([200, expect.closeTo(40.8, 0)]);
    const town = await t.call('POST', '/calculate-distance-price', { ...trip, pickup: '14 Castle Street, Reading', dropoff: 'Reading Station, Reading' });
    expect(town.status).toBe(200);
  });
});
