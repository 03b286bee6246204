// Issue 39 'who may move money' and decision 50: the operator takes the card payments, so only the office
// (administrators and dispatchers) refunds them. A company's staff cancel their company's bookings without a refund
// (asking for one is refused); the office is told by a notice of its own that the payment is left for it, and the
// booking offers the office Refund: all that is left, made once however often it is pressed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, TEST_SITE_URL, testApp } from './setup';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { localKeys } from '../../src/server/payments/provider';

let t: Awaited<ReturnType<typeof testApp>>;
const [ADMIN, METRO] = DEMO_STAFF;
let admin: Record<string, string>;
let metro: Record<string, string>;
let dispatcher: Record<string, string>;

const signIn = async (email: string, password: string) => {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
};

beforeAll(async () => {
  t = await testApp();
  admin = await signIn(ADMIN.email, ADMIN.password);
  metro = await signIn(METRO.email, METRO.password);
  const added = await t.call('POST', '/operator/data', { change: { kind: 'addStaff', email: 'night.desk@albion-executive.co.uk', name: 'Sam Lee', role: 'dispatcher' } }, admin);
  dispatcher = await signIn('night.desk@albion-executive.co.uk', added.body.password);
});
afterAll(async () => { await t.db.close(); });

let counter = 0;
/** A guest booking with Metro Cars London, paid by card through the local test gateway as the card page pays, or in the car. */
async function book(card = true) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: '2030-09-13', pickup_hour: '9am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const vehicle = (await t.call('POST', '/calculate-distance-price', form)).body.price_details
    .find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Metro Cars London');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Iris', surname: 'Money', number: '+44 7700 900012', email: `iris.money.${++counter}@example.com`, additionalInfo: '' },
    payment_method: card ? 'card' : 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  if (!card) {
    const { data } = (await t.call('POST', '/booking', request)).body;
    return { ...data.booking, manage_key: data.manage_key } as { id: number; booking_number: string; total_booking_amount: string; manage_key: string };
  }
  const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${localKeys(TEST_SECURITY.secret).publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
  const key = `money-${Date.now()}-${counter}`;
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, { 'Idempotency-Key': key });
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, { 'Idempotency-Key': key });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { ...done.body.data.booking, manage_key: done.body.data.manage_key } as { id: number; booking_number: string; total_booking_amount: string; manage_key: string };
}

const page = async (ref: string, who = admin) => (await t.call('GET', `/operator/bookings/${ref}`, undefined, who)).body;
const atProvider = async (bookingId: number) => (await t.db.query<{ data: { amount: number } }>(
  "SELECT data FROM test_gateway_objects WHERE kind = 'refund' AND data->'metadata'->>'booking_id' = $1 ORDER BY created_at", [String(bookingId)])).map((r) => r.data.amount);
const mails = (bookingId: number) => t.db.query<{ kind: string; to_address: string; cc_address: string | null; subject: string; body_text: string }>(
  'SELECT kind, to_address, cc_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 ORDER BY id', [bookingId]);
const pence = (pounds: string) => Math.round(Number(pounds) * 100);

describe("a company's staff and the operator's money", () => {
  it('may not refund: a cancel asking for a refund is refused (403 naming refund), and changes nothing', async () => {
    const b = await book();
    for (const body of [{ reason: 'Car broke down', refund: 'yes' }, { reason: 'Car broke down', refund: 'yes', refund_amount: '10.00' }]) {
      const res = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, body, metro);
      expect([res.status, res.body.field, res.body.message]).toEqual([403, 'refund', 'Only the office refunds a card payment: cancel without a refund, and the office is told to refund it.']);
    }
    expect((await page(b.booking_number)).desk).toMatchObject({ status: 'confirmed', refund: null, payment: { status: 'paid' } });
    expect(await atProvider(b.id)).toEqual([]);
  });

  it('cancels without a refund; the passenger is told the office will write, and the office alone gets a notice to refund it', async () => {
    const b = await book();
    // The office's question (refund or not) is not theirs: a reason is all they give.
    const res = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Car broke down' }, metro);
    expect(res.body).toEqual({ status: 'cancelled', refund: null });
    expect(await atProvider(b.id)).toEqual([]);
    const amount = `£${b.total_booking_amount}`;
    const sent = (await mails(b.id)).filter((m) => m.kind !== 'booking_confirmation' && m.kind !== 'new_booking_notice');
    const passenger = sent.find((m) => m.kind === 'booking_cancelled')!;
    expect(passenger.body_text).toContain(`Our office will e-mail you about refunding the ${amount} paid by card.`);
    expect(passenger.body_text).not.toContain('is not refunded');
    const due = sent.filter((m) => m.subject === `Refund due: ${b.booking_number}`);
    expect(due.map((m) => [m.to_address, m.cc_address])).toEqual([['bookings@albion-executive.co.uk', null]]);
    expect(due[0].body_text).toContain(`${b.booking_number} was cancelled by ${METRO.name} (Metro Cars London); its card payment of ${amount} was not refunded: refund it from the console.`);
    expect(due[0].body_text).toContain(`${TEST_SITE_URL}/operator/bookings/${b.booking_number}`);
    expect(due[0].body_text).toContain('Car broke down');
    const cancelled = sent.find((m) => m.subject.startsWith(`Booking cancelled: ${b.booking_number}`) && m.to_address === 'bookings@albion-executive.co.uk')!;
    expect(cancelled.cc_address).toBe('dispatch@metrocars.london');
    expect(cancelled.body_text).toContain(`${amount} paid by card, not refunded: the office refunds it.`);
    // The office sees the refund due, with Refund; the company sees the booking cancelled, with nothing to press.
    expect((await page(b.booking_number)).desk).toMatchObject({ status: 'cancelled', actions: ['refund'], refund: null, payment: { status: 'paid', refundable: b.total_booking_amount } });
    expect((await page(b.booking_number, metro)).desk.actions).toEqual([]);
    const audit = await t.db.query<{ after: Record<string, unknown> }>("SELECT after FROM audit_log WHERE booking_id = $1 AND action = 'Cancelled'", [b.id]);
    expect(audit[0].after).toMatchObject({ refund_pence: null, refund_left_to_office_pence: pence(b.total_booking_amount) });
  });

  it('cannot press Refund either: 403, nothing written', async () => {
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Car broke down', refund: 'no' }, metro);
    const res = await t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, metro);
    expect(res.status).toBe(403);
    expect(await t.db.query('SELECT 1 FROM refunds WHERE booking_id = $1', [b.id])).toEqual([]);
  });
});

describe("the office's Refund after a cancellation", () => {
  it('refunds all that is left once, whoever presses at the same moment, and tells the passenger', async () => {
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Car broke down' }, metro);
    // The passenger's page says what the card is still owed, until the office has refunded it.
    const passengerPage = async () => (await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': b.manage_key })).body.manage;
    expect(await passengerPage()).toMatchObject({ status: 'cancelled', refund_due: b.total_booking_amount, booked_at: expect.any(String) });
    const [{ created_at }] = await t.db.query<{ created_at: Date }>('SELECT created_at FROM bookings WHERE id = $1', [b.id]);
    expect((await passengerPage()).booked_at).toBe(new Date(created_at).toISOString());
    const [one, two] = await Promise.all([
      t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, admin),
      t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, dispatcher),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const won = one.status === 200 ? one : two;
    expect(won.body.refund).toMatchObject({ status: 'succeeded', providerId: expect.stringMatching(/^re_/) });
    expect((one.status === 409 ? one : two).body.message).toBe('Nothing is left to refund on this booking. Reload it to see where it stands.');
    expect(await atProvider(b.id)).toEqual([pence(b.total_booking_amount)]);
    expect((await page(b.booking_number)).desk).toMatchObject({
      status: 'cancelled', actions: [], payment: { status: 'refunded', refundable: null }, refund: { amount: b.total_booking_amount, status: 'succeeded' },
    });
    expect((await passengerPage()).refund_due).toBeNull();
    // Pressed again later: nothing is left.
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, admin)).status).toBe(409);
    const told = (await mails(b.id)).filter((m) => m.subject === `Refund: ${b.booking_number}`);
    expect(told).toHaveLength(1);
    expect(told[0].body_text).toContain(`£${b.total_booking_amount} paid for your cancelled booking ${b.booking_number} is refunded to your card.`);
    expect((await t.db.query<{ staff_name: string }>("SELECT staff_name FROM audit_log WHERE booking_id = $1 AND action = 'Refunded'", [b.id])).map((a) => a.staff_name)).toHaveLength(1);
  });

  it('refunds the rest of a payment the office refunded in part when it cancelled', async () => {
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Late cancellation', refund: 'yes', refund_amount: '10.50' }, admin);
    expect((await page(b.booking_number)).desk).toMatchObject({ actions: ['refund'], payment: { status: 'partially_refunded' } });
    const res = await t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, dispatcher);
    expect(res.body.refund).toMatchObject({ status: 'succeeded' });
    expect(await atProvider(b.id)).toEqual([1050, pence(b.total_booking_amount) - 1050]);
    // The cancellation's refund, and the rest given back after it: each of a payment once.
    expect(await t.db.query('SELECT amount_pence, after_cancel FROM refunds WHERE booking_id = $1 ORDER BY id', [b.id]))
      .toEqual([{ amount_pence: 1050, after_cancel: false }, { amount_pence: pence(b.total_booking_amount) - 1050, after_cancel: true }]);
    expect((await page(b.booking_number)).desk).toMatchObject({ actions: [], payment: { status: 'refunded', refundable: null } });
  });

  it('is offered only on a cancelled card booking with money left: never on an open booking or one paid in the car', async () => {
    const open = await book();
    expect((await page(open.booking_number)).desk.actions).toEqual(['assignDriver', 'cancel']);
    expect((await t.call('POST', `/operator/bookings/${open.booking_number}/refund-rest`, undefined, admin)).status).toBe(409);
    const inCar = await book(false);
    await t.call('POST', `/operator/bookings/${inCar.booking_number}/cancel`, { reason: 'Car broke down' }, metro);
    expect((await page(inCar.booking_number)).desk.actions).toEqual([]);
    expect((await t.call('POST', `/operator/bookings/${inCar.booking_number}/refund-rest`, undefined, admin)).status).toBe(409);
    expect((await mails(inCar.id)).filter((m) => m.subject.startsWith('Refund due'))).toEqual([]);
    expect((await t.call('POST', '/operator/bookings/BK-NOSUCH1/refund-rest', undefined, admin)).status).toBe(404);
  });
});
