// Issue 39 item 8 and decision 50: a refund is made once however late it is retried. The provider remembers an
// idempotency key for a day, a refund's metadata for ever: a try whose outcome is unknown (it stopped after the
// provider answered, it failed, it timed out) is looked up at the provider, by the refund's own id in the metadata,
// before a new refund is asked for; each try is claimed by one statement, so two retries at once ask once. The
// local test gateway lists refunds as Stripe does (filtered, newest first, page by page) and forgets a key after a day.
import { afterAll, beforeAll, afterEach, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import type { Db } from '../../src/server/db/index';
import { localCards, seededTestDb, testApp, TEST_SECURITY } from './setup';
import { localKeys, stripeClient, stripeSdk, type CardProvider } from '../../src/server/payments/provider';
import { testGateway } from '../../src/server/testGateway/gateway';
import { DEMO_STAFF } from '../../src/server/operator/seed';

type Call = (...args: any[]) => Promise<any>;

let db: Db;
let base: CardProvider;
let t: Awaited<ReturnType<typeof testApp>>;
/** What the provider was asked for refunds, in order; and, when a test says so, how its create answers. */
const asked: ('list' | 'create')[] = [];
let create: ((real: Call, ...args: any[]) => Promise<any>) | undefined;
const [ADMIN] = DEMO_STAFF;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  db = await seededTestDb();
  base = localCards(db);
  let client: Stripe | null = null;
  const cards: CardProvider = {
    ...base,
    stripe: async () => {
      if (client) return client;
      const real = await base.stripe();
      const refunds = {
        list: (...args: any[]) => { asked.push('list'); return (real.refunds.list as Call)(...args); },
        create: (...args: any[]) => {
          asked.push('create');
          const made: Call = (...a) => (real.refunds.create as Call)(...a);
          return create ? create(made, ...args) : made(...args);
        },
      };
      return (client = Object.create(real, { refunds: { value: refunds } }) as Stripe);
    },
  };
  t = await testApp({ db, cards: () => cards });
});
afterAll(async () => { await db.close(); });
afterEach(() => {
  create = undefined;
  asked.length = 0;
  t.clock.now = new Date();
});

const as = async () => ({ Cookie: (await t.call('POST', '/operator/session', { email: ADMIN.email, password: ADMIN.password })).headers['set-cookie'].split(';')[0] });

/** A guest booking paid by card through the local test gateway, as the card page pays. */
async function bookByCard() {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: '2030-09-13', pickup_hour: '9am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const vehicle = (await t.call('POST', '/calculate-distance-price', form)).body.price_details[0];
  const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${base.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
  const key = `refund-tries-${Date.now()}-${Math.random()}`;
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Rhys', surname: 'Tries', number: '+44 7700 900012', email: 'rhys.tries@example.com', additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, { 'Idempotency-Key': key });
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, { 'Idempotency-Key': key });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.data.booking as { id: number; booking_number: string; total_booking_amount: string };
}

/** The refunds the provider holds of a booking's payment. */
const atProvider = async (bookingId: number) => (await db.query<{ data: { id: string; amount: number } }>(
  "SELECT data FROM test_gateway_objects WHERE kind = 'refund' AND data->'metadata'->>'booking_id' = $1", [String(bookingId)])).map((r) => r.data);
const refundRow = async (bookingId: number) => (await db.query<{ status: string; provider_refund_id: string | null }>(
  'SELECT status, provider_refund_id FROM refunds WHERE booking_id = $1', [bookingId]))[0];
/** A day passes for idempotency: the provider forgets every key, as Stripe does after 24 hours. */
const forgetKeys = async () => (await t.app.request('/test-gateway/v1/test_helpers/idempotency_keys/forget', {
  method: 'POST', headers: { Authorization: `Bearer ${localKeys(TEST_SECURITY.secret).secretKey}` },
})).json();

/** The office cancels with a full refund, and the process stops once the provider has made it, before recording it. */
async function refundThatStoppedAfterTheProvider() {
  const b = await bookByCard();
  create = async (made, ...args) => { await made(...args); return new Promise(() => {}); };
  void t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate booking', refund: 'yes' }, await as());
  await expect.poll(async () => (await atProvider(b.id)).length).toBe(1);
  create = undefined;
  expect(await refundRow(b.id)).toEqual({ status: 'pending', provider_refund_id: null });
  return b;
}

describe('a refund retried after the provider forgot its key', () => {
  it('finds the refund the stopped try made, by its id in the metadata, and makes no second one', async () => {
    const b = await refundThatStoppedAfterTheProvider();
    const [made] = await atProvider(b.id);
    expect((await forgetKeys()).forgotten).toBeGreaterThan(0);
    t.clock.now = new Date(Date.now() + DAY + 3600_000);
    asked.length = 0;
    const retried = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, await as());
    expect(retried.body.refund).toEqual({ status: 'succeeded', providerId: made.id });
    expect(asked).toEqual(['list']);
    expect(await atProvider(b.id)).toHaveLength(1);
    expect(await refundRow(b.id)).toEqual({ status: 'succeeded', provider_refund_id: made.id });
    const page = (await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, await as())).body;
    expect(page.desk).toMatchObject({ payment: { status: 'refunded', refundable: null }, refund: { status: 'succeeded', id: made.id } });
  });

  it('makes none when two retries come at once: one try is claimed, the other is told it is being made', async () => {
    const b = await refundThatStoppedAfterTheProvider();
    await forgetKeys();
    t.clock.now = new Date(Date.now() + DAY + 3600_000);
    const [one, two] = await Promise.all([as(), as()]);
    asked.length = 0;
    const answers = await Promise.all([
      t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, one),
      t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, two),
    ]);
    const [made] = await atProvider(b.id);
    expect(answers.map((a) => a.body.refund.status)).toContain('succeeded');
    for (const a of answers) expect(['succeeded', 'pending']).toContain(a.body.refund.status);
    expect(await atProvider(b.id)).toHaveLength(1);
    expect(await refundRow(b.id)).toEqual({ status: 'succeeded', provider_refund_id: made.id });
    expect(asked.filter((a) => a === 'create')).toEqual([]);
  });
});

describe('the tries of a refund', () => {
  it('asks once on the first try; a retry while a try runs asks nothing; once its lease is over, it looks first, then asks', async () => {
    const b = await bookByCard();
    // The first try stops before the provider hears of it.
    create = () => new Promise(() => {});
    void t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate booking', refund: 'yes' }, await as());
    await expect.poll(() => asked.length).toBe(1);
    expect(asked).toEqual(['create']);
    create = undefined;
    const meanwhile = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, await as());
    expect(meanwhile.body.refund).toEqual({ status: 'pending' });
    expect(asked).toEqual(['create']);
    expect(await atProvider(b.id)).toEqual([]);
    // Five minutes on (the SDK's timeout and retries are over), a retry takes the refund over.
    t.clock.now = new Date(Date.now() + 5 * 60_000 + 1000);
    const later = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, await as());
    expect(later.body.refund).toMatchObject({ status: 'succeeded' });
    expect(asked).toEqual(['create', 'list', 'create']);
    expect((await atProvider(b.id)).map((r) => r.amount)).toEqual([Math.round(Number(b.total_booking_amount) * 100)]);
  });

  it('looks first after a failed try too, and asks again when the provider made nothing', async () => {
    const b = await bookByCard();
    create = async () => { throw new Error('An error occurred with our connection to Stripe.'); };
    const cancelled = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate booking', refund: 'yes' }, await as());
    expect(cancelled.body.refund).toEqual({ status: 'failed', error: 'An error occurred with our connection to Stripe.' });
    create = undefined;
    const retried = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, await as());
    expect(retried.body.refund).toMatchObject({ status: 'succeeded' });
    expect(asked).toEqual(['create', 'list', 'create']);
    expect(await atProvider(b.id)).toHaveLength(1);
    // Made: pressed again, nothing is asked.
    asked.length = 0;
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, await as())).body.refund).toEqual(retried.body.refund);
    expect(asked).toEqual([]);
  });
});

describe("the local test gateway's refunds, as Stripe's", () => {
  const keys = localKeys(TEST_SECURITY.secret);
  const clock = { now: new Date() };
  let gateway: ReturnType<typeof testGateway>;
  let stripe: Stripe;
  beforeAll(async () => {
    gateway = testGateway({ ...keys, db, deliverWebhook: null, now: () => clock.now });
    stripe = await stripeClient(keys.secretKey, undefined, (await stripeSdk()).createFetchHttpClient(async (url, init) => gateway.app.fetch(new Request(url as string, init as RequestInit))));
  });
  afterEach(() => { clock.now = new Date(); });

  /** A payment of £50 taken by the gateway. */
  async function paidIntent(): Promise<string> {
    const pm = await stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } } as never);
    return (await stripe.paymentIntents.create({ amount: 5000, currency: 'gbp', payment_method: pm.id, confirm: true })).id;
  }
  const refund = (intent: string, key: string, amount = 100) =>
    gateway.app.fetch(new Request('http://gateway/v1/refunds', {
      method: 'POST', body: new URLSearchParams({ payment_intent: intent, amount: String(amount) }),
      headers: { Authorization: `Bearer ${keys.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': key },
    }));

  it("lists a payment's refunds newest first, a page at a time, and only that payment's", async () => {
    const intent = await paidIntent();
    const other = await paidIntent();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await stripe.refunds.create({ payment_intent: intent, amount: 100 + i })).id);
    await stripe.refunds.create({ payment_intent: other, amount: 100 });
    const first = await stripe.refunds.list({ payment_intent: intent, limit: 2 });
    expect([first.data.map((r) => r.id), first.has_more]).toEqual([ids.slice(0, 2), true]);
    const second = await stripe.refunds.list({ payment_intent: intent, limit: 2, starting_after: first.data[1].id });
    expect([second.data.map((r) => r.id), second.has_more]).toEqual([ids.slice(2, 4), true]);
    const last = await stripe.refunds.list({ payment_intent: intent, limit: 2, starting_after: second.data[1].id });
    expect([last.data.map((r) => r.id), last.has_more]).toEqual([ids.slice(4), false]);
    const back = await stripe.refunds.list({ payment_intent: intent, limit: 2, ending_before: second.data[0].id });
    expect([back.data.map((r) => r.id), back.has_more]).toEqual([ids.slice(0, 2), false]);
    // The SDK pages through them all, as it does at Stripe; ten at a time when no limit is given.
    const all: string[] = [];
    for await (const r of stripe.refunds.list({ payment_intent: intent, limit: 2 })) all.push(r.id);
    expect(all).toEqual(ids);
    expect((await stripe.refunds.list({ payment_intent: intent })).data).toHaveLength(5);
    const charge = (await stripe.paymentIntents.retrieve(intent)).latest_charge as string;
    expect((await stripe.refunds.list({ charge })).data.map((r) => r.id)).toEqual(ids);
    await expect(stripe.refunds.list({ payment_intent: intent, limit: 101 })).rejects.toMatchObject({ statusCode: 400, param: 'limit' });
    await expect(stripe.refunds.list({ payment_intent: intent, starting_after: 're_unknown' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('answers a key again with the same refund for a day, and makes a new one after it, or once keys are forgotten', async () => {
    const intent = await paidIntent();
    const first = await refund(intent, 'day-key');
    const made = await first.json() as { id: string };
    clock.now = new Date(Date.now() + DAY - 60_000);
    const again = await refund(intent, 'day-key');
    expect([again.headers.get('Idempotent-Replayed'), (await again.json() as { id: string }).id]).toEqual(['true', made.id]);
    clock.now = new Date(Date.now() + DAY + 60_000);
    const after = await refund(intent, 'day-key');
    expect([after.headers.get('Idempotent-Replayed'), (await after.json() as { id: string }).id === made.id]).toEqual([null, false]);

    clock.now = new Date();
    const kept = await (await refund(intent, 'forgotten-key')).json() as { id: string };
    const forget = (key: string) => gateway.app.fetch(new Request('http://gateway/v1/test_helpers/idempotency_keys/forget', { method: 'POST', headers: { Authorization: `Bearer ${key}` } }));
    expect((await forget(keys.publishableKey)).status).toBe(401);
    expect(await (await forget(keys.secretKey)).json()).toMatchObject({ forgotten: expect.any(Number) });
    expect((await (await refund(intent, 'forgotten-key')).json() as { id: string }).id).not.toBe(kept.id);
    expect((await stripe.refunds.list({ payment_intent: intent })).data).toHaveLength(4);
  });
});
