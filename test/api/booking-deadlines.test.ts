// Issue 39 item 2, through the API: the free-cancellation deadline and the change cut-off of a booking count from
// the pickup it was booked for. Inside the last 24 hours a passenger may still move the pickup, but moving it to
// tomorrow and then cancelling no longer gives a full refund. Moving it earlier brings the deadlines forward.
// Bookings made before migration 017 get their booked pickup from their first change.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { localKeys } from '../../src/server/payments/provider';
import { CHANGE_MESSAGES } from '../../src/domain/manageChanges';
import { MIGRATIONS_DIR } from '../../src/server/db/migrate';

let t: Awaited<ReturnType<typeof testApp>>;
const BEFORE = new Date('2030-09-01T12:00:00Z');
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  t.clock.now = BEFORE;
});
afterAll(async () => { await t.db.close(); });

// 07:15 BST on Thursday 12 September 2030: changes until 05:15 that day, free cancelling until 07:15 on the 11th.
const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes', pickup_fight_number: '',
};
let counter = 0;
const PK = localKeys(TEST_SECURITY.secret).publishableKey;

interface Booked { reference: string; id: number; key: string }

/** A booking paid by card through the local test gateway, as the card page makes it. */
async function cardBooking(): Promise<Booked> {
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email: `deadline.${++counter}@example.com`, additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const pm = (await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json()).id as string;
  const idem = { 'Idempotency-Key': `deadline-${counter}-${Date.now()}` };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm, amount: Math.round(Number(vehicle.price) * 100) }, idem);
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, idem);
  expect(done.status).toBe(200);
  return { reference: done.body.data.booking.booking_number, id: done.body.data.booking.id, key: done.body.data.manage_key };
}

const as = (b: Booked) => ({ 'X-Manage-Key': b.key });
const view = async (b: Booked) => (await t.call('GET', `/manage/${b.reference}`, undefined, as(b))).body;
const change = (b: Booked, values: Record<string, unknown>) => t.call('POST', `/manage/${b.reference}/changes`, values, as(b));
const cancel = (b: Booked) => t.call('POST', `/manage/${b.reference}/cancel`, {}, as(b));

describe('a pickup moved inside the last 24 hours', () => {
  it('is saved, but cancelling stays as it was: no free cancel, no refund; and the change cut-off stays too', async () => {
    const b = await cardBooking();
    try {
      t.clock.now = new Date('2030-09-11T10:00:00Z'); // 11:00 BST on the 11th: free cancelling ended at 07:15
      expect((await view(b)).manage.may).toEqual({ change: true, cancel: false });
      const moved = await change(b, { pickup_date: '2030-09-13' });
      expect([moved.status, moved.body.status]).toEqual([200, 'saved']);
      expect(moved.body.booking.booking.pick_up_date).toBe('2030-09-13');
      expect(moved.body.manage).toMatchObject({
        pickup_words: 'Friday 13 September 2030 at 07:15', may: { change: true, cancel: false },
        cancel_until: 'Wednesday 11 September 2030 at 07:15', change_until: 'Thursday 12 September 2030 at 05:15',
        pickup_at: '2030-09-13T06:15:00.000Z', original_pickup_at: '2030-09-12T06:15:00.000Z',
      });
      const refused = await cancel(b);
      expect([refused.status, refused.body.message]).toEqual([409, CHANGE_MESSAGES.cancelTooLate]);
      expect(await t.db.query('SELECT id FROM refunds WHERE booking_id = $1', [b.id])).toEqual([]);
      expect((await view(b)).manage.status).toBe('confirmed');
      // The cut-off of the pickup booked: 05:15 BST on the 12th, though the pickup is now a day later.
      t.clock.now = new Date('2030-09-12T04:16:00Z');
      const late = await change(b, { flight_no: 'BA 117' });
      expect([late.status, late.body.message]).toEqual([409, CHANGE_MESSAGES.tooLate]);
    } finally {
      t.clock.now = BEFORE;
    }
  });

  it('moved earlier brings the deadlines forward; moved back, they are those of the pickup booked again, never later', async () => {
    const b = await cardBooking();
    const earlier = await change(b, { pickup_date: '2030-09-10' });
    expect(earlier.body.manage).toMatchObject({ cancel_until: 'Monday 9 September 2030 at 07:15', change_until: 'Tuesday 10 September 2030 at 05:15' });
    const back = await change(b, { pickup_date: '2030-09-20' });
    expect(back.body.manage).toMatchObject({ cancel_until: 'Wednesday 11 September 2030 at 07:15', change_until: 'Thursday 12 September 2030 at 05:15' });
  });
});

describe('migration 017', () => {
  /** The migration's UPDATE statements, run again over bookings whose columns were emptied. */
  async function backfill() {
    const sql = readFileSync(path.join(MIGRATIONS_DIR, '017_booking_deadlines.sql'), 'utf8');
    const statements = sql.split(/;\s*$/m).map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter((s) => s.startsWith('UPDATE'));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await t.db.query(statement);
  }

  it("gives a booking made before it the pickup before its first change (UK time), else its pickup, and counts its e-mail changes", async () => {
    const moved = await cardBooking();
    await change(moved, { pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30', passenger_email: 'first.move@example.com' });
    await change(moved, { pickup_date: '2030-11-02', passenger_email: 'First.Move@example.com' });
    const never = await cardBooking();
    const autumn = await cardBooking();
    await t.db.query("UPDATE bookings SET pickup_at = '2030-10-27T01:30:00Z', pick_up_date = '2030-10-27', pick_up_time = '01:30' WHERE id = $1", [autumn.id]);
    await change(autumn, { pickup_date: '2030-10-28' });
    const ids = [moved.id, never.id, autumn.id];
    await t.db.query('UPDATE bookings SET original_pickup_at = NULL, passenger_email_changes = 0 WHERE id = ANY($1)', [ids]);
    await backfill();
    const rows = await t.db.query<{ original_pickup_at: Date; passenger_email_changes: number }>(
      'SELECT original_pickup_at, passenger_email_changes FROM bookings WHERE id = ANY($1) ORDER BY id', [ids]);
    // 01:30 on the last Sunday of October is its second (GMT), as the site reads it.
    expect(rows.map((r) => [new Date(r.original_pickup_at).toISOString(), r.passenger_email_changes])).toEqual([
      ['2030-09-12T06:15:00.000Z', 1], ['2030-09-12T06:15:00.000Z', 0], ['2030-10-27T01:30:00.000Z', 0],
    ]);
  });
});
