// The card booking's rules as a payer and an operator meet them (SPEC 4 'Card payment', SPEC 7's create- and
// confirm-payment-intent and booking calls, SPEC 8's card messages; decisions 19, 35 and 43, issues 24 and 27):
// one intent per booking for exactly its price, a replayed key that authenticates like its first request, a second
// card put on the same intent only while it can still be paid, the tries counted only for declines, answers that
// name their field when the provider refuses or fails, completion only from pending, a change's difference applied
// by the webhook, a payment ledger refunded from each payment, and unpaid bookings after a day. Through the local
// test gateway in process; where the provider must misbehave (down, a race, a payment still processing), its SDK
// client is wrapped and one call answers as Stripe would in that case.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type Stripe from 'stripe';
import type { Db } from '../../src/server/db/index';
import { HEATHROW_TO_TRAFALGAR, localCards, seededTestDb, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { stripeSdk, type CardProvider } from '../../src/server/payments/provider';
import { signPayload } from '../../src/server/testGateway/webhooks';
import { completeCardBooking } from '../../src/server/bookings/cardBookings';
import { reconcileCardBookings } from '../../src/server/cardEvents/cardEvents';
import { expireUnpaidCardBookings } from '../../src/server/bookings/unpaidBookings';
import { paymentsLeft, refundableLeft, writeRefunds } from '../../src/server/payments/ledger';
import { makeRefund } from '../../src/server/payments/refunds';
import { setSetting } from '../../src/server/operator/operator';
import { referenceDataChanged } from '../../src/server/reference/referenceData';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { loadSettings } from '../../src/server/deps';

type Call = (...args: any[]) => Promise<any>;
type Hook = (real: Call, ...args: any[]) => Promise<any>;
type IntentMethod = 'create' | 'retrieve' | 'update' | 'confirm' | 'cancel';

/** How the provider answers differently in a test (none: as the local gateway answers), and what it was asked. */
const hooks: { intents: Partial<Record<IntentMethod, Hook>>; refundsCreate?: Hook } = { intents: {} };
const asked: { method: IntentMethod; args: any[] }[] = [];

/** The SDK client with each payment-intent call recorded and, when a test says so, answered by its hook. */
function watched(stripe: Stripe): Stripe {
  const intents = stripe.paymentIntents as unknown as Record<IntentMethod, Call>;
  const wrapped: Partial<Record<IntentMethod, Call>> = {};
  for (const method of ['create', 'retrieve', 'update', 'confirm', 'cancel'] as const) {
    const real: Call = (...args) => intents[method].apply(stripe.paymentIntents, args);
    wrapped[method] = (...args) => {
      asked.push({ method, args });
      const hook = hooks.intents[method];
      return hook ? hook(real, ...args) : real(...args);
    };
  }
  const refunds = {
    list: (...args: any[]) => (stripe.refunds.list as Call)(...args),
    retrieve: (...args: any[]) => (stripe.refunds.retrieve as Call)(...args),
    create: (...args: any[]) => {
      const real: Call = (...a) => (stripe.refunds.create as Call)(...a);
      return hooks.refundsCreate ? hooks.refundsCreate(real, ...args) : real(...args);
    },
  };
  return Object.create(stripe, { paymentIntents: { value: wrapped }, refunds: { value: refunds } }) as Stripe;
}

let db: Db;
let base: CardProvider;
let cards: CardProvider;
let t: Awaited<ReturnType<typeof testApp>>;
/** The same site with the README's own allowances (3 declined tries per booking, 5 an hour per address). */
let strict: Awaited<ReturnType<typeof testApp>>;
/** Whether the gateway's events reach the site; when not, they are lost (the webhook never comes). */
let webhooksOn = false;
let S: typeof Stripe;

beforeAll(async () => {
  db = await seededTestDb();
  base = localCards(db, async (payload, signature) => {
    if (!webhooksOn) return true;
    return (await t.app.request('/api/v1/stripe/webhook', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload,
    })).ok;
  });
  let client: Stripe | null = null;
  cards = { ...base, stripe: async () => (client ??= watched(await base.stripe())) };
  t = await testApp({ db, cards: () => cards });
  strict = await testApp({ db, cards: () => cards, limits: DEFAULT_LIMITS });
  S = await stripeSdk();
  await setSetting(db, 'MEET_AND_GREET', '10');
});
afterAll(async () => {
  base.gateway!.webhooks.stop();
  await db.close();
});
afterEach(() => {
  hooks.intents = {};
  hooks.refundsCreate = undefined;
  asked.length = 0;
  webhooksOn = false;
  vi.restoreAllMocks();
});

const PAID = '4242424242424242';
const OTHER_PAID = '5555555555554444';
const DECLINED = '4000000000000002';
const THREE_D_SECURE = '4000002760003184';

const form = { ...HEATHROW_TO_TRAFALGAR, pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', luggages: 1, meet_and_greet: 'yes' };
let vehicle: { vehicle_id: number; company_id: number; price: string };
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  vehicle = body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Albion Executive Cars');
});
/** The server's price of the vehicle, in pence (SPEC 7: the amount times 100). */
const price = () => Math.round(Number(vehicle.price) * 100);

let counter = 0;
const newKey = () => `card-rules-${++counter}-${Date.now()}`;
function request(extra: Record<string, unknown> = {}) {
  return {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Nia', surname: 'Rules', number: '+44 770 090 012', email: `card.rules.${++counter}@example.com`, additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null, ...extra,
  };
}
type Request = ReturnType<typeof request>;
type App = typeof t;

/** What Stripe.js does in the browser: the card to a payment method, with the publishable key. */
async function paymentMethod(number: string): Promise<string> {
  const res = await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST',
    headers: { Authorization: `Bearer ${base.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  });
  return ((await res.json()) as { id: string }).id;
}
const startWith = (app: App, req: Request, key: string, paymentMethodId: string, headers: Record<string, string> = {}) =>
  app.call('POST', '/create-payment-intent', { ...req, paymentMethodId, amount: price() }, { 'Idempotency-Key': key, ...headers });
const start = async (app: App, req: Request, key: string, card: string, headers: Record<string, string> = {}) =>
  startWith(app, req, key, await paymentMethod(card), headers);
const confirm = (app: App, paymentIntentId: string, headers: Record<string, string> = {}) =>
  app.call('POST', '/confirm-payment-intent', { paymentIntentId }, headers);
const finish = (req: Request, key: string, ids: { sessionId: string | null; paymentId: string | null }) =>
  t.call('POST', '/booking', { ...req, stripe_session_id: ids.sessionId, paymentId: ids.paymentId }, { 'Idempotency-Key': key });

async function bookingOf(key: string) {
  const [row] = await db.query<any>(
    `SELECT id, booking_number, status, payment_status, payment_intent_id, payment_id, total_booking_amount_pence AS total
       FROM bookings WHERE idempotency_key = $1`, [key]);
  return row;
}
async function confirmationsOf(bookingId: number) {
  return (await db.query<{ status: string }>(
    "SELECT status FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY id", [bookingId])).map((m) => m.status);
}
const retrieve = async (id: string) => (await base.stripe()).paymentIntents.retrieve(id);

/** A card booking paid and completed by the browser's booking call: its key, request, intent and booking. */
async function paidBooking() {
  const req = request();
  const key = newKey();
  const created = await start(t, req, key, PAID);
  const paid = await confirm(t, created.body.paymentIntentId);
  expect(paid.body.status).toBe('succeeded');
  const done = await finish(req, key, paid.body);
  expect(done.status).toBe(200);
  return { req, key, intent: created.body.paymentIntentId as string, paid: paid.body, done: done.body.data, booking: await bookingOf(key) };
}

// Errors as the SDK raises them for what Stripe answers.
const unreachable = () => new S.errors.StripeConnectionError({ message: 'An error occurred with our connection to Stripe. Request was retried 2 times.' });
const noSuchIntent = (id: string) => new S.errors.StripeInvalidRequestError({
  type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such payment_intent: '${id}'`,
} as any);
/** console.error's lines while `run` runs. */
async function logged(run: () => Promise<unknown>): Promise<string> {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await run();
    return spy.mock.calls.map((args) => args.map(String).join(' ')).join('\n');
  } finally {
    spy.mockRestore();
  }
}

async function staffCookie() {
  const res = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}
/** The booking as the office's console shows it. */
async function desk(reference: string) {
  const res = await t.call('GET', `/operator/bookings/${reference}`, undefined, await staffCookie());
  expect(res.status).toBe(200);
  return res.body.desk;
}

describe('create-payment-intent: the key and who may replay it', () => {
  it('refuses the key sent with another request (only the notes differ) with 422 naming the Idempotency-Key header', async () => {
    const req = request();
    const key = newKey();
    expect((await start(t, req, key, PAID)).status).toBe(200);
    const other = await start(t, { ...req, registrationData: { ...req.registrationData, additionalInfo: 'Two child seats' } }, key, PAID);
    expect([other.status, other.body.field]).toEqual([422, 'Idempotency-Key']);
    expect(other.body.paymentIntentId).toBeUndefined();
  });

  it("answers a replayed key of an account's booking only to its password, on both card calls (decision 35)", async () => {
    const password = 'card-rules-pass-1';
    const req = request({ selected_passenger: 'new_client' });
    req.registrationData = { ...req.registrationData, password, privacyAccepted: true, termsAccepted: true } as typeof req.registrationData;
    const key = newKey();
    const first = await start(t, req, key, PAID);
    expect(first.status).toBe(200);
    const guessed = { ...req, registrationData: { ...req.registrationData, password: 'not-the-password' } };
    const replay = await start(t, guessed, key, PAID);
    expect([replay.status, replay.body.field]).toEqual([401, 'registrationData.password']);
    expect(replay.body.paymentIntentId).toBeUndefined();
    const again = await start(t, req, key, PAID);
    expect([again.status, again.body.paymentIntentId]).toEqual([200, first.body.paymentIntentId]);

    const paid = await confirm(t, first.body.paymentIntentId);
    expect(paid.body.status).toBe('succeeded');
    const stranger = await finish(guessed, key, paid.body);
    expect([stranger.status, stranger.body.field]).toEqual([401, 'registrationData.password']);
    expect(stranger.body.data).toBeUndefined();
    expect((await bookingOf(key)).status).toBe('pending');
    const owner = await finish(req, key, paid.body);
    expect(owner.status).toBe(200);
    expect((await bookingOf(key)).status).toBe('confirmed');
  });

  it('answers new clients paying at once with one e-mail with one booking and 422s naming the e-mail (decision 12)', async () => {
    const email = `card.rush.${Date.now()}@example.com`;
    const requests = [0, 1, 2, 3].map((i) => {
      const req = request({ selected_passenger: 'new_client' });
      req.registrationData = { ...req.registrationData, email, password: `card-rush-${i}`, privacyAccepted: true, termsAccepted: true } as typeof req.registrationData;
      return req;
    });
    const methods = await Promise.all(requests.map(() => paymentMethod(PAID)));
    const answers = await Promise.all(requests.map((req, i) => startWith(t, req, newKey(), methods[i])));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expect([refused.status, refused.body.field]).toEqual([422, 'registrationData.email']);
    const written = await db.query("SELECT b.status FROM bookings b JOIN passengers p ON p.id = b.passenger_id WHERE lower(p.email) = $1", [email]);
    expect(written).toEqual([{ status: 'pending' }]);
  });
});

describe('create-payment-intent: one intent, the card on it', () => {
  it('answers a reload after the payment was made with the same intent, even while the card service is not answering', async () => {
    const { req, key, intent } = await paidBooking();
    for (const method of ['create', 'retrieve', 'update', 'confirm'] as const) hooks.intents[method] = async () => { throw unreachable(); };
    const reload = await start(t, req, key, PAID);
    expect(reload).toEqual({ status: 200, body: { success: true, paymentIntentId: intent } });
  });

  it('never puts a second card on a payment that already succeeded while the booking waits for its completion', async () => {
    const req = request();
    const key = newKey();
    const firstCard = await paymentMethod(PAID);
    const created = await startWith(t, req, key, firstCard);
    const paid = await confirm(t, created.body.paymentIntentId);
    expect(paid.body.status).toBe('succeeded');
    expect((await bookingOf(key)).status).toBe('pending'); // the webhook is lost, the browser not back yet

    const reload = await start(t, req, key, OTHER_PAID);
    expect([reload.status, reload.body.paymentIntentId]).toEqual([200, created.body.paymentIntentId]);
    const pi = await retrieve(created.body.paymentIntentId);
    expect([pi.status, pi.payment_method, pi.latest_charge]).toEqual(['succeeded', firstCard, paid.body.paymentId]);
    const done = await finish(req, key, paid.body);
    expect(done.status).toBe(200);
    expect(await bookingOf(key)).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_id: paid.body.paymentId });
  });

  it('charges the card given last when the card is changed before paying', async () => {
    const req = request();
    const key = newKey();
    const declined = await start(t, req, key, DECLINED);
    const good = await paymentMethod(PAID);
    const changed = await startWith(t, req, key, good);
    expect(changed.body.paymentIntentId).toBe(declined.body.paymentIntentId);
    expect((await retrieve(changed.body.paymentIntentId)).payment_method).toBe(good);
    expect((await confirm(t, changed.body.paymentIntentId)).body).toMatchObject({ status: 'succeeded', paymentId: expect.stringMatching(/^ch_/) });
  });

  it("takes another card instead of the bank's check (3-D Secure) on the same intent", async () => {
    const req = request();
    const key = newKey();
    const created = await start(t, req, key, THREE_D_SECURE);
    expect((await confirm(t, created.body.paymentIntentId)).body.status).toBe('requires_action');
    const other = await start(t, req, key, PAID);
    expect(other.body.paymentIntentId).toBe(created.body.paymentIntentId);
    expect((await confirm(t, other.body.paymentIntentId)).body.status).toBe('succeeded');
  });

  it('does not ask for the bank\'s check again when the card page is reloaded with the same card after the bank approved', async () => {
    const req = request();
    const key = newKey();
    const card = await paymentMethod(THREE_D_SECURE);
    const created = await startWith(t, req, key, card);
    const first = await confirm(t, created.body.paymentIntentId);
    expect(first.body.status).toBe('requires_action');
    const approved = await t.app.request(`/test-gateway/v1/payment_intents/${created.body.paymentIntentId}/test_authentication`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${base.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_secret: first.body.clientSecret, outcome: 'approve' }),
    });
    expect(((await approved.json()) as { status: string }).status).toBe('requires_confirmation');
    const reload = await startWith(t, req, key, card);
    expect(reload.body.paymentIntentId).toBe(created.body.paymentIntentId);
    expect((await confirm(t, created.body.paymentIntentId)).body).toMatchObject({ status: 'succeeded', paymentId: expect.stringMatching(/^ch_/) });
  });

  it('keeps one intent per booking even when the provider makes a second one for calls sent at once', async () => {
    // Two create calls at once, and a provider that does not recognise the booking's idempotency key (forgotten,
    // as Stripe forgets a key after a day): both calls make an intent, and both must answer the one the booking keeps.
    let release: () => void = () => {};
    const bothAsked = new Promise<void>((resolve) => { release = resolve; setTimeout(resolve, 5_000); });
    let arrivals = 0;
    hooks.intents.create = async (real, params) => {
      if (++arrivals === 2) release();
      await bothAsked;
      return real(params);
    };
    const req = request();
    const key = newKey();
    const card = await paymentMethod(PAID);
    const answers = await Promise.all([1, 2].map(() => startWith(t, req, key, card)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(arrivals).toBe(2);
    const kept = (await bookingOf(key)).payment_intent_id;
    expect(answers.map((a) => a.body.paymentIntentId)).toEqual([kept, kept]);
    expect((await confirm(t, kept)).body.status).toBe('succeeded');
  });

  it('asks the provider for a card payment of exactly the price in pounds, named after the booking, confirmed on the server for Stripe.js', async () => {
    const req = request();
    const key = newKey();
    const created = await start(t, req, key, THREE_D_SECURE);
    await confirm(t, created.body.paymentIntentId);
    const b = await bookingOf(key);
    const made = asked.filter((a) => a.method === 'create');
    expect(made).toHaveLength(1);
    // Decision 19: manual confirmation, Stripe's own idempotency key from the booking, card only, in GBP.
    expect(made[0].args[0]).toEqual({
      amount: price(), currency: 'gbp', confirmation_method: 'manual', allowed_payment_method_types: ['card'],
      description: `Booking ${b.booking_number}`, metadata: { booking_id: String(b.id), booking_number: b.booking_number },
    });
    expect(made[0].args[1]).toEqual({ idempotencyKey: `intent-${b.booking_number}` });
    // The bank's check runs in the page with Stripe.js (handleCardAction): Stripe asks for use_stripe_sdk for that.
    const confirmed = asked.filter((a) => a.method === 'confirm');
    expect(confirmed.map((a) => a.args)).toEqual([[created.body.paymentIntentId, { use_stripe_sdk: true }]]);
  });
});

describe("the provider's refusals and failures, as the card calls answer them", () => {
  it("answers a payment method the provider does not know with 422 naming paymentMethodId, in the provider's words", async () => {
    const res = await startWith(t, request(), newKey(), 'pm_card_rules_unknown');
    expect([res.status, res.body.field]).toEqual([422, 'paymentMethodId']);
    expect(res.body.message).toContain('pm_card_rules_unknown');
  });

  it('answers 503 when the card service cannot be reached, says no payment was taken, and logs why', async () => {
    hooks.intents.create = async () => { throw unreachable(); };
    let res: Awaited<ReturnType<typeof t.call>> | undefined;
    const log = await logged(async () => { res = await start(t, request(), newKey(), PAID); });
    expect(res!.status).toBe(503);
    expect(res!.body.message).toMatch(/No payment was taken/);
    expect(res!.headers['retry-after']).toBeDefined();
    expect(log).toContain('An error occurred with our connection to Stripe.');
  });

  it('does not report a fault of its own as the card service being unavailable', async () => {
    const created = await start(t, request(), newKey(), PAID);
    hooks.intents.retrieve = async () => { throw new TypeError('Cannot read properties of undefined'); };
    const res = await logged(() => confirm(t, created.body.paymentIntentId).then((r) => { expect(r.status).toBe(500); }));
    expect(res).toContain('Cannot read properties of undefined');
  });

  it('answers 404 naming paymentIntentId for an intent of no booking here', async () => {
    const res = await confirm(t, 'pi_card_rules_unknown');
    expect([res.status, res.body.field]).toEqual([404, 'paymentIntentId']);
    expect(res.body.message).toMatch(/no payment with this id/i);
  });

  it("names the payment's field when the provider no longer knows the booking's intent", async () => {
    const req = request();
    const key = newKey();
    const created = await start(t, req, key, PAID);
    const id = created.body.paymentIntentId;
    hooks.intents.retrieve = async (_real, asked) => { throw noSuchIntent(asked); };
    const confirmed = await confirm(t, id);
    expect([confirmed.status, confirmed.body.field]).toEqual([422, 'paymentIntentId']);
    const booked = await finish(req, key, { sessionId: id, paymentId: 'ch_card_rules' });
    expect([booked.status, booked.body.field]).toEqual([422, 'stripe_session_id']);
    expect((await bookingOf(key)).status).toBe('pending');
  });
});

describe('confirm-payment-intent: where the payment stands', () => {
  it('answers where it stands when another call confirmed it meanwhile (a double click): paid, or declined in the bank\'s words', async () => {
    // The provider confirms it for "the other call" first; this call's confirmation then finds it confirmed.
    hooks.intents.confirm = async (real, ...args) => {
      await real(...args).catch(() => {});
      return real(...args);
    };
    const paid = await start(t, request(), newKey(), PAID);
    expect((await confirm(t, paid.body.paymentIntentId)).body)
      .toMatchObject({ success: true, status: 'succeeded', sessionId: paid.body.paymentIntentId, paymentId: expect.stringMatching(/^ch_/) });
    const declined = await start(t, request(), newKey(), DECLINED);
    expect((await confirm(t, declined.body.paymentIntentId)).body)
      .toMatchObject({ success: true, status: 'failed', error: 'Your card was declined.', paymentId: null });
  });

  it("gives the bank's message when the decline comes without the intent", async () => {
    hooks.intents.confirm = async (real, ...args) => {
      try {
        return await real(...args);
      } catch (err) {
        if (err instanceof S.errors.StripeCardError) throw new S.errors.StripeCardError({ type: 'card_error', code: err.code, message: err.message } as any);
        throw err;
      }
    };
    const created = await start(t, request(), newKey(), DECLINED);
    expect((await confirm(t, created.body.paymentIntentId)).body).toMatchObject({ status: 'failed', error: 'Your card was declined.' });
  });

  it('says a payment the bank is still processing is not failed, and leaves the booking waiting for it', async () => {
    hooks.intents.confirm = async (_real, id) => ({ ...(await retrieve(id)), status: 'processing' });
    const key = newKey();
    const created = await start(t, request(), key, PAID);
    const res = await confirm(t, created.body.paymentIntentId);
    expect(res.body).toMatchObject({ success: true, status: 'processing', sessionId: created.body.paymentIntentId, paymentId: null, error: expect.stringMatching(/\S/) });
    expect((await bookingOf(key)).status).toBe('pending');
  });

  it('answers 503 while the card service fails during the confirmation, and those tries never count against the card', async () => {
    const address = { 'X-Forwarded-For': '198.51.100.140' };
    const key = newKey();
    const created = await start(strict, request(), key, PAID, address);
    hooks.intents.confirm = async () => { throw unreachable(); };
    for (let i = 0; i < 4; i++) {
      const res = await logged(() => confirm(strict, created.body.paymentIntentId, address).then((r) => {
        expect([r.status, r.body.success]).toEqual([503, false]);
        expect(r.body.message).toMatch(/No payment was taken/);
      }));
      expect(res).toContain('connection to Stripe');
    }
    hooks.intents.confirm = undefined;
    expect((await confirm(strict, created.body.paymentIntentId, address)).body.status).toBe('succeeded');
  });

  it('answers a confirmation the provider refuses as a bad request with 422, not as a declined card', async () => {
    hooks.intents.confirm = async () => {
      throw new S.errors.StripeInvalidRequestError({
        type: 'invalid_request_error', code: 'parameter_unknown', param: 'use_stripe_sdk', message: 'Received unknown parameter: use_stripe_sdk',
      } as any);
    };
    const created = await start(t, request(), newKey(), PAID);
    const res = await confirm(t, created.body.paymentIntentId);
    expect([res.status, res.body.success, res.body.status]).toEqual([422, false, undefined]);
  });

  it('never counts asking where a declined payment stands: the booking keeps its other tries (issue 24)', async () => {
    const address = { 'X-Forwarded-For': '198.51.100.141' };
    const req = request();
    const key = newKey();
    const created = await start(strict, req, key, DECLINED, address);
    expect((await confirm(strict, created.body.paymentIntentId, address)).body).toMatchObject({ status: 'failed', error: 'Your card was declined.' });
    for (let i = 0; i < 3; i++) {
      const asking = await confirm(strict, created.body.paymentIntentId, address);
      expect([asking.status, asking.body.status, asking.body.error]).toEqual([200, 'failed', 'Your card was declined.']);
    }
    const next = await start(strict, req, key, PAID, address);
    expect(next.status).toBe(200);
    expect((await confirm(strict, next.body.paymentIntentId, address)).body.status).toBe('succeeded');
  });

  it("refuses the booking's 4th card at create-payment-intent itself, offering Pay in Car and a call when no phone is set", async () => {
    const [phone] = await db.query<{ setting_value: string }>("SELECT setting_value FROM settings WHERE setting_name = 'Company_Contact_Info'");
    await db.query("DELETE FROM settings WHERE setting_name = 'Company_Contact_Info'");
    referenceDataChanged();
    try {
      const address = { 'X-Forwarded-For': '198.51.100.142' };
      const req = request();
      const key = newKey();
      for (let i = 0; i < 3; i++) {
        const created = await start(strict, req, key, DECLINED, address);
        expect(created.status).toBe(200);
        expect((await confirm(strict, created.body.paymentIntentId, address)).body.status).toBe('failed');
      }
      // 3 of the address's 5 declines an hour are used: it is the booking's own 3 that refuse the next card.
      const fourth = await start(strict, req, key, PAID, address);
      expect([fourth.status, fourth.body.field]).toEqual([429, 'paymentMethodId']);
      expect(fourth.headers['retry-after']).toBeDefined();
      expect(fourth.body.message).toMatch(/No payment was taken\. Please choose Pay in Car, or call us to book\.$/);
      expect((await bookingOf(key)).status).toBe('pending');
    } finally {
      if (phone) await setSetting(db, 'Company_Contact_Info', phone.setting_value);
    }
  });
});

describe('POST /booking of a card booking', () => {
  it('names what is missing: the key, the intent, the payment, a payment never started', async () => {
    const req = request();
    const noKey = await t.call('POST', '/booking', { ...req, stripe_session_id: 'pi_x', paymentId: 'ch_x' });
    expect([noKey.status, noKey.body.field]).toEqual([422, 'Idempotency-Key']);
    const key = newKey();
    await start(t, req, key, PAID);
    const noIntent = await finish(req, key, { sessionId: null, paymentId: 'ch_x' });
    expect([noIntent.status, noIntent.body.field]).toEqual([422, 'stripe_session_id']);
    expect(noIntent.body.message).toMatch(/required/);
    const noPayment = await finish(req, key, { sessionId: 'pi_x', paymentId: null });
    expect([noPayment.status, noPayment.body.field]).toEqual([422, 'paymentId']);
    expect(noPayment.body.message).toMatch(/required/);
    const other = request();
    const neverStarted = await finish(other, newKey(), { sessionId: 'pi_x', paymentId: 'ch_x' });
    expect([neverStarted.status, neverStarted.body.field]).toEqual([422, 'stripe_session_id']);
    expect(neverStarted.body.message).toMatch(/card page/);
  });

  it('never confirms a booking that expired before its payment succeeded: 422 naming paymentId, logged for a person to check', async () => {
    const req = request();
    const key = newKey();
    const created = await start(t, req, key, PAID);
    const b = await bookingOf(key);
    await db.query("UPDATE bookings SET status = 'expired' WHERE id = $1", [b.id]);
    const paid = await confirm(t, created.body.paymentIntentId);
    expect(paid.body.status).toBe('succeeded');
    let late: Awaited<ReturnType<typeof t.call>> | undefined;
    const log = await logged(async () => { late = await finish(req, key, paid.body); });
    expect([late!.status, late!.body.field]).toEqual([422, 'paymentId']);
    expect(log).toContain(created.body.paymentIntentId);
    expect(await bookingOf(key)).toMatchObject({ status: 'expired', payment_status: 'awaiting_payment' });
    expect(await confirmationsOf(b.id)).toEqual(['held']);
  });
});

describe('completion, once, from pending only', () => {
  it('completes, then is already done; an intent not succeeded or of no booking here changes nothing', async () => {
    const req = request();
    const key = newKey();
    const created = await start(t, req, key, PAID);
    const pending = await retrieve(created.body.paymentIntentId);
    expect(await db.transaction((tx) => completeCardBooking(tx, pending))).toBe('unknown');
    expect((await bookingOf(key)).status).toBe('pending');
    await confirm(t, created.body.paymentIntentId);
    const pi = await retrieve(created.body.paymentIntentId);
    expect(await db.transaction((tx) => completeCardBooking(tx, pi))).toBe('completed');
    expect(await db.transaction((tx) => completeCardBooking(tx, pi))).toBe('already');
    const b = await bookingOf(key);
    expect(b).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_id: pi.latest_charge });
    expect(await confirmationsOf(b.id)).toEqual(['pending']);
    expect(await db.transaction((tx) => completeCardBooking(tx, { ...pi, id: 'pi_card_rules_stranger' }))).toBe('unknown');
  });

  it('records a live payment as live and a test payment as test, as the console shows them (decision 35)', async () => {
    const test = await paidBooking();
    expect((await desk(test.booking.booking_number)).payment).toMatchObject({ status: 'paid', test: true });
    const key = newKey();
    const created = await start(t, request(), key, PAID);
    await confirm(t, created.body.paymentIntentId);
    const live = { ...(await retrieve(created.body.paymentIntentId)), livemode: true };
    const payload = JSON.stringify({ id: `evt_live_${key}`, object: 'event', type: 'payment_intent.succeeded', livemode: true, data: { object: live } });
    const res = await t.app.request('/api/v1/stripe/webhook', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signPayload(payload, base.webhookSecret) }, body: payload,
    });
    expect(res.status).toBe(200);
    const b = await bookingOf(key);
    expect(b.status).toBe('confirmed');
    expect((await desk(b.booking_number)).payment).toMatchObject({ status: 'paid', test: false });
  });
});

describe("the provider's webhook", () => {
  const post = async (payload: string, signature?: string): Promise<Response> => t.app.request('/api/v1/stripe/webhook', {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...(signature === undefined ? {} : { 'Stripe-Signature': signature }) }, body: payload,
  });
  const signed = (payload: string) => post(payload, signPayload(payload, base.webhookSecret));

  it('says that no signature was sent when the Stripe-Signature header is missing', async () => {
    const res = await post(JSON.stringify({ id: 'evt_card_rules_unsigned', object: 'event', type: 'payment_intent.succeeded', data: { object: {} } }));
    const body = await res.json() as { field: string; message: string };
    expect([res.status, body.field]).toEqual([400, 'Stripe-Signature']);
    expect(body.message).toMatch(/^Webhook signature check failed: .*no stripe-signature header/i);
  });

  it("ignores other events, takes an intent that names no booking for none, and completes a booking's payment without a refund error", async () => {
    const key = newKey();
    const created = await start(t, request(), key, PAID);
    await confirm(t, created.body.paymentIntentId);
    const pi = await retrieve(created.body.paymentIntentId);
    const event = (id: string, type: string, object: unknown) => JSON.stringify({ id, object: 'event', type, data: { object } });

    const other = await signed(event(`evt_failed_${key}`, 'payment_intent.payment_failed', pi));
    expect([other.status, ((await other.json()) as { outcome: string }).outcome]).toEqual([200, 'ignored']);
    expect((await bookingOf(key)).status).toBe('pending');

    const { metadata: _none, ...nameless } = pi;
    const bare = await logged(() => signed(event(`evt_bare_${key}`, 'payment_intent.succeeded', nameless)).then(async (res) => {
      expect([res.status, ((await res.json()) as { outcome: string }).outcome]).toEqual([200, 'handled']);
    }));
    expect(bare).toContain(pi.id);
    expect((await bookingOf(key)).status).toBe('pending');

    const log = await logged(() => signed(event(`evt_paid_${key}`, 'payment_intent.succeeded', pi)).then((res) => { expect(res.status).toBe(200); }));
    expect(log).not.toMatch(/refund/i);
    expect((await bookingOf(key)).status).toBe('confirmed');
  });
});

describe("a change's difference and the payment ledger (issue 27, decision 43)", () => {
  it('applies a paid difference from the webhook alone; the ledger then refunds each payment from its own intent, never more than is left', async () => {
    webhooksOn = true;
    const { booking, done, intent: firstIntent } = await paidBooking();
    const reference = booking.booking_number as string;
    const as = { 'X-Manage-Key': done.manage_key as string };
    const values = (await t.call('GET', `/manage/${reference}`, undefined, as)).body.manage.form;
    await setSetting(db, 'MEET_AND_GREET', '30');
    let changeIntent: string;
    try {
      const asked = await t.call('POST', `/manage/${reference}/changes`, { ...values, pickup_hour: '8am' }, as);
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'pay', difference: '20.00' });
      const waiting = await t.call('POST', `/manage/${reference}/changes`, { ...values, pickup_hour: '8am', accept_total: asked.body.new_total }, as);
      expect(waiting.body).toMatchObject({ status: 'payment_required', amount_pence: 2000 });
      const started = await t.call('POST', `/manage/${reference}/changes/${waiting.body.change_id}/payment-intent`, { paymentMethodId: await paymentMethod(PAID) }, as);
      changeIntent = started.body.paymentIntentId;
      expect((await confirm(t, changeIntent)).body.status).toBe('succeeded');
      // The browser closes after the bank approved: the provider's event alone applies the change, once.
      await base.gateway!.webhooks.settled();
      const after = (await t.call('GET', `/manage/${reference}`, undefined, as)).body;
      expect(after.booking.booking).toMatchObject({ pick_up_time: '08:15', total_booking_amount: asked.body.new_total });
      expect(await db.query('SELECT status, paid_pence FROM booking_changes WHERE booking_id = $1', [booking.id])).toEqual([{ status: 'applied', paid_pence: 2000 }]);
      const told = await db.query("SELECT 1 FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_changed'", [booking.id]);
      expect(told).toHaveLength(1);
    } finally {
      await setSetting(db, 'MEET_AND_GREET', '10');
    }
    webhooksOn = false;

    // The ledger: the first payment, then the change's difference.
    const first = booking.total as number;
    expect(await paymentsLeft(db, booking.id)).toEqual([{ paymentIntentId: firstIntent, leftPence: first }, { paymentIntentId: changeIntent, leftPence: 2000 }]);
    const [staff] = await db.query<{ id: number }>('SELECT id FROM staff WHERE email = $1', [DEMO_STAFF[0].email]);
    // The office gives back more than was paid: only what is left, latest payment first, each row naming who did it.
    const ids = await db.transaction((tx) => writeRefunds(tx, booking.id, first + 2000 + 500, { staffId: staff.id }));
    expect(await db.query('SELECT amount_pence, payment_intent_id, staff_id, status FROM refunds WHERE booking_id = $1 ORDER BY id', [booking.id])).toEqual([
      { amount_pence: 2000, payment_intent_id: changeIntent, staff_id: staff.id, status: 'pending' },
      { amount_pence: first, payment_intent_id: firstIntent, staff_id: staff.id, status: 'pending' },
    ]);
    const total = ((first + 2000) / 100).toFixed(2);
    expect((await desk(reference)).refund).toEqual({ amount: total, status: 'pending', id: null, error: null });

    // One made, the other not yet: still pending.
    expect(await makeRefund(db, cards, ids[0])).toMatchObject({ status: 'succeeded' });
    const one = (await desk(reference)).refund;
    expect(one).toMatchObject({ amount: total, status: 'pending', id: expect.stringMatching(/^re_[^,]+$/), error: null });

    // The other one fails at the provider: the refund is failed, with why, until Retry makes it.
    hooks.refundsCreate = async () => { throw unreachable(); };
    expect(await makeRefund(db, cards, ids[1])).toMatchObject({ status: 'failed' });
    const failed = (await desk(reference)).refund;
    expect(failed).toMatchObject({ status: 'failed', id: one.id, error: expect.stringMatching(/\S/) });
    hooks.refundsCreate = undefined;
    expect(await makeRefund(db, cards, ids[1])).toMatchObject({ status: 'succeeded' });
    const made = await desk(reference);
    expect(made.refund).toMatchObject({ amount: total, status: 'succeeded', error: null });
    expect(made.refund.id.split(', ')).toEqual([one.id, expect.stringMatching(/^re_/)]);
    expect(refundableLeft(await paymentsLeft(db, booking.id))).toBe(0);
    expect(made.payment.refundable).toBeNull();
    // Nothing is left to give back: a further refund writes nothing.
    expect(await db.transaction((tx) => writeRefunds(tx, booking.id, 100, { staffId: staff.id }))).toEqual([]);
  });
});

/** A paid card booking with a passenger's change to a higher price waiting for its payment, and that payment's intent. */
async function changeWaitingForPayment() {
  const paid = await paidBooking();
  const reference = paid.booking.booking_number as string;
  const as = { 'X-Manage-Key': paid.done.manage_key as string };
  const values = (await t.call('GET', `/manage/${reference}`, undefined, as)).body.manage.form;
  await setSetting(db, 'MEET_AND_GREET', '30');
  try {
    const asked = await t.call('POST', `/manage/${reference}/changes`, { ...values, pickup_hour: '9am' }, as);
    const waiting = await t.call('POST', `/manage/${reference}/changes`, { ...values, pickup_hour: '9am', accept_total: asked.body.new_total }, as);
    expect(waiting.body).toMatchObject({ status: 'payment_required', amount_pence: 2000 });
    const started = await t.call('POST', `/manage/${reference}/changes/${waiting.body.change_id}/payment-intent`, { paymentMethodId: await paymentMethod(PAID) }, as);
    expect(started.status).toBe(200);
    return { ...paid, reference, as, intent: started.body.paymentIntentId as string };
  } finally {
    await setSetting(db, 'MEET_AND_GREET', '10');
  }
}

describe('the check at start-up, for changes paid while no one was told (issue 27)', () => {
  it('refunds in full a change paid after the office cancelled its booking, counting no change applied; one it cannot ask about is logged', async () => {
    const site = { settings: () => loadSettings(db), siteUrl: 'https://bookings.example.co.uk' };
    await logged(() => reconcileCardBookings(db, cards)); // what earlier payments left to complete
    const cancelled = await changeWaitingForPayment();
    const unanswered = await changeWaitingForPayment();
    const office = await t.call('POST', `/operator/bookings/${cancelled.reference}/cancel`, { reason: 'Vehicle off the road', refund: 'no' }, await staffCookie());
    expect(office.status).toBe(200);
    // The passenger's other tab pays the change anyway; the webhook is lost and the browser closes.
    expect((await confirm(t, cancelled.intent)).body.status).toBe('succeeded');
    hooks.intents.retrieve = async (real, id, ...rest) => {
      if (id === unanswered.intent) throw unreachable();
      return real(id, ...rest);
    };
    let applied = -1;
    const log = await logged(async () => { applied = await reconcileCardBookings(db, cards, site); });
    expect(applied).toBe(0);
    expect(log).toContain(unanswered.intent);
    const refunds = await db.query('SELECT amount_pence, payment_intent_id, status FROM refunds WHERE booking_id = $1', [cancelled.booking.id]);
    expect(refunds).toEqual([{ amount_pence: 2000, payment_intent_id: cancelled.intent, status: 'succeeded' }]);
    const view = (await t.call('GET', `/manage/${cancelled.reference}`, undefined, cancelled.as)).body;
    expect(view.booking.booking.pick_up_time).toBe('07:15');
    expect(view.manage.status).toBe('cancelled');
  });
});

describe('card bookings never paid, after a day (decision 35)', () => {
  it('cancels an abandoned intent and expires its booking; completes one paid meanwhile; waits for one the bank is processing or the provider cannot settle now', async () => {
    const keys = { abandoned: newKey(), canceledBefore: newKey(), paidLate: newKey(), processing: newKey(), cancelFails: newKey(), unreachable: newKey() };
    const intents: Record<keyof typeof keys, string> = {} as never;
    for (const name of Object.keys(keys) as (keyof typeof keys)[]) {
      intents[name] = (await start(t, request(), keys[name], PAID)).body.paymentIntentId;
    }
    expect((await confirm(t, intents.paidLate)).body.status).toBe('succeeded'); // the webhook is lost, the browser closed
    // Canceled at the provider by an earlier run that stopped before the booking was marked.
    await (await base.stripe()).paymentIntents.cancel(intents.canceledBefore, { cancellation_reason: 'abandoned' });
    hooks.intents.retrieve = async (real, id, ...rest) => {
      if (id === intents.unreachable) throw unreachable();
      const pi = await real(id, ...rest);
      return id === intents.processing ? { ...pi, status: 'processing' } : pi;
    };
    hooks.intents.cancel = async (real, id, ...rest) => {
      if (id === intents.cancelFails) throw unreachable();
      if ((await retrieve(id)).status === 'canceled') {
        // As Stripe answers: only an intent that can still be paid can be canceled.
        throw new S.errors.StripeInvalidRequestError({
          type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'You cannot cancel this PaymentIntent because it has a status of canceled.',
        } as any);
      }
      return real(id, ...rest);
    };
    await db.query("UPDATE bookings SET created_at = now() - interval '25 hours' WHERE idempotency_key = ANY($1)", [Object.values(keys)]);
    try {
      let expired = -1;
      const log = await logged(async () => { expired = await expireUnpaidCardBookings(db, cards); });
      expect(expired).toBe(2);
      const status = async (key: string) => (await bookingOf(key)).status;
      expect({
        abandoned: await status(keys.abandoned), canceledBefore: await status(keys.canceledBefore), paidLate: await status(keys.paidLate),
        processing: await status(keys.processing), cancelFails: await status(keys.cancelFails), unreachable: await status(keys.unreachable),
      }).toEqual({ abandoned: 'expired', canceledBefore: 'expired', paidLate: 'confirmed', processing: 'pending', cancelFails: 'pending', unreachable: 'pending' });
      // Canceled as abandoned, so it can never be paid; a payment still processing is never canceled.
      expect(asked.filter((a) => a.method === 'cancel').map((a) => a.args[0]).sort()).toEqual([intents.abandoned, intents.cancelFails].sort());
      expect(asked.find((a) => a.method === 'cancel' && a.args[0] === intents.abandoned)!.args[1]).toEqual({ cancellation_reason: 'abandoned' });
      expect(await retrieve(intents.abandoned)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
      expect(await confirmationsOf((await bookingOf(keys.paidLate)).id)).toEqual(['pending']);
      // The operator reads which payments could not be settled now.
      expect(log).toContain(intents.cancelFails);
      expect(log).toContain(intents.unreachable);

      // Paying the canceled intent now fails, with words for the payer, and the booking stays expired.
      const late = await confirm(t, intents.abandoned);
      expect(late.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/\S/) });
      expect(await status(keys.abandoned)).toBe('expired');

      // The check at start-up asks about the recent pending ones; one it cannot ask about now is logged, not fatal.
      const checked = await logged(() => reconcileCardBookings(db, cards));
      expect(checked).toContain(intents.unreachable);
    } finally {
      await db.query("UPDATE bookings SET created_at = now() WHERE idempotency_key = ANY($1)", [Object.values(keys)]);
    }
  });
});
