// Issue 24, 'Accounts': what a stolen token, a flood of sign-ups, a replayed Idempotency-Key and an address-guessing
// script can no longer do. The limits are the README's numbers, asserted as numbers (DEFAULT_LIMITS is what runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PADDINGTON_TO_HEATHROW, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { hashing } from '../../src/server/auth/passwords';

/** The answer that made a booking carries its "Manage your booking" key (issue 27); a replay, or a read, never does. */
function withoutKey<T extends { manage_key?: string }>(data: T): Omit<T, 'manage_key'> {
  expect(data.manage_key).toMatch(/^[\w-]{43}$/);
  const { manage_key: _key, ...rest } = data;
  return rest;
}
import { RESET_EMAIL_NOT_FOUND } from '../../src/domain/messages';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp({ limits: DEFAULT_LIMITS }); });
afterAll(async () => { await t.db.close(); });

const from = (address: string) => ({ 'X-Forwarded-For': address });
const bearer = (token: string, address = '203.0.113.10') => ({ Authorization: `Bearer ${token}`, ...from(address) });

async function signIn(email = DEMO_CORPORATE.email, password = DEMO_CORPORATE.password) {
  const res = await t.call('POST', '/check-passenger-login', { email, password }, from('203.0.113.10'));
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

const bookingForm = PADDINGTON_TO_HEATHROW;
let saloon: unknown;
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  saloon = body.price_details.find((p: any) => p.vehicle_type === 'Saloon');
});
const booking = (mode: string, registrationData: Record<string, unknown>) => ({
  selectedVehicleData: saloon, selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null,
  registrationData, payment_method: 'car', selected_passenger: mode,
});
const newClient = (email: string) => booking('new_client', {
  firstName: 'Nora', surname: 'Quinn', number: '+44 791 123 456', email, password: 'nora-secret-1', privacyAccepted: true, termsAccepted: true,
});

describe('changing the e-mail of an account', () => {
  it('needs the current password: a token alone is refused, and a wrong password is counted and refused', async () => {
    const token = await signIn();
    const change = { name: DEMO_CORPORATE.name, email: 'attacker@example.net', phone: '' };
    const none = await t.call('PATCH', '/update-passenger', change, bearer(token));
    expect([none.status, none.body.field, none.body.message]).toEqual([422, 'current_password', 'Enter your current password to change your e-mail.']);
    const wrong = await t.call('PATCH', '/update-passenger', { ...change, current_password: 'guess-1' }, bearer(token));
    expect([wrong.status, wrong.body.field, wrong.body.message]).toEqual([422, 'current_password', 'Your current password is not correct.']);
    const [{ email }] = await t.db.query<{ email: string }>('SELECT email FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
    expect(email).toBe(DEMO_CORPORATE.email);
    // The wrong password counted as a sign-in attempt of that account from that address.
    const [row] = await t.db.query<{ attempts: number }>(
      "SELECT attempts FROM auth_throttle WHERE scope = 'pair' AND email = $1 AND client = '203.0.113.10'", [DEMO_CORPORATE.email]);
    expect(row.attempts).toBeGreaterThanOrEqual(1);
  });

  it('keeps name and phone changes free of the password, and the same address in other capitals is no change', async () => {
    const token = await signIn();
    const res = await t.call('PATCH', '/update-passenger',
      { name: 'Charlotte Davies', email: DEMO_CORPORATE.email.toUpperCase(), phone: '+44 20 7946 0018' }, bearer(token));
    expect(res.status).toBe(200);
    expect(await t.db.query("SELECT 1 FROM outbound_emails WHERE kind = 'email_changed'")).toEqual([]);
    expect((await t.call('POST', '/passenger/validate-token', {}, bearer(token))).body.valid).toBe(true);
    await t.call('PATCH', '/update-passenger', { name: 'Charlotte Davies', email: DEMO_CORPORATE.email, phone: '' }, bearer(token));
  });

  it('with the password: tells the old address, ends every other session, and keeps this one', async () => {
    const other = await signIn();
    const mine = await signIn();
    const res = await t.call('PATCH', '/update-passenger',
      { name: DEMO_CORPORATE.name, email: 'c.davies@northbridge.example', phone: '', current_password: DEMO_CORPORATE.password }, bearer(mine));
    expect([res.status, res.body.passenger.passenger_email]).toEqual([200, 'c.davies@northbridge.example']);
    const [told] = await t.db.query<{ to_address: string; body_text: string }>(
      "SELECT to_address, body_text FROM outbound_emails WHERE kind = 'email_changed'");
    expect(told.to_address).toBe(DEMO_CORPORATE.email);
    expect(told.body_text).toContain('Your e-mail was changed to c.davies@northbridge.example. If this was not you, call us on');
    const valid = async (token: string) => (await t.call('POST', '/passenger/validate-token', {}, bearer(token))).body.valid;
    expect([await valid(other), await valid(mine)]).toEqual([false, true]);
    // Back, for the tests after this one.
    await t.call('PATCH', '/update-passenger',
      { name: DEMO_CORPORATE.name, email: DEMO_CORPORATE.email, phone: '', current_password: DEMO_CORPORATE.password }, bearer(mine));
  });
});

describe('new accounts', () => {
  it('refuses an e-mail that has an account before hashing anything', async () => {
    const before = hashing.started;
    const res = await t.call('POST', '/booking', newClient(DEMO_CORPORATE.email), from('198.51.100.1'));
    expect([res.status, res.body.field]).toEqual([422, 'registrationData.email']);
    expect(hashing.started).toBe(before);
  });

  it('makes 5 accounts an hour from one address; the 6th is a 429 with Retry-After, hashed nothing, and another address goes on', async () => {
    for (let i = 1; i <= 5; i++) {
      expect((await t.call('POST', '/booking', newClient(`nora${i}@example.com`), from('198.51.100.2'))).status).toBe(200);
    }
    const before = hashing.started;
    const sixth = await t.call('POST', '/booking', newClient('nora6@example.com'), from('198.51.100.2'));
    expect([sixth.status, sixth.body.field]).toEqual([429, 'registrationData.email']);
    expect(sixth.body.message).toContain('Too many accounts were created from your network');
    expect(hashing.started).toBe(before);
    expect(await t.db.query('SELECT 1 FROM passengers WHERE email = $1', ['nora6@example.com'])).toEqual([]);
    expect((await t.call('POST', '/booking', newClient('nora6@example.com'), from('198.51.100.3'))).status).toBe(200);
  });

  it('counts 50 sign-ups sent at once from one address exactly: 5 accounts, 45 refusals, never a 500', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      t.call('POST', '/booking', newClient(`burst${i}@example.com`), from('198.51.100.4'))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45);
  });
});

describe('a replayed Idempotency-Key', () => {
  it('answers an existing client only with the right password: a wrong one is a 401 that shows nothing', async () => {
    const request = booking('existing_client', { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password });
    const first = await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-existing', ...from('198.51.100.20') });
    expect(first.status).toBe(200);
    const stolen = { ...request, registrationData: { email: DEMO_CORPORATE.email, password: 'not-the-password' } };
    const replay = await t.call('POST', '/booking', stolen, { 'Idempotency-Key': 'replay-existing', ...from('198.51.100.21') });
    expect(replay.status).toBe(401);
    expect(JSON.stringify(replay.body)).not.toMatch(/Charlotte|northbridge|7946|BK-/i);
    const again = await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-existing', ...from('198.51.100.20') });
    expect(again.body.data).toEqual(withoutKey(first.body.data));
  });

  it('answers a new client only with the password of the account it made', async () => {
    const request = newClient('replay.new@example.com');
    const first = await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-new', ...from('198.51.100.22') });
    expect(first.status).toBe(200);
    const wrong = { ...request, registrationData: { ...request.registrationData, password: 'other-pass-9' } };
    expect((await t.call('POST', '/booking', wrong, { 'Idempotency-Key': 'replay-new', ...from('198.51.100.22') })).status).toBe(401);
    expect((await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-new', ...from('198.51.100.22') })).body.data)
      .toEqual(withoutKey(first.body.data));
  });

  it('answers a corporate booking only to its own token, not without one nor with another passenger\'s', async () => {
    const token = await signIn();
    const request = booking('guest_login', { firstName: 'Charlotte', surname: 'Davies', number: '+44 20 7946 0018', email: DEMO_CORPORATE.email });
    const first = await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-token', ...bearer(token) });
    expect(first.status).toBe(200);
    const guest = await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-token', ...from('198.51.100.23') });
    expect(guest.status).not.toBe(200);
    expect(JSON.stringify(guest.body)).not.toMatch(/Charlotte|northbridge/i);
    expect((await t.call('POST', '/booking', request, { 'Idempotency-Key': 'replay-token', ...bearer(token) })).body.data)
      .toEqual(withoutKey(first.body.data));
  });
});

describe('account look-ups (forgot password, verify code)', () => {
  it('answers the SPEC message 10 times an hour per address, then 429; look-ups that find an account do not count', async () => {
    const address = from('198.51.100.30');
    for (let i = 0; i < 3; i++) {
      expect((await t.call('POST', '/auth/forgot-password', { email: DEMO_CORPORATE.email }, address)).status).toBe(200);
    }
    for (let i = 1; i <= 10; i++) {
      const call = i % 2 ? '/auth/forgot-password' : '/auth/verify-code';
      const res = await t.call('POST', call, { email: `nobody${i}@example.com`, code: '123456' }, address);
      expect([res.status, res.body.message]).toEqual([404, RESET_EMAIL_NOT_FOUND]);
    }
    const eleventh = await t.call('POST', '/auth/forgot-password', { email: 'nobody11@example.com' }, address);
    expect([eleventh.status, eleventh.body.field]).toEqual([429, 'email']);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(3500);
    expect((await t.call('POST', '/auth/verify-code', { email: 'nobody12@example.com', code: '123456' }, address)).status).toBe(429);
    expect((await t.call('POST', '/auth/forgot-password', { email: 'nobody13@example.com' }, from('198.51.100.31'))).status).toBe(404);
  });

  it('counts 60 look-ups sent at once exactly: 10 answers, 50 refusals', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      t.call('POST', '/auth/forgot-password', { email: `crowd${i}@example.com` }, from('198.51.100.32'))));
    expect(answers.filter((a) => a.status === 404)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(50);
  });
});
