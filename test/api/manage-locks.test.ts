// Find my booking beside a change or a cancel of the same booking, at once: both count a message to the passenger's
// address (one rate_limits row) and both touch the booking's row. Every one of them locks the booking's row first and
// counts after, so on PostgreSQL none waits for another in the opposite order (a deadlock, 40P01, would be a 500).
// The API suite also runs on PostgreSQL (npm run test:pg); PGlite runs one transaction at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOMY_LIMITS, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { addressKey, takeAllowance } from '../../src/server/limits';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  t.clock.now = new Date('2030-09-01T12:00:00Z');
});
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes', pickup_fight_number: '',
};
let counter = 0;
interface Booked { reference: string; id: number; key: string; email: string }

async function book(): Promise<Booked> {
  const email = `locks.${++counter}@example.com`;
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email, additionalInfo: '' },
    stripe_session_id: null, paymentId: null,
  });
  expect(res.status).toBe(200);
  return { reference: res.body.data.booking.booking_number, id: res.body.data.booking.id, key: res.body.data.manage_key, email };
}

const find = (b: Booked) => t.call('POST', '/manage/find', { reference: b.reference, email: b.email }, { 'X-Forwarded-For': '203.0.113.90' });
const as = (b: Booked) => ({ 'X-Manage-Key': b.key });

describe('Find my booking beside a change or a cancel of the same booking', () => {
  it('never fails (no deadlock), however the two fall together: each is answered as if alone', async () => {
    const b = await book();
    for (let i = 0; i < 30; i++) {
      const [found, changed] = await Promise.all([find(b), t.call('POST', `/manage/${b.reference}/changes`, { additional_info: `Note ${i}` }, as(b))]);
      expect([found.status, found.body.message], `round ${i + 1}`).toEqual([200, MANAGE_MESSAGES.findSent]);
      expect([changed.status, changed.body.status], `round ${i + 1}`).toEqual([200, 'saved']);
    }
    const [found, cancelled] = await Promise.all([find(b), t.call('POST', `/manage/${b.reference}/cancel`, {}, as(b))]);
    expect([found.status, cancelled.status, cancelled.body.status]).toEqual([200, 200, 'cancelled']);
    const links = await t.db.query('SELECT 1 FROM outbound_emails WHERE booking_id = $1 AND kind = $2', [b.id, 'manage_link']);
    expect(links).toHaveLength(31);
  });

  // Deterministic, where transactions run side by side: a change holds the booking's row (as askChange and
  // cancelByPassenger do, FOR UPDATE first) while Find my booking comes in; once Find my booking waits, the change
  // counts its message to the same address. Find my booking must be waiting for the booking, holding nothing the
  // change then needs.
  it.skipIf(!process.env.API_TEST_DATABASE_URL)('waits for a change holding the booking before it counts its message (PostgreSQL)', async () => {
    const b = await book();
    let answer: Promise<Awaited<ReturnType<typeof find>>> | null = null;
    await t.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [b.id]);
      const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      answer = find(b);
      // Until another session waits for this transaction (a state, not a time).
      await expect.poll(async () => (await t.db.query(
        `SELECT 1 FROM pg_locks w WHERE NOT w.granted AND w.locktype = 'transactionid'
            AND w.transactionid IN (SELECT h.transactionid FROM pg_locks h WHERE h.pid = $1 AND h.locktype = 'transactionid' AND h.granted)`,
        [pid])).length, { timeout: 60_000, interval: 20 }).toBe(1);
      await takeAllowance(tx, ROOMY_LIMITS, [{ limit: 'messagesToAddress', key: addressKey(b.email) }]);
    });
    const found = await answer!;
    expect([found.status, found.body.message]).toEqual([200, MANAGE_MESSAGES.findSent]);
    expect(await t.db.query('SELECT 1 FROM outbound_emails WHERE booking_id = $1 AND kind = $2', [b.id, 'manage_link'])).toHaveLength(1);
  });
});
