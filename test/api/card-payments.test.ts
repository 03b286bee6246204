// Card payments through the API, with the official `stripe` SDK pointed (host, port, protocol) at the local test
// gateway served on a real port, as a site configured with STRIPE_* keys and STRIPE_API_URL would run.
import { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index';
import { cardProviderFromConfig, type CardProvider } from '../../src/server/payments/provider';
import { testGateway, type TestGateway, AUTHENTICATION_FAILED } from '../../src/server/testGateway/gateway';
import { signPayload, type WebhookDelivery } from '../../src/server/testGateway/webhooks';
import { KEY_REQUIRED, PROVIDER_UNAVAILABLE, completeCardBooking } from '../../src/server/bookings/cardBookings';
import { reconcileCardBookings } from '../../src/server/cardEvents/cardEvents';
import { stripeClient } from '../../src/server/payments/provider';
import { KEY_REUSED } from '../../src/server/bookings/bookings';
import { setSetting } from '../../src/server/operator/operator';
import { TEST_SECURITY, seededTestDb, storedMessages, testApp } from './setup';

const KEYS = { publishableKey: 'pk_test_gateway', secretKey: 'sk_test_gateway', webhookSecret: 'whsec_test_gateway' };

let db: Db;
let gateway: TestGateway;
let server: ServerType;
let gatewayUrl: string;
let cards: CardProvider;
let t: Awaited<ReturnType<typeof testApp>>;
/** Where the gateway's webhooks go: the site, or nowhere (the site is down). */
let webhookTarget: WebhookDelivery | null = null;

beforeAll(async () => {
  db = await seededTestDb();
  gateway = testGateway({ ...KEYS, db, deliverWebhook: (payload, sig) => (webhookTarget ? webhookTarget(payload, sig) : Promise.resolve(false)) });
  server = serve({ fetch: gateway.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cards = cardProviderFromConfig(
    { stripeSecretKey: KEYS.secretKey, stripePublishableKey: KEYS.publishableKey, stripeWebhookSecret: KEYS.webhookSecret, stripeApiUrl: gatewayUrl },
    { db, secret: TEST_SECURITY.secret, deliverWebhook: null },
  );
  t = await testApp({ db, cards: () => cards });
});
afterAll(async () => {
  gateway.webhooks.stop();
  await new Promise((r) => server.close(r));
  await db.close();
});

const toSite: WebhookDelivery = async (payload, signature) => (await t.app.request('/api/v1/stripe/webhook', {
  method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload,
})).ok;
beforeEach(() => { webhookTarget = toSite; });

const bookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1,
};
const registrationData = { firstName: 'Amelia', surname: 'Hart', number: '+44 770 090 012', email: 'amelia.card@example.com', additionalInfo: '' };

let vehicle: { vehicle_id: number; company_id: number; price: string };
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  vehicle = body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === 'Albion Executive Cars');
});
/** The server's price of two of the vehicle, in pence. */
const pricePence = () => Math.round(Number(vehicle.price) * 100) * 2;

function bookingRequest(extra: Record<string, unknown> = {}) {
  return {
    selectedVehicleData: vehicle, selectedVehicle: 2, bookingType: 'milleage', bookingForm, hourlyRateForm: null, registrationData,
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null, ...extra,
  };
}

let keyCounter = 0;
const newKey = () => `card-attempt-${++keyCounter}-${Date.now()}`;

/** What Stripe.js does in the browser: the card to a payment method, with the publishable key. */
async function paymentMethod(number: string, extra: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${gatewayUrl}/v1/payment_methods`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEYS.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123', ...extra }),
  });
  return { status: res.status, ...(await res.json()) };
}

/** The bank's 3-D Secure page, answered as the stand-in's dialog answers it. */
async function authenticate(clientSecret: string, outcome: 'approve' | 'fail') {
  const id = clientSecret.split('_secret_')[0];
  const res = await fetch(`${gatewayUrl}/v1/payment_intents/${id}/test_authentication`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEYS.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: clientSecret, outcome }),
  });
  return res.json();
}

async function createIntent(key: string, card: string, extra: Record<string, unknown> = {}) {
  const pm = await paymentMethod(card);
  return t.call('POST', '/create-payment-intent', { ...bookingRequest(), paymentMethodId: pm.id, amount: pricePence(), ...extra }, { 'Idempotency-Key': key });
}
const confirm = (paymentIntentId: string) => t.call('POST', '/confirm-payment-intent', { paymentIntentId });
const book = (key: string, ids: { sessionId: string | null; paymentId: string | null }) =>
  t.call('POST', '/booking', bookingRequest({ stripe_session_id: ids.sessionId, paymentId: ids.paymentId }), { 'Idempotency-Key': key });

async function bookingOf(key: string) {
  const [row] = await db.query<any>(
    'SELECT id, booking_number, status, payment_method, payment_status, payment_intent_id, payment_id, total_booking_amount_pence FROM bookings WHERE idempotency_key = $1', [key]);
  return row;
}
/** The booking's confirmation e-mails (the office's notices are held and released with them: test/api/office-notices). */
async function mailsOf(bookingId: number) {
  return db.query<{ status: string; to_address: string }>(
    "SELECT status, to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY id", [bookingId]);
}
/** The office's and the company's notices of the booking (test/api/office-notices). */
async function noticesOf(bookingId: number) {
  return storedMessages(db, bookingId, 'new_booking_notice');
}
async function intentsOf(bookingId: number) {
  return db.query("SELECT id FROM test_gateway_objects WHERE kind = 'payment_intent' AND data->'metadata'->>'booking_id' = $1", [String(bookingId)]);
}

/** Pays with a card that succeeds, as the card page does, and returns the key and the confirm answer. */
async function pay(card = '4242424242424242') {
  const key = newKey();
  const created = await createIntent(key, card);
  expect(created.status).toBe(200);
  const confirmed = await confirm(created.body.paymentIntentId);
  return { key, created, confirmed };
}

describe('GET /secret_key', () => {
  it("answers the provider's publishable key, test mode, and Stripe's own Stripe.js when Stripe keys are configured", async () => {
    const { status, body } = await t.call('GET', '/secret_key');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, publishableKey: KEYS.publishableKey, testMode: true, stripeJs: null });
  });
});

describe('a card that succeeds (4242 4242 4242 4242)', () => {
  it('books once, paid, for exactly the server price in GBP, and releases the confirmation e-mail once', async () => {
    webhookTarget = null; // this test is about the browser's call completing it
    const { key, created, confirmed } = await pay();
    const pending = await bookingOf(key);
    expect(pending).toMatchObject({ status: 'pending', payment_method: 'card', payment_status: 'awaiting_payment', payment_intent_id: created.body.paymentIntentId });
    expect(confirmed.body).toMatchObject({ success: true, status: 'succeeded', sessionId: created.body.paymentIntentId, paymentId: expect.stringMatching(/^ch_/) });
    const intent = await (await cards.stripe()).paymentIntents.retrieve(created.body.paymentIntentId);
    expect([intent.amount, intent.currency, intent.metadata.booking_id]).toEqual([pricePence(), 'gbp', String(pending.id)]);

    const res = await book(key, confirmed.body);
    expect(res.status).toBe(200);
    expect(res.body.data.booking).toMatchObject({ payment_method: 'card', booking_number: pending.booking_number, total_booking_amount: (pricePence() / 100).toFixed(2) });
    expect(await bookingOf(key)).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_id: confirmed.body.paymentId });
    const mails = await mailsOf(pending.id);
    expect(mails.map((m) => m.status)).toEqual(['pending']);
    expect(mails[0].to_address).toBe('amelia.card@example.com');
    // The office's and the company's notices (issue 26) are released with it, and say it is paid.
    const notices = await noticesOf(pending.id);
    expect(notices.length).toBeGreaterThan(0);
    for (const n of notices) expect([n.status, n.body_text.includes('Paid by card')]).toEqual(['pending', true]);

    // The same call again (a retry, a reload) answers the same booking and sends nothing more.
    const again = await book(key, confirmed.body);
    expect(again.body.data.booking.booking_number).toBe(pending.booking_number);
    expect((await mailsOf(pending.id)).length).toBe(1);
  });

  it('holds the confirmation e-mail, and the office\'s notices, while the payment is pending', async () => {
    const key = newKey();
    await createIntent(key, '4242424242424242');
    const b = await bookingOf(key);
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['held']);
    const notices = await noticesOf(b.id);
    expect(notices.length).toBeGreaterThan(0);
    expect(notices.every((n) => n.status === 'held')).toBe(true);
  });
});

describe('declined cards', () => {
  it("answers 'Your card was declined.' for 4000 0000 0000 0002, keeps the booking pending, and takes a second card on the same intent", async () => {
    const key = newKey();
    const created = await createIntent(key, '4000000000000002');
    const confirmed = await confirm(created.body.paymentIntentId);
    expect(confirmed.body).toMatchObject({ success: true, status: 'failed', error: 'Your card was declined.', paymentId: null });
    const b = await bookingOf(key);
    expect(b.status).toBe('pending');
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['held']);
    const refused = await book(key, { sessionId: created.body.paymentIntentId, paymentId: 'ch_forged' });
    expect([refused.status, refused.body.field]).toEqual([422, 'paymentId']);

    const retry = await createIntent(key, '4242424242424242');
    expect(retry.body.paymentIntentId).toBe(created.body.paymentIntentId);
    const paid = await confirm(retry.body.paymentIntentId);
    expect(paid.body.status).toBe('succeeded');
    expect((await intentsOf(b.id)).length).toBe(1);
  });

  it("answers 'Your card has insufficient funds.' for 4000 0000 0000 9995", async () => {
    const created = await createIntent(newKey(), '4000000000009995');
    const confirmed = await confirm(created.body.paymentIntentId);
    expect(confirmed.body).toMatchObject({ status: 'failed', error: 'Your card has insufficient funds.' });
  });

  it('refuses an oversized request to the gateway with 413, storing nothing', async () => {
    const before = await db.query('SELECT count(*)::int AS n FROM test_gateway_objects');
    const res = await fetch(`${gatewayUrl}/v1/payment_methods`, {
      method: 'POST', headers: { Authorization: `Bearer ${KEYS.publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123', 'billing_details[name]': 'x'.repeat(20_000) }),
    });
    expect(res.status).toBe(413);
    expect(await db.query('SELECT count(*)::int AS n FROM test_gateway_objects')).toEqual(before);
  });

  it('refuses a card number that cannot be a card before any payment, as Stripe does', async () => {
    const pm = await paymentMethod('4242424242424241');
    expect([pm.status, pm.error.code, pm.error.message]).toEqual([402, 'incorrect_number', 'Your card number is incorrect.']);
    const expired = await paymentMethod('4242424242424242', { 'card[exp_year]': '2020' });
    expect(expired.error.code).toBe('invalid_expiry_year');
    const shortCvc = await paymentMethod('4242424242424242', { 'card[cvc]': '12' });
    expect(shortCvc.error.code).toBe('invalid_cvc');
  });
});

describe('3-D Secure (4000 0027 6000 3184)', () => {
  it('asks for authentication, then succeeds once the bank approves and the server confirms again', async () => {
    const key = newKey();
    const created = await createIntent(key, '4000002760003184');
    const first = await confirm(created.body.paymentIntentId);
    expect(first.body).toMatchObject({ status: 'requires_action', clientSecret: expect.stringContaining('_secret_'), paymentId: null });
    expect((await authenticate(first.body.clientSecret, 'approve')).status).toBe('requires_confirmation');
    const second = await confirm(created.body.paymentIntentId);
    expect(second.body).toMatchObject({ status: 'succeeded', paymentId: expect.stringMatching(/^ch_/) });
    webhookTarget = null;
    const res = await book(key, second.body);
    expect(res.status).toBe(200);
    expect((await bookingOf(key)).status).toBe('confirmed');
  });

  it("fails with the bank's message when authentication fails, and books nothing", async () => {
    const key = newKey();
    const created = await createIntent(key, '4000002760003184');
    const first = await confirm(created.body.paymentIntentId);
    const failed = await authenticate(first.body.clientSecret, 'fail');
    expect(failed.status).toBe('requires_payment_method');
    const after = await confirm(created.body.paymentIntentId);
    expect(after.body).toMatchObject({ status: 'failed', error: AUTHENTICATION_FAILED });
    expect((await bookingOf(key)).status).toBe('pending');
  });
});

describe('the server never trusts the browser', () => {
  it('refuses an amount that is not its own price, naming the field, and writes nothing', async () => {
    const key = newKey();
    const forged = await createIntent(key, '4242424242424242', { amount: pricePence() - 100 });
    expect([forged.status, forged.body.field]).toEqual([422, 'amount']);
    expect(forged.body.message).toContain('is not the price of this booking');
    expect(await bookingOf(key)).toBeUndefined();
    // Nor later, once the booking is pending.
    const ok = await createIntent(key, '4242424242424242');
    expect(ok.status).toBe(200);
    const later = await createIntent(key, '4242424242424242', { amount: pricePence() * 2 });
    expect([later.status, later.body.field]).toEqual([422, 'amount']);
  });

  it('refuses the payment of another booking, and a payment that did not succeed', async () => {
    const a = await pay();
    const b = await pay();
    const declined = newKey();
    const c = await createIntent(declined, '4000000000000002');
    await confirm(c.body.paymentIntentId);
    webhookTarget = null;
    const otherIntent = await book(a.key, b.confirmed.body);
    expect([otherIntent.status, otherIntent.body.field, otherIntent.body.message]).toEqual([422, 'stripe_session_id', 'This payment does not belong to this booking.']);
    const otherCharge = await book(a.key, { sessionId: a.confirmed.body.sessionId, paymentId: b.confirmed.body.paymentId });
    expect([otherCharge.status, otherCharge.body.field, otherCharge.body.message]).toEqual([422, 'paymentId', 'This payment does not belong to this booking.']);
    const failed = await book(declined, { sessionId: c.body.paymentIntentId, paymentId: 'ch_none' });
    expect([failed.status, failed.body.field, failed.body.message]).toEqual([422, 'paymentId', 'This payment has not been completed, so the booking was not made. Please pay again.']);
    expect((await bookingOf(declined)).status).toBe('pending');
  });

  it('needs the Idempotency-Key, refuses the key with another trip, and refuses card payments when SHOWCARD is off', async () => {
    const pm = await paymentMethod('4242424242424242');
    const noKey = await t.call('POST', '/create-payment-intent', { ...bookingRequest(), paymentMethodId: pm.id, amount: pricePence() });
    expect([noKey.status, noKey.body.field]).toEqual([422, 'Idempotency-Key']);

    const key = newKey();
    await createIntent(key, '4242424242424242');
    const other = await createIntent(key, '4242424242424242', { registrationData: { ...registrationData, email: 'someone@example.com' } });
    expect([other.status, other.body.message]).toEqual([422, KEY_REUSED]);
    const asCar = await t.call('POST', '/booking', bookingRequest({ payment_method: 'car' }), { 'Idempotency-Key': key });
    expect([asCar.status, asCar.body.field]).toEqual([422, 'Idempotency-Key']);

    await setSetting(db, 'SHOWCARD', 'no');
    try {
      const off = await createIntent(newKey(), '4242424242424242');
      expect([off.status, off.body.field]).toEqual([422, 'payment_method']);
    } finally {
      await setSetting(db, 'SHOWCARD', 'yes');
    }
  });

  it('answers 503 when the card provider cannot be reached, keeps the booking, and goes on with the same key later', async () => {
    const down = await testApp({ db, cards: () => ({ ...cards, stripe: () => stripeClient(KEYS.secretKey, 'http://127.0.0.1:9') }) });
    const key = newKey();
    const pm = await paymentMethod('4242424242424242');
    const body = { ...bookingRequest(), paymentMethodId: pm.id, amount: pricePence() };
    const started = Date.now();
    const res = await down.call('POST', '/create-payment-intent', body, { 'Idempotency-Key': key });
    expect([res.status, res.body.message]).toEqual([503, PROVIDER_UNAVAILABLE]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await bookingOf(key)).toMatchObject({ status: 'pending', payment_intent_id: null });
    const later = await t.call('POST', '/create-payment-intent', body, { 'Idempotency-Key': key });
    expect(later.status).toBe(200);
    expect((await confirm(later.body.paymentIntentId)).body.status).toBe('succeeded');
  });

  it('answers 404 for a payment intent that is not one of its bookings', async () => {
    const res = await confirm('pi_unknown');
    expect([res.status, res.body.field, res.body.message]).toEqual([404, 'paymentIntentId', 'There is no payment with this id for a booking here.']);
  });

  it('never makes an intent for a booking paid in the car', async () => {
    const before = await db.query("SELECT count(*)::int AS n FROM test_gateway_objects WHERE kind = 'payment_intent'");
    const key = newKey();
    const res = await t.call('POST', '/booking', bookingRequest({ payment_method: 'car' }), { 'Idempotency-Key': key });
    expect(res.status).toBe(200);
    expect(await bookingOf(key)).toMatchObject({ status: 'confirmed', payment_method: 'car', payment_intent_id: null });
    const after = await db.query("SELECT count(*)::int AS n FROM test_gateway_objects WHERE kind = 'payment_intent'");
    expect(after).toEqual(before);
  });
});

describe('exactly once', () => {
  it('makes one booking and one intent for create calls sent at once, and one booking for booking calls sent at once', async () => {
    const key = newKey();
    const pm = await paymentMethod('4242424242424242');
    const body = { ...bookingRequest(), paymentMethodId: pm.id, amount: pricePence() };
    const created = await Promise.all([1, 2, 3].map(() => t.call('POST', '/create-payment-intent', body, { 'Idempotency-Key': key })));
    expect(created.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(created.map((r) => r.body.paymentIntentId)).size).toBe(1);
    const b = await bookingOf(key);
    expect((await intentsOf(b.id)).length).toBe(1);

    const confirmed = await Promise.all([1, 2].map(() => confirm(created[0].body.paymentIntentId)));
    expect(confirmed.map((r) => r.body.status)).toEqual(['succeeded', 'succeeded']);
    expect(confirmed[0].body.paymentId).toBe(confirmed[1].body.paymentId);
    expect(await db.query("SELECT id FROM test_gateway_objects WHERE kind = 'charge' AND data->>'payment_intent' = $1", [created[0].body.paymentIntentId]))
      .toHaveLength(1);

    webhookTarget = null;
    const booked = await Promise.all([1, 2, 3].map(() => book(key, confirmed[0].body)));
    expect(booked.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(booked.map((r) => r.body.data.booking.booking_number)).size).toBe(1);
    expect((await db.query('SELECT 1 FROM bookings WHERE idempotency_key = $1', [key])).length).toBe(1);
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['pending']);
  });

  it('completes the booking from the webhook when the browser is gone after the bank approved, and the e-mail goes', async () => {
    const { key, confirmed } = await pay();
    expect(confirmed.body.status).toBe('succeeded');
    await gateway.webhooks.settled();
    const b = await bookingOf(key);
    expect(b).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_id: confirmed.body.paymentId });
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['pending']);
    // The browser comes back later: the same booking, no second e-mail.
    const late = await book(key, confirmed.body);
    expect(late.body.data.booking.booking_number).toBe(b.booking_number);
    expect((await mailsOf(b.id)).length).toBe(1);
  });

  it('completes the booking at the next start when the server stopped between the charge and the booking', async () => {
    webhookTarget = null; // the site is down: the gateway's deliveries fail (and wait to be retried)
    const { key, confirmed } = await pay();
    expect(confirmed.body.status).toBe('succeeded');
    await gateway.webhooks.settled();
    expect((await bookingOf(key)).status).toBe('pending');
    // What `npm start` runs once the site is up again.
    expect(await reconcileCardBookings(db, cards)).toBeGreaterThanOrEqual(1);
    const b = await bookingOf(key);
    expect(b).toMatchObject({ status: 'confirmed', payment_status: 'paid', payment_id: confirmed.body.paymentId });
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['pending']);
    expect(await reconcileCardBookings(db, cards)).toBe(0);
  });
});

describe('completing a card booking, as the browser, the webhook and the start-up check do', () => {
  it('completes it once; again it is already done; an intent not succeeded, or of no booking here, is unknown', async () => {
    webhookTarget = null;
    const { key, confirmed } = await pay();
    const stripe = await cards.stripe();
    const pi = await stripe.paymentIntents.retrieve(confirmed.body.sessionId);
    expect(await db.transaction((tx) => completeCardBooking(tx, pi))).toBe('completed');
    expect(await db.transaction((tx) => completeCardBooking(tx, pi))).toBe('already');
    expect((await bookingOf(key)).status).toBe('confirmed');
    const declined = await createIntent(newKey(), '4000000000000002');
    await confirm(declined.body.paymentIntentId);
    const notPaid = await stripe.paymentIntents.retrieve(declined.body.paymentIntentId);
    expect(await db.transaction((tx) => completeCardBooking(tx, notPaid))).toBe('unknown');
    const stranger = { ...pi, id: 'pi_of_no_booking_here', metadata: { booking_id: '999999' } };
    expect(await db.transaction((tx) => completeCardBooking(tx, stranger))).toBe('unknown');
  });
});

describe('a payment that succeeds for a booking no longer waiting for it', () => {
  it('never confirms it: an expired booking stays expired, whichever of the webhook, the start-up check and the browser arrives', async () => {
    webhookTarget = null; // the webhook comes later, after the booking expired
    const key = newKey();
    const created = await createIntent(key, '4242424242424242');
    const b = await bookingOf(key);
    // The booking expired (nobody paid within the day), then the bank approves late.
    await db.query("UPDATE bookings SET status = 'expired' WHERE id = $1", [b.id]);
    const confirmed = await confirm(created.body.paymentIntentId);
    expect(confirmed.body.status).toBe('succeeded');
    // What the webhook does with the event, and the start-up check: neither confirms it.
    const pi = await (await cards.stripe()).paymentIntents.retrieve(created.body.paymentIntentId);
    expect(await db.transaction((tx) => completeCardBooking(tx, pi))).toBe('mismatch');
    expect(await reconcileCardBookings(db, cards)).toBe(0);
    const late = await book(key, confirmed.body);
    expect(late.status).toBe(422);
    expect(await bookingOf(key)).toMatchObject({ status: 'expired', payment_status: 'awaiting_payment' });
    expect((await mailsOf(b.id)).map((m) => m.status)).toEqual(['held']);
  });
});

describe('the booking call of a card booking (SPEC 7 POST /booking, payment_method card)', () => {
  it('names what is missing: the Idempotency-Key, the payment intent, the payment, a card payment never started', async () => {
    const noKey = await t.call('POST', '/booking', bookingRequest({ stripe_session_id: 'pi_x', paymentId: 'ch_x' }));
    expect([noKey.status, noKey.body.field, noKey.body.message]).toEqual([422, 'Idempotency-Key', KEY_REQUIRED]);
    const key = newKey();
    const noIntent = await book(key, { sessionId: null, paymentId: 'ch_x' });
    expect([noIntent.status, noIntent.body.field, noIntent.body.message])
      .toEqual([422, 'stripe_session_id', 'stripe_session_id: the payment of a card booking is required']);
    const noPayment = await book(key, { sessionId: 'pi_x', paymentId: null });
    expect([noPayment.status, noPayment.body.field, noPayment.body.message]).toEqual([422, 'paymentId', 'paymentId: the payment of a card booking is required']);
    const neverStarted = await book(key, { sessionId: 'pi_x', paymentId: 'ch_x' });
    expect([neverStarted.status, neverStarted.body.field, neverStarted.body.message])
      .toEqual([422, 'stripe_session_id', 'No card payment was started for this booking. Please pay on the card page.']);
  });

  it('makes one intent per booking for its price in pounds, confirmed by the server, named after the booking', async () => {
    const { key, created } = await pay();
    const b = await bookingOf(key);
    const pi = await (await cards.stripe()).paymentIntents.retrieve(created.body.paymentIntentId);
    expect({ amount: pi.amount, currency: pi.currency, confirmation_method: pi.confirmation_method, description: pi.description, metadata: pi.metadata })
      .toEqual({ amount: pricePence(), currency: 'gbp', confirmation_method: 'manual', description: `Booking ${b.booking_number}`,
        metadata: { booking_id: String(b.id), booking_number: b.booking_number } });
  });

  it('answers an unknown payment method as the provider refuses it, naming the field', async () => {
    const res = await t.call('POST', '/create-payment-intent', { ...bookingRequest(), paymentMethodId: 'pm_does_not_exist', amount: pricePence() },
      { 'Idempotency-Key': newKey() });
    expect([res.status, res.body.field]).toEqual([422, 'paymentMethodId']);
    expect(res.body.message).toMatch(/pm_does_not_exist/);
  });
});

describe('the webhook\'s other events', () => {
  it('records an event that is not a succeeded payment and does nothing else', async () => {
    webhookTarget = null;
    const { key, confirmed } = await pay();
    const pi = await (await cards.stripe()).paymentIntents.retrieve(confirmed.body.sessionId);
    const payload = JSON.stringify({ id: `evt_other_${key}`, object: 'event', type: 'payment_intent.payment_failed', data: { object: pi } });
    const res = await t.app.request('/api/v1/stripe/webhook', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signPayload(payload, KEYS.webhookSecret) }, body: payload,
    });
    expect([res.status, (await res.json()).outcome]).toEqual([200, 'ignored']);
    expect((await bookingOf(key)).status).toBe('pending');
  });

  it('says why a signature was refused, naming the Stripe-Signature header', async () => {
    const payload = JSON.stringify({ id: 'evt_unsigned', object: 'event', type: 'payment_intent.succeeded', data: { object: {} } });
    const res = await t.app.request('/api/v1/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' }, body: payload });
    const body = await res.json();
    expect([res.status, body.field]).toEqual([400, 'Stripe-Signature']);
    expect(body.message).toMatch(/^Webhook signature check failed: ./);
  });
});

describe('POST /stripe/webhook', () => {
  const event = (id: string, object: unknown) => JSON.stringify({ id, object: 'event', type: 'payment_intent.succeeded', data: { object } });
  const post = (payload: string, signature?: string) => t.app.request('/api/v1/stripe/webhook', {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...(signature ? { 'Stripe-Signature': signature } : {}) }, body: payload,
  });

  it('refuses a missing or wrong signature with 400 and changes nothing', async () => {
    webhookTarget = null;
    const { key, confirmed } = await pay();
    const pi = await (await cards.stripe()).paymentIntents.retrieve(confirmed.body.sessionId);
    const payload = event('evt_forged', pi);
    expect((await post(payload)).status).toBe(400);
    expect((await post(payload, signPayload(payload, 'whsec_someone_else'))).status).toBe(400);
    expect((await post(payload, signPayload(`${payload} `, KEYS.webhookSecret))).status).toBe(400);
    expect((await bookingOf(key)).status).toBe('pending');
  });

  it('needs no API keys, and handles a replayed event once', async () => {
    webhookTarget = null;
    const { key, confirmed } = await pay();
    const pi = await (await cards.stripe()).paymentIntents.retrieve(confirmed.body.sessionId);
    const payload = event(`evt_replay_${key}`, pi);
    const first = await post(payload, signPayload(payload, KEYS.webhookSecret));
    expect([first.status, (await first.json()).outcome]).toEqual([200, 'handled']);
    const again = await post(payload, signPayload(payload, KEYS.webhookSecret));
    expect([again.status, (await again.json()).outcome]).toEqual([200, 'duplicate']);
    const b = await bookingOf(key);
    expect(b.status).toBe('confirmed');
    expect((await mailsOf(b.id)).length).toBe(1);
    expect(await db.query('SELECT 1 FROM payment_events WHERE id = $1', [`evt_replay_${key}`])).toHaveLength(1);
  });

  it('leaves a booking pending when a signed event does not match its amount', async () => {
    webhookTarget = null;
    const key = newKey();
    const created = await createIntent(key, '4242424242424242');
    const pi = { ...(await (await cards.stripe()).paymentIntents.retrieve(created.body.paymentIntentId)), status: 'succeeded', amount: 50, amount_received: 50, latest_charge: 'ch_x' };
    const payload = event(`evt_small_${key}`, pi);
    expect((await post(payload, signPayload(payload, KEYS.webhookSecret))).status).toBe(200);
    expect((await bookingOf(key)).status).toBe('pending');
  });
});
