// Issue 26 part 2, through the API: staff sign-in and sessions, who sees which bookings (a company member only its
// own: another's is 404 and never listed, searched, mailed or exported), the board's tabs, search and filters, a
// booking's page, and the actions (driver, completed, no-show, cancel with a refund made exactly once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, TEST_SITE_URL, recordDriverAndCar, testApp } from './setup';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { localKeys, type CardProvider } from '../../src/server/payments/provider';
import { csvField } from '../../src/server/http/csv';
import { phoneDigits } from '../../src/server/operator/deskQueries';
import { smsLength } from '../../src/domain/sms';
import { formatDateLong } from '../../src/domain/ukTime';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const [ADMIN, METRO] = DEMO_STAFF;
const PK = localKeys(TEST_SECURITY.secret).publishableKey;

/** Signs in and returns the session cookie to send back. */
async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookie = res.headers['set-cookie'];
  return cookie.split(';')[0];
}
const as = (cookie: string) => ({ Cookie: cookie });

const DATE = '2030-09-12';
const bookingForm = (date = DATE, hour = '7am') => ({
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: date, pickup_hour: hour, pickup_min: '15', passengers: 2, luggages: 1,
});

async function vehicleOf(company: string, form = bookingForm()) {
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  return body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
}

/** A guest booking paid in the car. */
async function book(company: string, who: { first: string; last: string; email: string; phone: string }, form = bookingForm()) {
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: await vehicleOf(company, form), selectedVehicle: 1, bookingType: 'milleage', bookingForm: form,
    registrationData: { firstName: who.first, surname: who.last, number: who.phone, email: who.email },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking as { id: number; booking_number: string; total_booking_amount: string };
}

/** A guest booking paid by card through the local test gateway, as the card page pays. */
async function bookByCard(company: string) {
  const form = bookingForm('2030-09-13', '9am');
  const vehicle = await vehicleOf(company, form);
  const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
  const key = `desk-card-${Date.now()}-${Math.random()}`;
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '+44 7700 900012', email: 'amelia.card@example.com', additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, { 'Idempotency-Key': key });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, { 'Idempotency-Key': key });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.data.booking as { id: number; booking_number: string; total_booking_amount: string };
}

const OLIVER = { first: 'Oliver', last: 'Bennett', email: 'oliver.bennett@example.com', phone: '07700 900123' };
const GRACE = { first: 'Grace', last: 'Adeyemi', email: 'grace.adeyemi@example.com', phone: '+44 7700 900456' };

describe('staff sign-in', () => {
  it('gives an HttpOnly, same-site session cookie, stored only as a hash, ended by sign-out', async () => {
    const wrong = await t.call('POST', '/operator/session', { email: ADMIN.email, password: 'not-it-at-all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('The e-mail or password is not correct.');
    expect((await t.call('POST', '/operator/session', { email: ADMIN.email })).status).toBe(422);

    const res = await t.call('POST', '/operator/session', { email: ADMIN.email.toUpperCase(), password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body.staff).toMatchObject({ email: ADMIN.email, role: 'admin', company_id: null });
    const setCookie = res.headers['set-cookie'];
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api\/v1\/operator/);
    const cookie = setCookie.split(';')[0];
    const token = cookie.split('=')[1];
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM staff_sessions');
    expect(stored.some((s) => s.token_hash === token)).toBe(false);
    expect(stored.length).toBeGreaterThan(0);

    expect((await t.call('GET', '/operator/session', undefined, as(cookie))).body.staff.name).toBe(ADMIN.name);
    expect((await t.call('DELETE', '/operator/session', undefined, as(cookie))).status).toBe(200);
    expect((await t.call('GET', '/operator/session', undefined, as(cookie))).body).toEqual({ staff: null });
    const after = await t.call('GET', '/operator/bookings', undefined, as(cookie));
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Please sign in again: your session has ended.');
  });

  it('ends a session after 30 minutes unused (decision 47), and every call but sign-in needs one', async () => {
    const cookie = await signIn(ADMIN.email, ADMIN.password);
    await t.db.query("UPDATE staff_sessions SET last_used_at = now() - interval '29 minutes' WHERE revoked_at IS NULL");
    expect((await t.call('GET', '/operator/bookings?tab=upcoming', undefined, as(cookie))).status).toBe(200);
    await t.db.query("UPDATE staff_sessions SET last_used_at = now() - interval '31 minutes' WHERE revoked_at IS NULL");
    expect((await t.call('GET', '/operator/bookings?tab=upcoming', undefined, as(cookie))).status).toBe(401);
    for (const [method, path] of [['GET', '/operator/bookings'], ['GET', '/operator/latest'], ['GET', '/operator/emails'],
      ['GET', '/operator/export?from=2030-01-01&to=2030-12-31'], ['POST', '/operator/bookings/BK-ABC/cancel']]) {
      expect((await t.call(method, path, method === 'POST' ? {} : undefined)).status, path).toBe(401);
    }
  });

  it('is counted by the sign-in limits: the 11th wrong password from one address in 15 minutes is refused', async () => {
    const email = 'nobody-here@albion-executive.co.uk';
    for (let i = 0; i < 10; i++) expect((await t.call('POST', '/operator/session', { email, password: `guess-${i}` })).status).toBe(401);
    expect((await t.call('POST', '/operator/session', { email, password: 'guess-10' })).status).toBe(429);
  });
});

describe('staff, added from the command line', () => {
  it('add-staff prints a one-time password that signs in; a company member needs its company; remove-staff ends their sessions', async () => {
    const out = await runAdmin(t.db, ['add-staff', '--email', 'night@albion-executive.co.uk', '--name', 'Sam Lee', '--role', 'dispatcher'], TEST_SECURITY.passwordHashCost);
    const password = /shown once: (\S+)$/.exec(out)![1];
    expect(password.length).toBeGreaterThanOrEqual(16);
    const cookie = await signIn('night@albion-executive.co.uk', password);
    await expect(runAdmin(t.db, ['add-staff', '--email', 'x@metrocars.london', '--name', 'X', '--role', 'company'], TEST_SECURITY.passwordHashCost))
      .rejects.toThrow('A company member needs the company');
    await expect(runAdmin(t.db, ['add-staff', '--email', 'x@metrocars.london', '--name', 'X', '--role', 'owner'], TEST_SECURITY.passwordHashCost))
      .rejects.toThrow('The role is one of admin, dispatcher, company');
    expect(await runAdmin(t.db, ['staff'])).toContain('night@albion-executive.co.uk');
    await runAdmin(t.db, ['remove-staff', '--email', 'night@albion-executive.co.uk']);
    expect((await t.call('GET', '/operator/session', undefined, as(cookie))).body.staff).toBeNull();
    expect((await t.call('POST', '/operator/session', { email: 'night@albion-executive.co.uk', password })).status).toBe(401);
  });
});

describe('the board', () => {
  let metroRef: string;
  let albionRef: string;
  let admin: string;
  let metro: string;
  beforeAll(async () => {
    metroRef = (await book('Metro Cars London', OLIVER)).booking_number;
    albionRef = (await book('Albion Executive Cars', GRACE)).booking_number;
    admin = await signIn(ADMIN.email, ADMIN.password);
    metro = await signIn(METRO.email, METRO.password);
  });
  const refs = async (cookie: string, query: string) => {
    const res = await t.call('GET', `/operator/bookings?${query}`, undefined, as(cookie));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.rows as { booking_number: string }[]).map((r) => r.booking_number);
  };

  it('lists upcoming bookings by pickup time, for the office all companies', async () => {
    const rows = (await t.call('GET', '/operator/bookings?tab=upcoming', undefined, as(admin))).body.rows as { pickup_at: string; booking_number: string }[];
    expect(rows.map((r) => r.booking_number)).toEqual(expect.arrayContaining([metroRef, albionRef]));
    const times = rows.map((r) => new Date(r.pickup_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('shows a company member only its own company: another company\'s booking is never listed, searched or found', async () => {
    for (const tab of ['today', 'upcoming', 'past', 'awaiting', 'cancelled']) {
      const res = await t.call('GET', `/operator/bookings?tab=${tab}`, undefined, as(metro));
      for (const r of res.body.rows) expect(r.company_name, tab).toBe('Metro Cars London');
    }
    expect(await refs(metro, 'tab=upcoming')).toContain(metroRef);
    expect(await refs(metro, `tab=upcoming&q=${albionRef}`)).toEqual([]);
    expect(await refs(metro, 'tab=upcoming&q=Adeyemi')).toEqual([]);
    const other = await t.call('GET', `/operator/bookings/${albionRef}`, undefined, as(metro));
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('No booking with this reference.');
    expect((await t.call('POST', `/operator/bookings/${albionRef}/cancel`, { reason: 'x' }, as(metro))).status).toBe(404);
    const albionCrew = await recordDriverAndCar(t.db, 'Albion Executive Cars');
    expect((await t.call('POST', `/operator/bookings/${albionRef}/driver`, albionCrew, as(metro))).status).toBe(404);
    const filters = (await t.call('GET', '/operator/filters', undefined, as(metro))).body;
    expect(filters.companies.map((c: any) => c.company_name)).toEqual(['Metro Cars London']);
    const csv = (await t.call('GET', '/operator/export?from=2030-09-01&to=2030-09-30', undefined, as(metro))).body as string;
    expect(csv).toContain(metroRef);
    expect(csv).not.toContain(albionRef);
    const mails = (await t.call('GET', '/operator/emails?status=pending', undefined, as(metro))).body.emails as { booking_number: string }[];
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.every((m) => m.booking_number === metroRef || m.booking_number?.length)).toBe(true);
    expect(mails.some((m) => m.booking_number === albionRef)).toBe(false);
    // The newest booking it is told of is its own company's.
    const latest = (await t.call('GET', '/operator/latest', undefined, as(metro))).body;
    expect(latest.latest_id).toBeLessThan((await t.call('GET', '/operator/latest', undefined, as(admin))).body.latest_id);
  });

  it('finds a booking by reference, name, e-mail or phone as a person types it, and filters by company, vehicle and status', async () => {
    expect(await refs(admin, `tab=upcoming&q=${metroRef.toLowerCase()}`)).toEqual([metroRef]);
    expect(await refs(admin, 'tab=upcoming&q=oliver bennett')).toContain(metroRef);
    expect(await refs(admin, 'tab=upcoming&q=OLIVER.BENNETT@example')).toContain(metroRef);
    expect(await refs(admin, 'tab=upcoming&q=07700 900123')).toContain(metroRef);
    expect(await refs(admin, 'tab=upcoming&q=%2B44 7700 900456')).toContain(albionRef);
    expect(await refs(admin, 'tab=upcoming&q=%25')).toEqual([]);
    const filters = (await t.call('GET', '/operator/filters', undefined, as(admin))).body;
    const metroId = filters.companies.find((c: any) => c.company_name === 'Metro Cars London').id;
    const listed = await refs(admin, `tab=upcoming&company=${metroId}`);
    expect(listed).toContain(metroRef);
    expect(listed).not.toContain(albionRef);
    const mpv = filters.vehicles.find((v: any) => v.category_name === 'MPV').id;
    expect(await refs(admin, `tab=upcoming&vehicle=${mpv}&q=${metroRef}`)).toEqual([]);
    expect(await refs(admin, `tab=upcoming&status=confirmed&q=${metroRef}`)).toEqual([metroRef]);
    expect((await t.call('GET', '/operator/bookings?tab=soon', undefined, as(admin))).status).toBe(422);
    expect((await t.call('GET', '/operator/bookings?tab=today&status=lost', undefined, as(admin))).status).toBe(422);
  });

  it('sees a booking made through another server process on the same database (what the board polls is the database)', async () => {
    const other = await testApp({ db: t.db });
    const before = (await other.call('GET', '/operator/latest', undefined, as(admin))).body;
    // The session too is the database's: the cookie signed in through one process works on the other.
    const b = await book('Metro Cars London', GRACE);
    const seen = (await other.call('GET', '/operator/latest', undefined, as(admin))).body;
    expect(seen).toEqual({ latest_id: b.id, count: before.count + 1 });
    expect((await other.call('GET', `/operator/bookings?tab=upcoming&q=${b.booking_number}`, undefined, as(admin))).body.rows).toHaveLength(1);
  });

  it('puts a booking on Today on its UK day, and a new booking moves the newest id the board polls', async () => {
    const before = (await t.call('GET', '/operator/latest', undefined, as(admin))).body;
    const b = await book('Metro Cars London', OLIVER, bookingForm('2030-10-27', '1am'));
    const after = (await t.call('GET', '/operator/latest', undefined, as(admin))).body;
    expect(after.latest_id).toBe(b.id);
    expect(after.count).toBe(before.count + 1);
    t.clock.now = new Date('2030-10-26T23:30:00Z'); // 00:30 on the 27th in London (GMT from 02:00 BST that night)
    try {
      expect(await refs(admin, 'tab=today')).toContain(b.booking_number);
      expect(await refs(admin, 'tab=upcoming')).not.toContain(b.booking_number);
    } finally {
      t.clock.now = new Date();
    }
  });
});

describe("a booking's page and the office's actions", () => {
  let admin: string;
  beforeAll(async () => { admin = await signIn(ADMIN.email, ADMIN.password); });
  const page = async (ref: string) => (await t.call('GET', `/operator/bookings/${ref}`, undefined, as(admin))).body;

  it('shows every detail, the price lines, the payment and a timeline of what happened', async () => {
    const b = await book('Metro Cars London', OLIVER);
    const p = await page(b.booking_number);
    expect(p.booking.booking.booking_number).toBe(b.booking_number);
    expect(p.booking.passengerDetails).toMatchObject({ passenger_email: OLIVER.email, passenger_contact_no: '+447700900123' });
    expect(p.desk).toMatchObject({ status: 'confirmed', status_label: 'Confirmed', actions: ['assignDriver', 'cancel'], payment: { method: 'car', status: 'due_in_car', test: false, refundable: null } });
    expect(p.desk.breakdown.length).toBeGreaterThan(0);
    expect(p.timeline.map((e: any) => e.kind)).toEqual(['created', 'email', 'email']);
    const texts = p.timeline.slice(1).map((e: any) => `${e.text} [${e.detail}]`).sort();
    expect(texts).toEqual([
      expect.stringMatching(new RegExp(`^E-mail to bookings@albion-executive.co.uk \\(copy to dispatch@metrocars.london\\): New booking ${b.booking_number}: .* \\[pending\\]$`)),
      `E-mail to ${OLIVER.email}: Booking confirmed: ${b.booking_number} [pending]`,
    ]);
  });

  it('assigns a driver and car from the record, e-mails the passenger, and again when the driver changes', async () => {
    const b = await book('Metro Cars London', OLIVER);
    const dan = await recordDriverAndCar(t.db, 'Metro Cars London', { name: 'Dan Price' });
    const ana = await recordDriverAndCar(t.db, 'Metro Cars London', { name: 'Ana Costa' });
    const bad = await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, { driver_id: dan.driver_id }, as(admin));
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ field: 'car_id', message: 'Choose a car from the record.' });

    const ok = await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, as(admin));
    expect(ok.status).toBe(200);
    expect(ok.body.driver).toMatchObject({ name: 'Dan Price', vehicle: 'Mercedes-Benz E-Class', registration: dan.registration, colour: 'Black' });
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, ana, as(admin));
    const mails = await t.db.query<{ to_address: string; subject: string; body_text: string }>(
      "SELECT to_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'driver_assigned' ORDER BY id", [b.id]);
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([
      [OLIVER.email, `Your driver for ${b.booking_number}`], [OLIVER.email, `Your driver for ${b.booking_number}`],
    ]);
    for (const text of ['Dan Price', 'Black Mercedes-Benz E-Class', dan.registration]) expect(mails[0].body_text).toContain(text);
    expect(mails[1].body_text).toContain('Your driver has changed');
    expect(mails[1].body_text).toContain('Ana Costa');
    // And texted, each within two segments, with the office's number (issue 41 §3).
    const texts = await t.db.query<{ to_address: string; channel: string; body_text: string }>(
      "SELECT to_address, channel, body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'driver_assigned_sms' ORDER BY id", [b.id]);
    expect(texts.map((m) => [m.channel, m.to_address])).toEqual([['sms', '+447700900123'], ['sms', '+447700900123']]);
    expect(texts[0].body_text).toBe(`Albion Executive Cars: For ${b.booking_number} on ${formatDateLong(DATE)} 07:15 your driver is Dan Price, Black Mercedes-Benz E-Class, `
      + `reg ${dan.registration}. Questions? Call +44 20 7946 0321`);
    expect(texts[1].body_text).toMatch(/^Albion Executive Cars: your driver has changed\. .* Ana Costa, /);
    for (const m of texts) expect(smsLength(m.body_text).segments).toBeLessThanOrEqual(2);
    const audit = await t.db.query<{ action: string; staff_name: string; before: any; after: any }>(
      'SELECT action, staff_name, before, after FROM audit_log WHERE booking_id = $1 ORDER BY id', [b.id]);
    expect(audit.map((a) => a.action)).toEqual(['Driver assigned', 'Driver changed']);
    expect(audit[1]).toMatchObject({ staff_name: `${ADMIN.name} (${ADMIN.email})`, before: { name: 'Dan Price' }, after: { name: 'Ana Costa' } });
    const timeline = (await page(b.booking_number)).timeline;
    expect(timeline.filter((e: any) => e.kind === 'change').map((e: any) => [e.text, e.by])).toEqual([
      ['Driver assigned', `${ADMIN.name} (${ADMIN.email})`], ['Driver changed', `${ADMIN.name} (${ADMIN.email})`],
    ]);
  });

  it('marks completed or no-show only once the pickup time has come, and nothing after', async () => {
    const b = await book('Metro Cars London', OLIVER);
    const early = await t.call('POST', `/operator/bookings/${b.booking_number}/complete`, undefined, as(admin));
    expect(early.status).toBe(409);
    t.clock.now = new Date('2030-09-12T07:00:00Z'); // 08:00 in London, after the 07:15 pickup
    try {
      expect((await page(b.booking_number)).desk.actions).toEqual(['assignDriver', 'complete', 'noShow', 'cancel']);
      expect((await t.call('POST', `/operator/bookings/${b.booking_number}/no-show`, undefined, as(admin))).body.status).toBe('no_show');
      expect((await t.call('POST', `/operator/bookings/${b.booking_number}/complete`, undefined, as(admin))).status).toBe(409);
      expect((await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'late' }, as(admin))).status).toBe(409);
      expect((await page(b.booking_number)).desk).toMatchObject({ status: 'no_show', status_label: 'No-show', actions: [] });
    } finally {
      t.clock.now = new Date();
    }
  });

  it('cancels a pay-in-car booking with its reason, telling the passenger, the office and the company', async () => {
    const b = await book('Metro Cars London', OLIVER);
    const noReason = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: '  ' }, as(admin));
    expect(noReason.status).toBe(422);
    expect(noReason.body.field).toBe('reason');
    const res = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Flight cancelled by the airline' }, as(admin));
    expect(res.body).toEqual({ status: 'cancelled', refund: null });
    const mails = await t.db.query<{ kind: string; to_address: string; cc_address: string | null; subject: string; body_text: string }>(
      "SELECT kind, to_address, cc_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 AND kind IN ('booking_cancelled', 'booking_change_notice') ORDER BY id", [b.id]);
    expect(mails.map((m) => [m.kind, m.to_address, m.cc_address])).toEqual([
      ['booking_cancelled', OLIVER.email, null], ['booking_change_notice', 'bookings@albion-executive.co.uk', 'dispatch@metrocars.london'],
    ]);
    expect(mails[0].subject).toBe(`Booking cancelled: ${b.booking_number}`);
    expect(mails[0].body_text).toContain('Flight cancelled by the airline');
    expect(mails[0].body_text).toContain('Nothing is charged.');
    expect(mails[1].subject).toMatch(new RegExp(`^Booking cancelled: ${b.booking_number}, 12-09-2030`));
    expect(mails[1].body_text).toContain(`${TEST_SITE_URL}/operator/bookings/${b.booking_number}`);
    const res2 = await t.call('GET', `/operator/bookings?tab=cancelled&q=${b.booking_number}`, undefined, as(admin));
    expect(res2.body.rows.map((r: any) => r.status)).toEqual(['cancelled']);
  });

  it('refunds a card booking in full through the card provider, once, even when two dispatchers cancel at the same moment', async () => {
    const b = await bookByCard('Albion Executive Cars');
    const p = await page(b.booking_number);
    expect(p.desk.payment).toMatchObject({ method: 'card', status: 'paid', test: true, refundable: b.total_booking_amount });
    expect(p.desk.payment.charge_id).toMatch(/^ch_/);
    const second = await signIn(ADMIN.email, ADMIN.password);
    const [one, two] = await Promise.all([
      t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate booking', refund: 'yes' }, as(admin)),
      t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate booking', refund: 'yes' }, as(second)),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const won = one.status === 200 ? one : two;
    expect(won.body.refund).toMatchObject({ status: 'succeeded', providerId: expect.stringMatching(/^re_/) });
    // Pressed again: the same refund, not another.
    const again = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, as(admin));
    expect(again.body.refund).toEqual(won.body.refund);
    const refunds = await t.db.query<{ data: { amount: number } }>(
      "SELECT data FROM test_gateway_objects WHERE kind = 'refund' AND data->>'payment_intent' = (SELECT payment_intent_id FROM bookings WHERE id = $1)", [b.id]);
    expect(refunds.map((r) => r.data.amount)).toEqual([Math.round(Number(b.total_booking_amount) * 100)]);
    const after = await page(b.booking_number);
    expect(after.desk).toMatchObject({ status: 'cancelled', payment: { status: 'refunded' }, refund: { status: 'succeeded', amount: b.total_booking_amount } });
    const passenger = await t.db.query<{ body_text: string }>("SELECT body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_cancelled'", [b.id]);
    expect(passenger).toHaveLength(1);
    expect(passenger[0].body_text).toContain(`The £${b.total_booking_amount} paid is refunded to your card.`);
  });

  it('refunds the part entered, never more than was paid, and keeps the money when asked to', async () => {
    const b = await bookByCard('Metro Cars London');
    const tooMuch = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'No-show fee kept', refund: 'yes', refund_amount: '9999.00' }, as(admin));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ field: 'refund_amount', message: `The refund cannot be more than the £${b.total_booking_amount} paid.` });
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'x' }, as(admin))).body.field).toBe('refund');
    const res = await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Late cancellation', refund: 'yes', refund_amount: '10.50' }, as(admin));
    expect(res.status).toBe(200);
    expect((await page(b.booking_number)).desk).toMatchObject({ payment: { status: 'partially_refunded' }, refund: { amount: '10.50', status: 'succeeded' } });

    const kept = await bookByCard('Metro Cars London');
    expect((await t.call('POST', `/operator/bookings/${kept.booking_number}/cancel`, { reason: 'Cancelled inside 24 hours', refund: 'no' }, as(admin))).body.refund).toBeNull();
    expect((await page(kept.booking_number)).desk).toMatchObject({ payment: { status: 'paid' }, refund: null });
  });

  it('keeps a refund the provider could not make as failed, and Retry makes it once', async () => {
    const b = await bookByCard('Albion Executive Cars');
    const down: CardProvider = { ...(await import('./setup')).localCards(t.db), stripe: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const offline = await testApp({ db: t.db, cards: () => down });
    const cookie = (await offline.call('POST', '/operator/session', { email: ADMIN.email, password: ADMIN.password })).headers['set-cookie'].split(';')[0];
    const res = await offline.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Duplicate', refund: 'yes' }, as(cookie));
    expect(res.body.refund).toEqual({ status: 'failed', error: 'connect ECONNREFUSED' });
    expect((await page(b.booking_number)).desk.refund).toMatchObject({ status: 'failed', error: 'connect ECONNREFUSED' });
    const retried = await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, as(admin));
    expect(retried.body.refund.status).toBe('succeeded');
    await t.call('POST', `/operator/bookings/${b.booking_number}/refund`, undefined, as(admin));
    const refunds = await t.db.query("SELECT 1 FROM test_gateway_objects WHERE kind = 'refund' AND data->'metadata'->>'booking_id' = $1", [String(b.id)]);
    expect(refunds).toHaveLength(1);
  });

  it("marks a cancelled card booking with money left 'refund due' on the board, for the office and the company alike, until the office refunds it", async () => {
    const metro = await signIn(METRO.email, METRO.password);
    const rows = async (cookie: string, query: string) => (await t.call('GET', `/operator/bookings?${query}`, undefined, as(cookie))).body.rows as
      { booking_number: string; status: string; refund_due: boolean }[];
    const due = async (cookie: string, tab: string, ref: string) => (await rows(cookie, `tab=${tab}&q=${ref}`)).map((r) => [r.booking_number, r.status, r.refund_due]);
    const b = await bookByCard('Metro Cars London');
    expect(await due(admin, 'upcoming', b.booking_number)).toEqual([[b.booking_number, 'confirmed', false]]);
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Vehicle off the road' }, as(metro))).status).toBe(200);
    expect(await due(admin, 'cancelled', b.booking_number)).toEqual([[b.booking_number, 'cancelled', true]]);
    // The company's staff see it too (they cannot refund it: their page offers no Refund).
    expect(await due(metro, 'cancelled', b.booking_number)).toEqual([[b.booking_number, 'cancelled', true]]);
    expect((await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, as(metro))).body.desk.actions).toEqual([]);
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/refund-rest`, undefined, as(admin))).status).toBe(200);
    expect(await due(admin, 'cancelled', b.booking_number)).toEqual([[b.booking_number, 'cancelled', false]]);
    expect(await due(metro, 'cancelled', b.booking_number)).toEqual([[b.booking_number, 'cancelled', false]]);

    // Every cancelled booking of this file (refunded in full, in part, kept, failed then retried, paid in the car) is
    // marked as its own page says: a cancelled card booking with money left.
    const cancelled = await rows(admin, 'tab=cancelled');
    expect(cancelled.some((r) => r.refund_due)).toBe(true);
    for (const r of cancelled) {
      const { desk } = await page(r.booking_number);
      expect(r.refund_due, r.booking_number).toBe(desk.status === 'cancelled' && desk.payment.refundable !== null);
    }
  });
});

describe('the mail queue in the console', () => {
  it('lists failed messages with their errors, and Retry sends one again once', async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password);
    const b = await book('Albion Executive Cars', GRACE);
    await t.db.query("UPDATE outbound_emails SET status = 'failed', last_error = '550 mailbox unavailable', body_text = '', body_html = '', template_data = NULL WHERE booking_id = $1 AND kind = 'booking_confirmation'", [b.id]);
    const failed = (await t.call('GET', '/operator/emails?status=failed', undefined, as(admin))).body.emails as any[];
    const row = failed.find((m) => m.booking_number === b.booking_number);
    expect(row).toMatchObject({ to_address: GRACE.email, last_error: '550 mailbox unavailable' });
    expect((await t.call('POST', `/operator/emails/${row.id}/retry`, undefined, as(admin))).status).toBe(200);
    expect((await t.call('POST', `/operator/emails/${row.id}/retry`, undefined, as(admin))).status).toBe(409);
    const [now] = await t.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM outbound_emails WHERE id = $1', [row.id]);
    expect(now).toEqual({ status: 'pending', attempts: 0 });
    // Its body was erased when it failed (it held the booking's manage link): written again, with a new link that works.
    const [again] = await t.db.query<{ body_text: string; erase_after_send: boolean }>('SELECT body_text, erase_after_send FROM outbound_emails WHERE id = $1', [row.id]);
    const key = /#key=([\w-]{43})/.exec(again.body_text)![1];
    expect(again.erase_after_send).toBe(true);
    expect((await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': key })).status).toBe(200);
    // Sent as written again, not from the template it was first written as (issue 40).
    await t.mail.deliverDue();
    const sent = t.mailbox.sent.filter((m) => m.subject === `Booking confirmed: ${b.booking_number}`);
    expect(sent.at(-1)!.text).toContain(`#key=${key}`);
    expect((await t.call('GET', '/operator/emails?status=everything', undefined, as(admin))).status).toBe(422);
  });
});

describe('the export for the accounts', () => {
  it('is CSV in UTF-8, one row per booking in the range, amounts in pounds, UK dates', async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password);
    const b = await book('Metro Cars London', { ...OLIVER, first: '=HYPERLINK("x")', last: 'Smith, Jr' }, bookingForm('2030-11-03'));
    const res = await t.app.request('/api/v1/operator/export?from=2030-11-03&to=2030-11-03', { headers: { ...(await import('./setup')).KEYS, ...as(admin) } });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="bookings-2030-11-03-to-2030-11-03.csv"');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text.startsWith('\uFEFFbooking_number,pickup_date,')).toBe(true);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${b.booking_number},03/11/2030,07:15,confirmed,Transfer,`);
    expect(lines[1]).toContain(`,${b.total_booking_amount},`);
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"") Smith, Jr"`);
    expect((await t.call('GET', '/operator/export?from=2030-11-04&to=2030-11-03', undefined, as(admin))).body.field).toBe('to');
    expect((await t.call('GET', '/operator/export?from=yesterday&to=2030-11-03', undefined, as(admin))).body.field).toBe('from');
  });

  it('quotes what needs quoting and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+2')).toBe("'=1+2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(null)).toBe('');
    expect(phoneDigits('07700 900123')).toBe('447700900123');
    expect(phoneDigits('+44 7700 900123')).toBe('447700900123');
  });
});
