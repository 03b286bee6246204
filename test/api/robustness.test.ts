// Bad input at every endpoint: unreadable JSON gets 400, too big 413, and any
// other body a clear 4xx, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testApp } from './setup';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const POSTS = [
  '/calculate-distance-price', '/calculate-hourly-price', '/calculate-distance', '/check-passenger-email', '/booking',
  '/send-instant-email', '/contact-us', '/auth/forgot-password', '/auth/verify-code', '/auth/reset-password',
];

describe('bad bodies at every POST endpoint', () => {
  it.each(POSTS)('%s answers malformed JSON with 400 and an oversized body with 413', async (path) => {
    for (const bad of ['{', '{"a":', 'not json', '']) {
      const res = await t.call('POST', path, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const huge = JSON.stringify({ pickup: 'x'.repeat(110 * 1024) });
    expect((await t.call('POST', path, huge)).status).toBe(413);
  });

  it.each(POSTS)('%s answers any well-formed but wrong body with a 4xx naming what is wrong', async (path) => {
    await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
      const res = await t.call('POST', path, JSON.stringify(value));
      expect(res.status, JSON.stringify(value)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(value)).toBeLessThan(500);
      expect(typeof res.body.message).toBe('string');
    }), { numRuns: Number(process.env.FUZZ_RUNS) || 40 });
  });

  it.each(POSTS)('%s survives every field of a valid-looking body replaced by odd values', async (path) => {
    const base: Record<string, unknown> = {
      pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
      pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', pickup_duration: '4hour', email: 'a@b.co', password: 'x',
      selectedVehicleData: { vehicle_id: 1, company_id: 1 }, bookingType: 'milleage', payment_method: 'car',
      registrationData: { firstName: 'A', surname: 'B', number: '+44 770 090 012', email: 'a@b.co' },
      pickup_time: '10:00', passenger_email: 'a@b.co', passenger_phone: '123', comments: 'hi', code: '123456', new_password: 'abcdef',
    };
    const odd = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.array(fc.integer()), fc.object());
    await fc.assert(fc.asyncProperty(fc.constantFrom(...Object.keys(base)), odd, async (key, value) => {
      const body = { ...base, bookingForm: base, hourlyRateForm: base, [key]: value };
      const res = await t.call('POST', path, body);
      expect(res.status, `${key}=${JSON.stringify(value)}`).not.toBe(500);
      if (res.status >= 400) expect(typeof res.body.message).toBe('string');
    }), { numRuns: Number(process.env.FUZZ_RUNS) || 40 });
  });
});

describe('a database refusal the code did not foresee', () => {
  it('answers a unique violation with 409 and a message to retry, never 500', async () => {
    const query = t.db.query;
    t.db.query = async () => { throw Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' }); };
    try {
      const res = await t.call('GET', '/setting');
      expect([res.status, res.body.success]).toEqual([409, false]);
      expect(res.body.message).toContain('Please try again');
    } finally {
      t.db.query = query;
    }
    expect((await t.call('GET', '/setting')).status).toBe(200);
  });
});
