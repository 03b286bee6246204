// Issue 43 §1, through the API: bookings the office takes on the telephone (the website's booking code, with the
// office's own choices: any time to come, a passenger on record, a price set by hand with its reason, a card payment
// link), the passenger search, and the payment link's page calls (3-D Secure included; a link used twice pays once; an
// expired one says so). Bad input is refused on its field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { localKeys } from '../../src/server/payments/provider';
import { PICKUP_PASSED, LINK_TOO_LATE } from '../../src/domain/phoneBookings';
import type { BookingRecord } from '../../src/domain/bookingRecords';

let t: Awaited<ReturnType<typeof testApp>>;
/** The office's session the prices are asked with. */
let office: Record<string, string>;
beforeAll(async () => {
  t = await testApp();
  office = await signIn(DEMO_STAFF[0].email, DEMO_STAFF[0].password);
});
afterAll(async () => { await t.db.close(); });

const [ADMIN, METRO] = DEMO_STAFF;
const PK = localKeys(TEST_SECURITY.secret).publishableKey;
const DAY = '2031-03-11';

async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

const form = (extra: Record<string, unknown> = {}) => ({
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA',
  pickup_date: DAY, pickup_hour: '8am', pickup_min: '30', passengers: 2, luggages: 2, ...extra,
});

/** The office's price (the website's price call as the console asks it) of a company's Saloon. */
async function saloonOf(company: string, f = form()) {
  const { body } = await t.call('POST', '/operator/quote/distance', f, office);
  return body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
}

const GUEST = { firstName: 'Margaret', surname: 'Ellis', number: '07700 900341', email: 'margaret.ellis@example.com' };

async function phoneBody(extra: Record<string, unknown> = {}, f = form(), company = 'Albion Executive Cars') {
  return {
    booking: {
      selectedVehicleData: await saloonOf(company, f), selectedVehicle: 1, bookingType: 'milleage', bookingForm: f,
      registrationData: GUEST, payment_method: 'car',
    },
    payment: 'car', ...extra,
  };
}

let keys = 0;
const take = (body: unknown, who: Record<string, string>, key = `phone-${Date.now()}-${++keys}`) =>
  t.call('POST', '/operator/phone-bookings', body, { ...who, 'Idempotency-Key': key });
const bookingCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings'))[0].n;

/** What Stripe.js does in the browser: the card to a payment method (the local test gateway). */
async function paymentMethod(number: string) {
  return (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': number, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
}
/** The bank's 3-D Secure page, approved as the stand-in's dialog approves it. */
async function approve(clientSecret: string) {
  const id = clientSecret.split('_secret_')[0];
  return (await t.app.request(`/test-gateway/v1/payment_intents/${id}/test_authentication`, {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: clientSecret, outcome: 'approve' }),
  })).json();
}

describe('a booking taken by phone', () => {
  let admin: Record<string, string>;
  let metro: Record<string, string>;
  beforeAll(async () => {
    admin = await signIn(ADMIN.email, ADMIN.password);
    metro = await signIn(METRO.email, METRO.password);
  });

  it('needs a member of staff', async () => {
    expect((await t.call('POST', '/operator/phone-bookings', await phoneBody())).status).toBe(401);
    expect((await t.call('GET', '/operator/passengers?q=ellis')).status).toBe(401);
    expect((await t.call('POST', '/operator/quote/distance', form())).status).toBe(401);
    expect((await t.call('POST', '/operator/quote/hourly', { pickup: 'Paddington Station, Praed Street, London W2 1HQ', pickup_date: DAY, pickup_hour: '8am', pickup_min: '30', pickup_duration: '4hour' })).status).toBe(401);
  });

  it('refuses bad input on its field and writes nothing', async () => {
    const before = await bookingCount();
    const base = await phoneBody();
    const withForm = (f: Record<string, unknown>) => ({ ...base, booking: { ...base.booking, bookingForm: f } });
    const cases: [unknown, string, string | RegExp][] = [
      [{ ...base, price: { amount: '70', reason: '' } }, 'price.reason', 'Give the reason for the price: it is kept with the booking and audited.'],
      [{ ...base, price: { amount: 'seventy', reason: 'Regular customer' } }, 'price.amount', 'Enter the price in pounds, e.g. 85 or 85.50.'],
      [withForm(form({ pickup_date: '2020-01-06' })), 'bookingForm.pickup_date', PICKUP_PASSED],
      [withForm(form({ pickup: 'Nowhere Street, Atlantis' })), 'bookingForm.pickup', /./],
      [{ ...base, booking: { ...base.booking, selectedVehicleData: { vehicle_id: 999, company_id: 999 } } }, 'selectedVehicleData', /not offered/],
      [{ ...base, payment: 'cheque' }, 'payment', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await take(body, admin);
      expect([res.status, res.body.field], JSON.stringify(res.body)).toEqual([422, field]);
      expect(res.body.message).toMatch(message);
    }
    expect(await bookingCount()).toBe(before);
  });

  it("books paid in the car with the site's price, confirms it to the passenger with the manage link, and records that the office took it", async () => {
    const res = await take(await phoneBody(), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.link).toBeNull();
    const { booking } = res.body.booking;
    const site = await saloonOf('Albion Executive Cars');
    expect(booking.total_booking_amount).toBe(site.price);
    const [row] = await t.db.query<any>('SELECT status, payment_method, booked_via, booked_by_name, booked_by_staff_id, price_override FROM bookings WHERE id = $1', [booking.id]);
    expect(row).toEqual({ status: 'confirmed', payment_method: 'car', booked_via: 'phone', booked_by_name: ADMIN.name, booked_by_staff_id: expect.any(Number), price_override: null });
    const mails = await t.db.query<any>("SELECT kind, to_address, status, template_data FROM outbound_emails WHERE booking_id = $1 ORDER BY kind", [booking.id]);
    expect(mails.map((m) => [m.kind, m.to_address, m.status])).toEqual([
      ['booking_confirmation', GUEST.email, 'pending'], ['new_booking_notice', expect.any(String), 'pending'],
    ]);
    expect(mails[0].template_data).toContain('/manage/');
    const audit = await t.db.query<any>('SELECT action, staff_name FROM audit_log WHERE booking_id = $1', [booking.id]);
    expect(audit).toEqual([{ action: 'Booked by telephone', staff_name: `${ADMIN.name} (${ADMIN.email})` }]);
    // The office is not a visitor: nothing is counted against the allowances for its bookings.
    expect(await t.db.query("SELECT 1 FROM rate_limits WHERE key ILIKE '%margaret%' OR key = 'office'")).toEqual([]);
    const records = await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`, undefined, admin);
    const record = (records.body.records as BookingRecord[]).find((r) => r.reference === booking.booking_number)!;
    expect([record.booked_via, record.booked_by, record.fare_quoted, record.fare_changes]).toEqual(['phone', `${ADMIN.name} (office)`, `£${site.price}`, []]);
    const page = await t.call('GET', `/operator/bookings/${booking.booking_number}`, undefined, admin);
    expect(page.body.timeline[0]).toMatchObject({ kind: 'created', text: 'Booked by telephone', by: ADMIN.name });
  });

  it('takes a price set by hand with its reason: charged, its lines adding up, audited, and on the record beside the site\'s', async () => {
    const site = await saloonOf('Albion Executive Cars');
    const res = await take(await phoneBody({ price: { amount: '55.50', reason: 'Regular customer, agreed rate' } }), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { booking } = res.body.booking;
    expect(booking.total_booking_amount).toBe('55.50');
    const [row] = await t.db.query<any>('SELECT total_booking_amount_pence, price_breakdown, price_override FROM bookings WHERE id = $1', [booking.id]);
    expect(row.total_booking_amount_pence).toBe(5550);
    const lines = row.price_breakdown.lines as { label: string; amount: string }[];
    expect(lines.reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0)).toBe(5550);
    expect(lines.at(-1)!.label).toBe('Price agreed with the office');
    expect(row.price_override).toEqual({ quoted_pence: Math.round(Number(site.price) * 100), reason: 'Regular customer, agreed rate' });
    const audit = await t.db.query<any>('SELECT action, subject FROM audit_log WHERE booking_id = $1 ORDER BY id', [booking.id]);
    expect(audit.map((a) => a.action)).toEqual(['Booked by telephone', 'Price set by hand']);
    expect(audit[1].subject).toBe(`£55.50 in place of £${site.price}: Regular customer, agreed rate`);
    const records = await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`, undefined, admin);
    const record = (records.body.records as BookingRecord[]).find((r) => r.reference === booking.booking_number)!;
    expect([record.fare_quoted, record.fare_changes]).toEqual(['£55.50', [`Price set by hand (the site's price was £${site.price}): Regular customer, agreed rate`]]);
  });

  it("prices as the website prices, for any time still to come, and hourly hire whatever the website offers", async () => {
    const site = await t.call('POST', '/calculate-distance-price', form());
    const desk = await t.call('POST', '/operator/quote/distance', form(), office);
    expect(desk.body).toEqual(site.body);
    const past = await t.call('POST', '/operator/quote/distance', form({ pickup_date: '2020-01-06' }), office);
    expect([past.status, past.body.field, past.body.message]).toEqual([422, 'pickup_date', PICKUP_PASSED]);
    const hourlyForm = { pickup: 'Paddington Station, Praed Street, London W2 1HQ', pickup_date: DAY, pickup_hour: '8am', pickup_min: '30', pickup_duration: '4hour' };
    expect((await t.call('POST', '/calculate-hourly-price', hourlyForm)).status).toBe(422);
    const hourly = await t.call('POST', '/operator/quote/hourly', hourlyForm, office);
    expect(hourly.status, JSON.stringify(hourly.body)).toBe(200);
    const offer = hourly.body.price_details[0];
    const res = await take({ ...(await phoneBody()), booking: { selectedVehicleData: offer, selectedVehicle: 1, bookingType: 'hourly', hourlyRateForm: hourlyForm, registrationData: GUEST, payment_method: 'car' } }, office);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.booking).toMatchObject({ ride_type: 'H', hourly_duration: '4hour', total_booking_amount: offer.price });
  });

  it('answers a retry with the booking the first made, once; the same key with other details is refused', async () => {
    const body = await phoneBody();
    const key = `phone-retry-${Date.now()}`;
    const [a, b] = await Promise.all([take(body, admin, key), take(body, admin, key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.booking.booking.booking_number).toBe(b.body.booking.booking.booking_number);
    expect([a.body.replayed, b.body.replayed].sort()).toEqual([false, true]);
    const other = await take(await phoneBody({ price: { amount: '40', reason: 'Another rate' } }), admin, key);
    expect([other.status, other.body.field]).toEqual([422, 'Idempotency-Key']);
  });

  it("books into a passenger's account found on record", async () => {
    const found = await t.call('GET', '/operator/passengers?q=northbridge', undefined, admin);
    expect(found.status).toBe(200);
    const account = found.body.passengers.find((p: any) => p.email === DEMO_CORPORATE.email);
    expect(account).toMatchObject({ account_id: expect.any(Number), name: DEMO_CORPORATE.name });
    const body = await phoneBody({ passenger_id: account.account_id });
    const [first, ...last] = DEMO_CORPORATE.name.split(' ');
    const registrationData = { firstName: first, surname: last.join(' '), number: account.phone, email: account.email };
    const res = await take({ ...body, booking: { ...body.booking, registrationData } }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.passengerDetails).toMatchObject({ passenger_id: account.account_id, passenger_email: DEMO_CORPORATE.email, passenger_name: DEMO_CORPORATE.name });
    // A booking of hers that names someone else (her e-mail, another name and phone): she is still found as herself.
    const named = await take({ ...body, booking: { ...body.booking, registrationData: { ...registrationData, firstName: 'Tom', surname: 'Reed', number: '07700 900777' } } }, admin);
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const again = (await t.call('GET', '/operator/passengers?q=northbridge', undefined, admin)).body.passengers;
    expect(again.filter((p: any) => p.email === DEMO_CORPORATE.email)).toEqual([{ ...account, name: DEMO_CORPORATE.name, phone: account.phone }]);
    const guest = await t.call('GET', '/operator/passengers?q=900341', undefined, admin);
    expect(guest.body.passengers).toContainEqual({ account_id: null, name: 'Margaret Ellis', email: GUEST.email, phone: '+447700900341', last_booked: expect.any(String), billing: null });
    expect((await t.call('GET', '/operator/passengers?q=x', undefined, admin)).body.field).toBe('q');
  });

  it("keeps a company's desk to its own company's vehicles and passengers", async () => {
    const piotr = { firstName: 'Piotr', surname: 'Kowalski', number: '07700 900512', email: 'piotr.kowalski@example.com' };
    const res = await take(await phoneBody(), metro);
    expect([res.status, res.body.field]).toEqual([422, 'selectedVehicleData']);
    const albion = await phoneBody();
    expect((await take({ ...albion, booking: { ...albion.booking, registrationData: piotr } }, office)).status).toBe(200);
    // Piotr has booked Albion only so far: Metro's desk does not find him.
    expect((await t.call('GET', '/operator/passengers?q=kowalski', undefined, metro)).body.passengers).toEqual([]);
    const own = await phoneBody({}, form(), 'Metro Cars London');
    expect((await take({ ...own, booking: { ...own.booking, registrationData: piotr } }, metro)).status).toBe(200);
    const found = await t.call('GET', '/operator/passengers?q=kowalski', undefined, metro);
    expect(found.body.passengers.map((p: { email: string }) => p.email)).toEqual([piotr.email]);
    // An account that never booked Metro is not theirs to book into (its name and phone would come back): refused.
    const [stranger] = await t.db.query<{ id: number }>(
      "INSERT INTO passengers (name, email, phone, password_hash) VALUES ('Other Person', $1, '+447700900999', 'x') RETURNING id", [`other.${Date.now()}@example.com`]);
    const before = await bookingCount();
    const intoStranger = await phoneBody({ passenger_id: stranger.id }, form(), 'Metro Cars London');
    const refused = await take({ ...intoStranger, booking: { ...intoStranger.booking, registrationData: { ...piotr, firstName: '', surname: '', number: '' } } }, metro);
    expect([refused.status, refused.body.field]).toEqual([422, 'passenger_id']);
    expect(JSON.stringify(refused.body)).not.toContain('Other Person');
    expect(await bookingCount()).toBe(before);
  });
});

describe('a card payment link', () => {
  let admin: Record<string, string>;
  beforeAll(async () => { admin = await signIn(ADMIN.email, ADMIN.password); });

  const keyOf = (url: string) => url.split('#key=')[1];
  const pay = (reference: string, key: string, path = '', method = 'GET', body?: unknown) =>
    t.call(method, `/pay/${reference}${path}`, body, { 'X-Pay-Key': key });

  it('holds the booking and its confirmation, sends the link, and is paid once through it with 3-D Secure', async () => {
    const res = await take(await phoneBody({ payment: 'link' }), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { booking } = res.body.booking;
    const { url, sent_to, expires_at } = res.body.link;
    expect(url).toMatch(new RegExp(`^https?://[^/]+/pay/${booking.booking_number}#key=[\\w-]{43}$`));
    expect(sent_to).toBe(GUEST.email);
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    const before = await t.db.query<any>('SELECT kind, channel, status, erase_after_send FROM outbound_emails WHERE booking_id = $1 ORDER BY kind', [booking.id]);
    expect(before).toEqual([
      { kind: 'booking_confirmation', channel: 'email', status: 'held', erase_after_send: true },
      { kind: 'new_booking_notice', channel: 'email', status: 'held', erase_after_send: false },
      { kind: 'payment_link', channel: 'email', status: 'pending', erase_after_send: true },
      { kind: 'payment_link_sms', channel: 'sms', status: 'pending', erase_after_send: true },
    ]);
    const key = keyOf(url);
    expect((await pay(booking.booking_number, 'x'.repeat(43))).status).toBe(404);
    expect((await pay('BK-AAAAAAAA', key)).status).toBe(404);
    const page = await pay(booking.booking_number, key);
    expect(page.body).toMatchObject({ reference: booking.booking_number, state: 'awaiting', amount: booking.total_booking_amount, trip: { passenger: 'Margaret Ellis', vehicle: 'Saloon' } });

    const pm = await paymentMethod('4000002760003184');
    const intent = await pay(booking.booking_number, key, '/intent', 'POST', { paymentMethodId: pm.id });
    expect(intent.status, JSON.stringify(intent.body)).toBe(200);
    // A second click makes no second intent.
    expect((await pay(booking.booking_number, key, '/intent', 'POST', { paymentMethodId: pm.id })).body.paymentIntentId).toBe(intent.body.paymentIntentId);
    const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId });
    expect(confirmed.body.status).toBe('requires_action');
    await approve(confirmed.body.clientSecret);
    expect((await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId })).body.status).toBe('succeeded');
    const [done, again] = await Promise.all([
      pay(booking.booking_number, key, '/complete', 'POST', { stripe_session_id: intent.body.paymentIntentId }),
      pay(booking.booking_number, key, '/complete', 'POST', { stripe_session_id: intent.body.paymentIntentId }),
    ]);
    expect([done.status, again.status]).toEqual([200, 200]);
    expect(done.body).toMatchObject({ success: true, data: { booking: { booking_number: booking.booking_number } } });
    // A manage key goes to the first call that proves the payment, once: the link never keeps giving out keys.
    const keys = [done.body.data.manage_key, again.body.data.manage_key].filter(Boolean);
    expect(keys.length).toBe(1);
    for (const k of keys) expect(k).toMatch(/^[\w-]{43}$/);
    const later = await pay(booking.booking_number, key, '/complete', 'POST', { stripe_session_id: intent.body.paymentIntentId });
    expect([later.status, later.body.data.manage_key]).toEqual([200, null]);
    expect((await pay(booking.booking_number, key)).body.trip).toBeNull();
    const [row] = await t.db.query<any>('SELECT status, payment_status, paid_at IS NOT NULL AS paid, payment_id FROM bookings WHERE id = $1', [booking.id]);
    expect(row).toMatchObject({ status: 'confirmed', paid: true, payment_id: expect.stringMatching(/^ch_/) });
    const after = await t.db.query<any>("SELECT kind, status FROM outbound_emails WHERE booking_id = $1 AND kind IN ('booking_confirmation', 'new_booking_notice') ORDER BY id", [booking.id]);
    expect(after.map((m) => m.status)).toEqual(['pending', 'pending']);
    // Used again: it shows the booking paid, and takes nothing more.
    expect((await pay(booking.booking_number, key)).body.state).toBe('paid');
    const twice = await pay(booking.booking_number, key, '/intent', 'POST', { paymentMethodId: (await paymentMethod('4242424242424242')).id });
    expect([twice.status, twice.body.message]).toEqual([409, 'This booking has been paid. Your confirmation is on its way by e-mail.']);
    const charges = await t.db.query("SELECT 1 FROM test_gateway_objects WHERE kind = 'charge' AND data::text LIKE $1", [`%${intent.body.paymentIntentId}%`]);
    expect(charges.length).toBeLessThanOrEqual(1);
  });

  it('says so once expired, and takes no card, not even one put on it before', async () => {
    const res = await take(await phoneBody({ payment: 'link' }), admin);
    const { booking } = res.body.booking;
    const key = keyOf(res.body.link.url);
    const early = await pay(booking.booking_number, key, '/intent', 'POST', { paymentMethodId: (await paymentMethod('4242424242424242')).id });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    const saved = t.clock.now;
    t.clock.now = new Date(new Date(res.body.link.expires_at).getTime() + 1000);
    try {
      expect((await pay(booking.booking_number, key)).body.state).toBe('expired');
      const refused = await pay(booking.booking_number, key, '/intent', 'POST', { paymentMethodId: (await paymentMethod('4242424242424242')).id });
      expect([refused.status, refused.body.message]).toEqual([409, 'This payment link has expired. Please call us to book again.']);
      const late = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: early.body.paymentIntentId });
      expect([late.status, late.body.message]).toEqual([409, 'This payment link has expired. Please call us to book again.']);
      const [row] = await t.db.query<any>('SELECT status, paid_at FROM bookings WHERE id = $1', [booking.id]);
      expect(row).toEqual({ status: 'pending', paid_at: null });
    } finally {
      t.clock.now = saved;
    }
  });

  it('is not sent for a pickup too soon to pay before it', async () => {
    const soon = new Date(Date.now() + 40 * 60_000);
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).formatToParts(soon);
    const get = (k: string) => parts.find((p) => p.type === k)!.value;
    const hour = Number(get('hour'));
    const f = form({ pickup_date: `${get('year')}-${get('month')}-${get('day')}`, pickup_hour: `${hour % 12 || 12}${hour < 12 ? 'am' : 'pm'}`, pickup_min: String(Math.floor(Number(get('minute')) / 5) * 5).padStart(2, '0') });
    const before = await bookingCount();
    const res = await take(await phoneBody({ payment: 'link' }, f), admin);
    expect([res.status, res.body.field, res.body.message]).toEqual([422, 'payment', LINK_TOO_LATE]);
    expect(await bookingCount()).toBe(before);
  });
});

describe("a booking on the passenger's company account (issue 44)", () => {
  let admin: Record<string, string>;
  const RUN = Math.random().toString(36).slice(2, 8);
  beforeAll(async () => { admin = await signIn(ADMIN.email, ADMIN.password); });

  /** An account with a required PO number and a cost centre list, and a booker on record (a sign-in). */
  async function bookerOf(name: string, limit = '1000') {
    const saved = await t.call('POST', '/operator/accounts', {
      name: `${name} ${RUN}`, billing_email: `ap.${RUN}@${name.toLowerCase().replace(/\W+/g, '')}.example`, terms_days: '30', credit_limit: limit, status: 'active',
    }, admin);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = saved.body.id as number;
    await t.call('POST', `/operator/accounts/${id}/fields`, { label: 'PO number', required: 'yes', options: '' }, admin);
    await t.call('POST', `/operator/accounts/${id}/fields`, { label: 'Cost centre', required: 'no', options: 'Sales\nOperations' }, admin);
    const [po, cc] = await t.db.query<{ id: number }>('SELECT id FROM account_fields WHERE account_id = $1 ORDER BY position', [id]);
    const email = `booker.${RUN}.${name.toLowerCase().replace(/\W+/g, '')}@example.co.uk`;
    const [p] = await t.db.query<{ id: number }>(
      "INSERT INTO passengers (name, email, phone, password_hash) VALUES ('Bo Booker', $1, '+447700900612', 'x') RETURNING id", [email]);
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email }, admin);
    return { id, passenger: p.id, email, po: String(po.id), cc: String(cc.id), name: `${name} ${RUN}` };
  }
  const onAccount = async (a: { passenger: number; email: string }, fields: Record<string, string> | undefined) => {
    const body = await phoneBody({ payment: 'account', passenger_id: a.passenger });
    const registrationData = { firstName: 'Bo', surname: 'Booker', number: '07700 900612', email: a.email };
    return { ...body, booking: { ...body.booking, registrationData, ...(fields ? { account_fields: fields } : {}) } };
  };

  it('finds the passenger with their account, checks its fields as the website does, and books it confirmed on the account', async () => {
    const a = await bookerOf('Phone Partners');
    const found = await t.call('GET', `/operator/passengers?q=${encodeURIComponent(a.email)}`, undefined, admin);
    expect(found.body.passengers).toEqual([expect.objectContaining({
      account_id: a.passenger, billing: { name: a.name, status: 'active', reason: '', fields: [
        { id: Number(a.po), label: 'PO number', required: true, options: [] }, { id: Number(a.cc), label: 'Cost centre', required: false, options: ['Sales', 'Operations'] },
      ] },
    })]);
    const before = await bookingCount();
    const missing = await take(await onAccount(a, undefined), admin);
    expect([missing.status, missing.body.field, missing.body.message]).toEqual([422, `account_fields.${a.po}`, `Enter the PO number: ${a.name} asks for it on every booking.`]);
    const notListed = await take(await onAccount(a, { [a.po]: 'PO-77', [a.cc]: 'Marketing' }), admin);
    expect([notListed.status, notListed.body.field]).toEqual([422, `account_fields.${a.cc}`]);
    expect(await bookingCount()).toBe(before);
    const res = await take(await onAccount(a, { [a.po]: 'PO-77', [a.cc]: 'sales' }), admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.link, res.body.booking.booking.payment_method]).toEqual([null, 'account']);
    const [row] = await t.db.query<{ id: number; status: string; payment_status: string; account_id: number; account_fields: unknown; booked_via: string }>(
      'SELECT id, status, payment_status, account_id, account_fields, booked_via FROM bookings WHERE booking_number = $1', [res.body.booking.booking.booking_number]);
    expect(row).toMatchObject({ status: 'confirmed', payment_status: 'on_account', account_id: a.id, booked_via: 'phone',
      account_fields: [{ label: 'PO number', value: 'PO-77' }, { label: 'Cost centre', value: 'Sales' }] });
    const [audited] = await t.db.query<{ subject: string }>("SELECT subject FROM audit_log WHERE booking_id = $1 AND action = 'Booked by telephone'", [row.id]);
    expect(audited.subject).toMatch(new RegExp(`^£\\d+\\.\\d\\d, on account: ${a.name}$`));
    const [notice] = await t.db.query<{ template_data: string }>(
      "SELECT template_data FROM outbound_emails WHERE booking_id = $1 AND kind = 'new_booking_notice'", [row.id]);
    expect(JSON.parse(notice.template_data).notice.paymentStatus).toBe(`On account: ${a.name}, PO number PO-77, Cost centre Sales`);
  });

  it("lets a company's desk book on an account its company looks after only, and shows it no other", async () => {
    const metro = await signIn(METRO.email, METRO.password);
    const [{ id: metroId }] = await t.db.query<{ id: number }>("SELECT id FROM companies WHERE company_name = 'Metro Cars London'");
    const office = await bookerOf('Office Clients');
    const theirs = await bookerOf('Metro Clients');
    await t.db.query('UPDATE accounts SET company_id = $1 WHERE id = $2', [metroId, theirs.id]);
    // Each booker has booked Metro before, so Metro's desk finds them on record.
    for (const a of [office, theirs]) {
      await t.db.query(
        `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode, pick_up_address,
           drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method,
           payment_status, pickup_at, status)
         SELECT 'BK-' || upper(substr(md5(random()::text), 1, 8)), ride_type, booking_type, company_id, vehicle_type_id, $1, 'existing_client', pick_up_address,
           drop_off_address, pick_up_date, pick_up_time, 1, unit_price_pence, total_booking_amount_pence, price_breakdown, 'car', 'due_in_car', pickup_at, 'completed'
           FROM bookings WHERE company_id = $2 ORDER BY id LIMIT 1 RETURNING id`, [a.passenger, metroId]).then(([b]) => t.db.query(
        `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info)
         VALUES ($1, $2, 'Bo Booker', $3, '+447700900612', 1, '')`, [b.id, a.passenger, a.email]));
    }
    const seen = async (email: string) => (await t.call('GET', `/operator/passengers?q=${encodeURIComponent(email)}`, undefined, metro)).body.passengers;
    expect(await seen(office.email)).toEqual([expect.objectContaining({ account_id: office.passenger, billing: null })]);
    expect(await seen(theirs.email)).toEqual([expect.objectContaining({ account_id: theirs.passenger, billing: expect.objectContaining({ name: theirs.name }) })]);
    const before = await bookingCount();
    const onOffice = await onAccount(office, { [office.po]: 'PO-M1' });
    const refused = await take({ ...onOffice, booking: { ...onOffice.booking, selectedVehicleData: await saloonOf('Metro Cars London') } }, metro);
    expect([refused.status, refused.body.field, refused.body.message]).toEqual([422, 'payment',
      "Only the office books on this passenger's company account. Choose pay in the car or a payment link."]);
    expect(JSON.stringify(refused.body)).not.toContain(office.name);
    expect(await bookingCount()).toBe(before);
    const onTheirs = await onAccount(theirs, { [theirs.po]: 'PO-M2' });
    const booked = await take({ ...onTheirs, booking: { ...onTheirs.booking, selectedVehicleData: await saloonOf('Metro Cars London') } }, metro);
    expect([booked.status, booked.body.booking?.booking.payment_method]).toEqual([200, 'account']);
  });

  it("finds a traveller a booker once booked for as themselves: not the booker's account, nor on it", async () => {
    const bo = await bookerOf('Travel Desk');
    const jane = `jane.traveller.${RUN}@example.com`;
    const [b] = await t.db.query<{ id: number }>(
      `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode, pick_up_address,
         drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method,
         payment_status, pickup_at, status, account_id)
       SELECT 'BK-' || upper(substr(md5(random()::text), 1, 8)), ride_type, booking_type, company_id, vehicle_type_id, $1, 'existing_client', pick_up_address,
         drop_off_address, pick_up_date, pick_up_time, 1, unit_price_pence, total_booking_amount_pence, price_breakdown, 'account', 'on_account', pickup_at,
         'completed', $2 FROM bookings ORDER BY id LIMIT 1 RETURNING id`, [bo.passenger, bo.id]);
    await t.db.query(
      `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info)
       VALUES ($1, $2, 'Jane Traveller', $3, '+447700900613', 1, '')`, [b.id, bo.passenger, jane]);
    const found = await t.call('GET', `/operator/passengers?q=${encodeURIComponent(jane)}`, undefined, admin);
    expect(found.body.passengers).toEqual([expect.objectContaining({ name: 'Jane Traveller', email: jane, account_id: null, billing: null })]);
  });

  it('refuses a passenger of no account, an account on hold and a booking past its limit, on the payment, writing nothing', async () => {
    const before = await bookingCount();
    const guest = await phoneBody({ payment: 'account' });
    const noAccount = await take(guest, admin);
    expect([noAccount.status, noAccount.body.field, noAccount.body.message]).toEqual([422, 'payment',
      'Only a passenger found on record who books for a company account can book on account: find them first, or choose another way to pay.']);
    const held = await bookerOf('Held Hauliers');
    await t.db.query("UPDATE accounts SET status = 'suspended', status_reason = 'March unpaid' WHERE id = $1", [held.id]);
    const onHold = await take(await onAccount(held, { [held.po]: 'PO-1' }), admin);
    expect([onHold.status, onHold.body.field, onHold.body.message]).toEqual([422, 'payment', `${held.name}'s account is on hold: March unpaid. Choose pay in the car or a payment link.`]);
    const small = await bookerOf('Small Spenders', '10');
    const over = await take(await onAccount(small, { [small.po]: 'PO-2' }), admin);
    expect([over.status, over.body.field]).toEqual([422, 'payment']);
    expect(over.body.message).toMatch(new RegExp(`^This booking \\(£\\d+\\.\\d\\d\\) would take ${small.name}'s account past its credit limit: £10\\.00 of £10\\.00 is left\\. Choose another way to pay; the office can raise the limit under Accounts\\.$`));
    expect(await bookingCount()).toBe(before);
  });
});
