// The corporate account calls of SPEC 7: sign-in with a token, the passenger's
// bookings, the profile, token checks and logout; each acting only on the
// token's passenger, whatever id the request names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ENDED } from '../../src/domain/messages';
import { HEATHROW_TO_TRAFALGAR, TEST_SECURITY, testApp } from './setup';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { createPassenger } from '../../src/server/auth/passengers';
import { hashPassword } from '../../src/server/auth/passwords';

// The README's promise (Allowances: 'password checks'), written here as numbers, not read from the code.
const PER_EMAIL_AND_ADDRESS = 10;

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
async function signIn(email = DEMO_CORPORATE.email, password = DEMO_CORPORATE.password, from = '203.0.113.50') {
  return t.call('POST', '/check-passenger-login', { email, password }, { 'X-Forwarded-For': from });
}
async function account(email: string, password: string) {
  const id = await createPassenger(t.db, { name: 'Other Person', email, phone: '+44 20 7946 0999', passwordHash: await hashPassword(password, TEST_SECURITY.passwordHashCost) });
  const token = (await signIn(email, password)).body.access_token as string;
  return { id, token };
}

describe('signing in', () => {
  it('answers the demo corporate passenger with a token and the passenger (SPEC 8 message)', async () => {
    const res = await signIn();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true, message: 'Login Successfully', access_token: expect.stringMatching(/^[\w-]{43}$/),
      passenger: { passenger_id: expect.any(Number), passenger_name: 'Charlotte Davies', passenger_email: DEMO_CORPORATE.email, passenger_contact_no: DEMO_CORPORATE.phone },
    });
    // Only a hash is kept.
    const stored = JSON.stringify(await t.db.query('SELECT * FROM passenger_tokens'));
    expect(stored).not.toContain(res.body.access_token);
  });

  it('gives a new token on every sign-in', async () => {
    const [a, b] = [await signIn(), await signIn()];
    expect(a.body.access_token).not.toBe(b.body.access_token);
    for (const token of [a.body.access_token, b.body.access_token]) {
      expect((await t.call('POST', '/passenger/validate-token', undefined, bearer(token))).body).toEqual({ valid: true });
    }
  });

  it('answers a wrong password and an unknown e-mail alike: 401, "Invalid credentials. Please try again."', async () => {
    for (const res of [await signIn(DEMO_CORPORATE.email, 'wrong-password'), await signIn('nobody@example.com', 'whatever-1')]) {
      expect([res.status, res.body]).toEqual([401, { success: false, message: 'Invalid credentials. Please try again.' }]);
    }
  });

  it('limits guessing per e-mail and address without locking the owner out from another address', async () => {
    const email = 'guessed.corporate@example.com';
    await account(email, 'owner-pass-1');
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS; i++) await signIn(email, `guess-${i}`, '198.51.100.77');
    const blocked = await signIn(email, 'owner-pass-1', '198.51.100.77');
    expect([blocked.status, blocked.body.message]).toEqual([429, expect.stringContaining('Please wait 15 minutes')]);
    expect((await signIn(email, 'owner-pass-1', '203.0.113.51')).body.success).toBe(true);
  });
});

describe('the signed-in passenger', () => {
  let me: { token: string; id: number };
  beforeAll(async () => {
    const res = await signIn();
    me = { token: res.body.access_token, id: res.body.passenger.passenger_id };
  });

  it('lists their bookings newest first, of both types, with details, stops and passenger', async () => {
    const res = await t.call('GET', `/get_booking/${me.id}`, undefined, bearer(me.token));
    expect(res.status).toBe(200);
    const list = res.body as any[];
    expect(list.map((b) => b.ride_type)).toEqual(['H', 'Q', 'Q', 'H']);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    expect(list.some((b) => b.pick_up_date < today) && list.some((b) => b.pick_up_date > today)).toBe(true);
    const withStop = list.find((b) => b.booking_stops.length)!;
    expect(withStop).toMatchObject({
      booking_number: expect.stringMatching(/^BK-/), ride_type: 'Q', payment_method: 'car', total_booking_amount: '184.60',
      return_date: expect.any(String), return_time: '17:30', company_name: 'Thames Valley Chauffeurs', fleet_category: { category_name: 'Saloon' },
      booking_details: { meet_and_greet: 'no', vehicle_qty: 1 },
      booking_stops: [{ id: expect.any(Number), stop_address: 'Slough Station, Brunel Way, Slough', stop_post_code: 'SL1 1XW', stop_street_number: '' }],
      passenger_detail: { passenger_id: me.id, passenger_name: 'Charlotte Davies', total_passengers: 2 },
    });
    expect(list.find((b) => b.payment_method === 'card')).toMatchObject({ ride_type: 'H', hourly_duration: '6hour' });
  });

  it('refuses another passenger\'s id with 403 and shows nothing of theirs (get_booking and update-passenger)', async () => {
    const other = await account('other.corporate@example.com', 'other-pass-1');
    const peek = await t.call('GET', `/get_booking/${other.id}`, undefined, bearer(me.token));
    expect([peek.status, peek.body.success]).toEqual([403, false]);
    expect(JSON.stringify(peek.body)).not.toContain('other.corporate@example.com');
    const change = await t.call('PATCH', '/update-passenger', { name: 'Taken Over', email: 'evil@example.com', phone: '', passenger_id: other.id }, bearer(me.token));
    expect(change.status).toBe(403);
    const [row] = await t.db.query<any>('SELECT name, email FROM passengers WHERE id = $1', [other.id]);
    expect(row).toEqual({ name: 'Other Person', email: 'other.corporate@example.com' });
    // The other passenger's own token sees only their (empty) list.
    expect((await t.call('GET', `/get_booking/${other.id}`, undefined, bearer(other.token))).body).toEqual([]);
  });

  it('updates name, e-mail and phone only (SPEC 8 message), and refuses an e-mail another account has', async () => {
    await account('taken@example.com', 'taken-pass-1');
    const clash = await t.call('PATCH', '/update-passenger',
      { name: 'Charlotte Davies', email: 'TAKEN@example.com', phone: '', current_password: DEMO_CORPORATE.password }, bearer(me.token));
    expect([clash.status, clash.body.field, clash.body.message]).toEqual([422, 'email', 'This email is already used by another account.']);
    const blank = await t.call('PATCH', '/update-passenger', { name: ' ', email: DEMO_CORPORATE.email }, bearer(me.token));
    expect([blank.status, blank.body.field]).toEqual([422, 'name']);
    const ok = await t.call('PATCH', '/update-passenger',
      { name: 'Charlotte Davies-Hart', email: DEMO_CORPORATE.email, phone: '+44 20 7946 0188', passenger_id: me.id, password_hash: 'x' }, bearer(me.token));
    expect(ok.body).toEqual({
      success: true, message: 'Passenger Details Updated',
      passenger: { passenger_id: me.id, passenger_name: 'Charlotte Davies-Hart', passenger_email: DEMO_CORPORATE.email, passenger_contact_no: '+442079460188' },
    });
    expect((await signIn()).body.success).toBe(true);
  });

  it('reads the token only from a whole "Bearer <token>" header, any case and spacing, and names Authorization when it will not do', async () => {
    const list = (Authorization: string) => t.call('GET', `/get_booking/${me.id}`, undefined, { Authorization });
    expect((await list(`bearer   ${me.token}`)).status).toBe(200);
    for (const header of [`Bearer ${me.token} extra`, `NotBearer ${me.token}`, `Bearer ${me.token}x`, `Bearer x${me.token}`]) {
      const res = await list(header);
      expect([res.status, res.body.field, res.body.message], header).toEqual([401, 'Authorization', SESSION_ENDED]);
    }
  });

  it('answers 401 without a token, with a made-up one, and validate-token says valid: false', async () => {
    for (const headers of [{}, bearer('x'.repeat(43)), { Authorization: 'Basic abc' }]) {
      expect((await t.call('GET', `/get_booking/${me.id}`, undefined, headers)).status).toBe(401);
      expect((await t.call('PATCH', '/update-passenger', { name: 'A', email: 'a@example.com' }, headers)).status).toBe(401);
      expect((await t.call('POST', '/passenger/validate-token', undefined, headers)).body).toEqual({ valid: false });
    }
  });
});

describe('tokens end', () => {
  it('at logout', async () => {
    const { access_token: token, passenger } = (await signIn()).body;
    expect((await t.call('POST', '/passenger/logout', undefined, bearer(token))).body.success).toBe(true);
    expect((await t.call('POST', '/passenger/validate-token', undefined, bearer(token))).body).toEqual({ valid: false });
    expect((await t.call('GET', `/get_booking/${passenger.passenger_id}`, undefined, bearer(token))).status).toBe(401);
  });

  it('after 12 hours unused, and 30 days after sign-in however used', async () => {
    const valid = async (token: string) => (await t.call('POST', '/passenger/validate-token', undefined, bearer(token))).body.valid;
    const idle = (await signIn()).body.access_token;
    await t.db.query("UPDATE passenger_tokens SET last_used_at = now() - interval '12 hours 1 minute'");
    expect(await valid(idle)).toBe(false);
    const old = (await signIn()).body.access_token;
    await t.db.query("UPDATE passenger_tokens SET created_at = now() - interval '30 days 1 minute'");
    expect(await valid(old)).toBe(false);
    // Just inside both limits: still good, and each use restarts the idle clock.
    const fresh = (await signIn()).body.access_token;
    const justInside = "UPDATE passenger_tokens SET created_at = now() - interval '29 days', last_used_at = now() - interval '11 hours 59 minutes' WHERE created_at > now() - interval '1 minute'";
    await t.db.query(justInside);
    expect(await valid(fresh)).toBe(true);
    const [row] = await t.db.query<{ idle: boolean }>("SELECT last_used_at > now() - interval '1 minute' AS idle FROM passenger_tokens WHERE created_at = (SELECT max(created_at) FROM passenger_tokens)");
    expect(row.idle).toBe(true);
  });

  it('when the password is reset', async () => {
    const token = (await signIn()).body.access_token;
    await t.call('POST', '/auth/forgot-password', { email: DEMO_CORPORATE.email });
    await t.mail.deliverDue();
    const code = /reset code is (\d{6})/.exec(t.mailbox.sent.filter((m) => m.to === DEMO_CORPORATE.email).at(-1)!.text)![1];
    expect((await t.call('POST', '/auth/reset-password', { email: DEMO_CORPORATE.email, code, new_password: 'Changed-2026' })).status).toBe(200);
    expect((await t.call('POST', '/passenger/validate-token', undefined, bearer(token))).body).toEqual({ valid: false });
    expect((await signIn(DEMO_CORPORATE.email, 'Changed-2026')).body.success).toBe(true);
  });
});

describe('bookings that belong to a passenger', () => {
  const email = 'booker.corporate@example.com';
  let me: { id: number; token: string };
  let vehicle: any;
  beforeAll(async () => {
    me = await account(email, 'booker-pass-1');
    vehicle = (await t.call('POST', '/calculate-distance-price', HEATHROW_TO_TRAFALGAR)).body.price_details[0];
  });
  const request = (mode: string, registrationData: Record<string, unknown>) => ({
    selectedVehicleData: vehicle, bookingType: 'milleage', bookingForm: HEATHROW_TO_TRAFALGAR, payment_method: 'car',
    selected_passenger: mode, registrationData,
  });
  const listed = async () => ((await t.call('GET', `/get_booking/${me.id}`, undefined, bearer(me.token))).body as any[]).map((b) => b.booking_number);

  it('include one made as an existing client in the wizard', async () => {
    const res = await t.call('POST', '/booking', request('existing_client', { email, password: 'booker-pass-1' }));
    expect(res.status).toBe(200);
    expect(await listed()).toEqual([res.body.data.booking.booking_number]);
  });

  it('include one made while signed in, and a token that no longer works is a 401, not a guest booking', async () => {
    const res = await t.call('POST', '/booking', request('guest_login', { firstName: 'Booker', surname: 'Corp', number: '+44 770 090 099', email }), bearer(me.token));
    expect(res.status).toBe(200);
    expect(res.body.data.passengerDetails.passenger_id).toBe(me.id);
    expect((await listed())[0]).toBe(res.body.data.booking.booking_number);
    const ended = await t.call('POST', '/booking', request('guest_login', { firstName: 'B', surname: 'C', number: '+44 770 090 099', email }), bearer('y'.repeat(43)));
    expect(ended.status).toBe(401);
  });
});
