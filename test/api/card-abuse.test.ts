// Issue 24, 'Card payments': the card calls can no longer be used to test stolen cards (5 declined attempts an hour
// per client address, 3 per booking, then a 429 that offers Pay in Car and the phone), unpaid card bookings expire
// after a day and lose their personal data after PENDING_RETENTION_DAYS, and a production server never takes test
// cards by accident. Through the in-process local test gateway, as `npm start` runs without Stripe keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCards, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { loadConfig } from '../../src/server/config';
import { cardProviderFromConfig, type CardProvider } from '../../src/server/payments/provider';
import { expireUnpaidCardBookings } from '../../src/server/bookings/unpaidBookings';
import { removeUnpaidPersonalData } from '../../src/server/privacy/job';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { createApp } from '../../src/server/app';
import { estimateDistance } from '../../src/server/geo/distance';

let cards: CardProvider;
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp({ limits: DEFAULT_LIMITS, cards: (db) => (cards = localCards(db)) }); });
afterAll(async () => { await t.db.close(); });

const DECLINED = '4000000000000002';
const PAID = '4242424242424242';

const bookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1,
};
let vehicle: { vehicle_id: number; company_id: number; price: string };
let publishableKey: string;
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  vehicle = body.price_details.find((p: any) => p.vehicle_type === 'Saloon');
  publishableKey = (await t.call('GET', '/secret_key')).body.publishableKey;
});

let n = 0;
const booking = () => ({
  selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null, payment_method: 'card',
  selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  registrationData: { firstName: 'Carl', surname: 'Tester', number: '+44 770 090 012', email: `card${++n}@example.com`, additionalInfo: 'Gate 4' },
});

/** What Stripe.js does in the browser: the card to a payment method, with the publishable key. */
async function paymentMethod(number: string): Promise<string> {
  const res = await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST',
    headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  });
  return ((await res.json()) as { id: string }).id;
}

/** One try on the card page: the intent (the booking written as pending), then its confirmation. */
async function pay(request: ReturnType<typeof booking>, key: string, card: string, address: string) {
  const headers = { 'Idempotency-Key': key, 'X-Forwarded-For': address };
  const amount = Math.round(Number(vehicle.price) * 100);
  const intent = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: await paymentMethod(card), amount }, headers);
  if (intent.status !== 200) return intent;
  return t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId }, headers);
}

describe('declined cards', () => {
  it('are 3 tries on one booking; the 4th is a 429 offering Pay in Car and the phone, and the booking stays unpaid', async () => {
    const request = booking();
    for (let i = 0; i < 3; i++) {
      const res = await pay(request, 'abuse-booking', DECLINED, '198.51.100.60');
      expect([res.status, res.body.status]).toEqual([200, 'failed']);
    }
    const fourth = await pay(request, 'abuse-booking', PAID, '198.51.100.60');
    expect([fourth.status, fourth.body.field]).toEqual([429, 'paymentMethodId']);
    // The booking's tries come back after a day (README), not the hour of the address's allowance.
    expect(fourth.headers['retry-after']).toBe('86400');
    expect(fourth.body.message).toMatch(/declined too many times\. No payment was taken\. Please choose Pay in Car, or call us on \+?[\d ]+ to book\./);
    const [row] = await t.db.query<{ status: string }>("SELECT status FROM bookings WHERE idempotency_key = 'abuse-booking'");
    expect(row.status).toBe('pending');
  });

  it('are 5 an hour from one address across bookings; then even a new booking is refused before it is written', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await pay(booking(), `abuse-address-${i}`, DECLINED, '198.51.100.61');
      expect(res.body.status).toBe('failed');
    }
    const pending = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings'))[0].n;
    const sixth = await pay(booking(), 'abuse-address-5', PAID, '198.51.100.61');
    expect([sixth.status, sixth.body.field, sixth.headers['retry-after']]).toEqual([429, 'paymentMethodId', '3600']);
    expect(sixth.body.message).toContain('Too many card payments were declined.');
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings'))[0].n).toBe(pending);
    expect((await pay(booking(), 'abuse-address-6', PAID, '198.51.100.62')).body.status).toBe('succeeded');
  });

  it('counts 20 confirmations sent at once from one address exactly: 5 tried, 15 refused', async () => {
    const intents = [];
    for (let i = 0; i < 20; i++) {
      const amount = Math.round(Number(vehicle.price) * 100);
      const res = await t.call('POST', '/create-payment-intent', { ...booking(), paymentMethodId: await paymentMethod(DECLINED), amount },
        { 'Idempotency-Key': `abuse-burst-${i}`, 'X-Forwarded-For': `198.51.101.${i}` });
      intents.push(res.body.paymentIntentId);
    }
    const answers = await Promise.all(intents.map((id) =>
      t.call('POST', '/confirm-payment-intent', { paymentIntentId: id }, { 'X-Forwarded-For': '198.51.100.63' })));
    expect(answers.filter((a) => a.body.status === 'failed')).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  });

  it('counts a double click on Pay with a declined card as one try: the card was tried once', async () => {
    const request = booking();
    const headers = { 'Idempotency-Key': 'abuse-double', 'X-Forwarded-For': '198.51.100.65' };
    const amount = Math.round(Number(vehicle.price) * 100);
    const intent = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: await paymentMethod(DECLINED), amount }, headers);
    const both = await Promise.all([1, 2].map(() =>
      t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId }, headers)));
    expect(both.map((a) => [a.status, a.body.status])).toEqual([[200, 'failed'], [200, 'failed']]);
    for (let i = 0; i < 2; i++) expect((await pay(request, 'abuse-double', DECLINED, '198.51.100.65')).body.status).toBe('failed');
    expect((await pay(request, 'abuse-double', PAID, '198.51.100.65')).status).toBe(429);
  });

  it('counts only declines: payments that succeed leave the allowance whole', async () => {
    for (let i = 0; i < 7; i++) expect((await pay(booking(), `fine-${i}`, PAID, '198.51.100.64')).body.status).toBe('succeeded');
    expect((await pay(booking(), 'fine-declined', DECLINED, '198.51.100.64')).body.status).toBe('failed');
  });
});

describe('card bookings never paid', () => {
  it('expire after a day with their intent canceled; one whose payment succeeded is completed instead', async () => {
    const amount = Math.round(Number(vehicle.price) * 100);
    const abandoned = await t.call('POST', '/create-payment-intent', { ...booking(), paymentMethodId: await paymentMethod(PAID), amount },
      { 'Idempotency-Key': 'abandoned', 'X-Forwarded-For': '198.51.100.70' });
    const paidLate = await pay(booking(), 'paid-late', PAID, '198.51.100.70');
    expect(paidLate.body.status).toBe('succeeded');
    const young = await t.call('POST', '/create-payment-intent', { ...booking(), paymentMethodId: await paymentMethod(PAID), amount },
      { 'Idempotency-Key': 'young', 'X-Forwarded-For': '198.51.100.70' });
    await t.db.query("UPDATE bookings SET created_at = now() - interval '25 hours' WHERE idempotency_key IN ('abandoned', 'paid-late')");
    await t.db.query("UPDATE bookings SET created_at = now() - interval '23 hours' WHERE idempotency_key = 'young'");

    expect(await expireUnpaidCardBookings(t.db, cards)).toBe(1);
    const status = async (key: string) => (await t.db.query<{ status: string }>('SELECT status FROM bookings WHERE idempotency_key = $1', [key]))[0].status;
    expect([await status('abandoned'), await status('paid-late'), await status('young')]).toEqual(['expired', 'confirmed', 'pending']);
    const stripe = await cards.stripe();
    expect((await stripe.paymentIntents.retrieve(abandoned.body.paymentIntentId)).status).toBe('canceled');
    expect((await stripe.paymentIntents.retrieve(young.body.paymentIntentId)).status).not.toBe('canceled');
    // As Stripe, the gateway refuses to cancel it twice; the next run leaves it be.
    await expect(stripe.paymentIntents.cancel(abandoned.body.paymentIntentId)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    expect(await expireUnpaidCardBookings(t.db, cards)).toBe(0);
    // A canceled intent is never paid: confirming it now fails, and the booking stays expired.
    const late = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: abandoned.body.paymentIntentId }, { 'X-Forwarded-For': '198.51.100.71' });
    expect(late.body.status).toBe('failed');
    expect(await status('abandoned')).toBe('expired');
  });

  it('lose their personal data after 7 days (PENDING_RETENTION_DAYS), and nothing newer does', async () => {
    expect(loadConfig({}).pendingRetentionDays).toBe(7);
    await t.db.query("UPDATE bookings SET created_at = now() - interval '8 days' WHERE idempotency_key = 'abandoned'");
    const [{ passenger_id: guest }] = await t.db.query<{ passenger_id: number }>("SELECT passenger_id FROM bookings WHERE idempotency_key = 'abandoned'");
    expect(await removeUnpaidPersonalData(t.db, 7)).toBe(1);
    const [gone] = await t.db.query<any>(
      `SELECT b.pick_up_address, b.drop_off_address, b.passenger_id, p.passenger_name, p.passenger_email, p.passenger_contact_no, p.additional_info,
              (SELECT count(*)::int FROM outbound_emails e WHERE e.booking_id = b.id) AS mails, b.personal_data_removed_at IS NOT NULL AS marked
         FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id
        WHERE b.idempotency_key = 'abandoned'`);
    // The one anonymiser of every table (src/server/privacy/, decision 60): an address keeps its postcode district.
    expect(gone).toEqual({
      pick_up_address: 'TW6', drop_off_address: 'WC2N', passenger_id: null, passenger_name: '', passenger_email: '', passenger_contact_no: '',
      additional_info: '', mails: 0, marked: true,
    });
    const [contact] = await t.db.query<any>('SELECT name, email, phone, personal_data_removed_at IS NOT NULL AS marked FROM passengers WHERE id = $1', [guest]);
    expect(contact).toEqual({ name: '', email: '', phone: '', marked: true });
    const [kept] = await t.db.query<any>(
      "SELECT p.passenger_name FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id WHERE b.idempotency_key = 'paid-late'");
    expect(kept.passenger_name).toBe('Carl Tester');
    expect(await removeUnpaidPersonalData(t.db, 7)).toBe(0);
  });
});

describe('the test gateway in production', () => {
  it('a production server without Stripe keys refuses to start unless CARD_GATEWAY=test is set on purpose', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/no Stripe keys are set.*CARD_GATEWAY=test/);
    expect(loadConfig({ NODE_ENV: 'production', CARD_GATEWAY: 'test' }).testGatewayInProduction).toBe(true);
    const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig({ NODE_ENV: 'production', ...stripe }).testGatewayInProduction).toBe(false);
    expect(loadConfig({}).testGatewayInProduction).toBe(false);
  });

  it('admin bookings marks payments through the test gateway as test', async () => {
    const paidHere = (await runAdmin(t.db, ['bookings', '--limit', '100'])).split('\n')
      .filter((line) => /card\d+@example\.com/.test(line) && /\bpaid\b/.test(line));
    expect(paidHere.length).toBeGreaterThan(0);
    for (const line of paidHere) expect(line).toContain('paid (test)');
  });

  it('/test-gateway/* is 404 when Stripe is configured', async () => {
    const stripe = cardProviderFromConfig(
      { stripeSecretKey: 'sk_test_x', stripePublishableKey: 'pk_test_x', stripeWebhookSecret: 'whsec_x', stripeApiUrl: 'http://127.0.0.1:9' },
      { db: t.db, secret: Buffer.from('x'), deliverWebhook: null });
    const app = createApp({
      db: t.db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: 'p', secret: 's' }, now: () => new Date(), siteUrl: 'http://localhost:8080',
      security: { secret: Buffer.from('x'), passwordHashCost: 10, trustProxy: false, limits: DEFAULT_LIMITS }, cards: stripe,
    });
    for (const path of ['/test-gateway/stripe.js', '/test-gateway/v1/payment_methods']) {
      expect((await app.request(path)).status).toBe(404);
    }
    expect((await t.app.request('/test-gateway/stripe.js')).status).toBe(200);
  });
});
