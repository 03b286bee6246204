// Issue 41 §2 through the API: a driver signs in with their mobile and a texted code (10 minutes, 5 tries, one use,
// the same answer for any number), sees only their own jobs, and moves each through its steps in order, each step on
// the booking's timeline with its texts to the passenger; a declined job goes back to the office; a cancelled or
// re-assigned one is told to the driver; a driver made inactive is signed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, recordDriverAndCar, testApp } from './setup';
import { bookForDriver, codeFor as codeForDriver, signedInDriver as signedInDriverOf, stepAs } from './driverHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { CODE_ANSWER_MS, DRIVER_MESSAGES } from '../../src/server/driver/signIn';
import { purgeExpiredRecords } from '../../src/server/operator/retention';
import { DEFAULT_LIMITS } from '../../src/server/limits';

let t: Awaited<ReturnType<typeof testApp>>;
let office: Record<string, string>;
beforeAll(async () => {
  t = await testApp();
  const res = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
  office = { Cookie: res.headers['set-cookie'].split(';')[0] };
});
afterAll(async () => { await t.db.close(); });

const DATE = '2030-10-03';
const book = async (date = DATE) => bookForDriver(t, date);
const codeFor = (mobile: string) => codeForDriver(t, mobile);
const signedInDriver = (name: string) => signedInDriverOf(t, name);
const step = (ref: string, status: string, who: { cookie: Record<string, string> }) => stepAs(t, ref, status, who);
const texts = (bookingId: number, kind: string) => t.db.query<{ to_address: string; body_text: string }>(
  "SELECT to_address, body_text FROM outbound_emails WHERE channel = 'sms' AND booking_id = $1 AND kind = $2 ORDER BY id", [bookingId, kind]);

describe("a driver's sign-in", () => {
  it('texts a code to a driver, and answers any UK mobile the same; a landline is refused naming the field', async () => {
    const crew = await recordDriverAndCar(t.db, 'Albion Executive Cars');
    const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
    // Both answers take CODE_ANSWER_MS at least: the work done for a driver's number cannot be timed.
    let at = performance.now();
    const known = await t.call('POST', '/driver/code', { mobile: `0${mobile.slice(3)}` });
    expect(performance.now() - at).toBeGreaterThanOrEqual(CODE_ANSWER_MS - 5);
    at = performance.now();
    const unknown = await t.call('POST', '/driver/code', { mobile: '07700 900987' });
    expect(performance.now() - at).toBeGreaterThanOrEqual(CODE_ANSWER_MS - 5);
    expect(known).toEqual({ status: 200, body: { message: DRIVER_MESSAGES.codeSent } });
    expect(unknown).toEqual(known);
    expect(await t.db.query("SELECT 1 FROM outbound_emails WHERE to_address = '+447700900987'")).toEqual([]);
    const [text] = await t.db.query<{ body_text: string; erase_after_send: boolean }>(
      "SELECT body_text, erase_after_send FROM outbound_emails WHERE kind = 'driver_sign_in_code' AND to_address = $1", [mobile]);
    expect(text.body_text).toMatch(/^\d{6} is your Albion Executive Cars driver code\. It works for 10 minutes\. Never share it\.$/);
    expect(text.erase_after_send).toBe(true);
    expect(await t.call('POST', '/driver/code', { mobile: '020 7946 0321' })).toEqual({ status: 422, body: expect.objectContaining({ field: 'mobile', message: DRIVER_MESSAGES.mobile }) });
  });

  it('takes the newest code once, within 5 tries; a wrong, old or used code is refused naming the field', async () => {
    const crew = await recordDriverAndCar(t.db, 'Albion Executive Cars', { name: 'Tries Driver' });
    const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
    await t.call('POST', '/driver/code', { mobile });
    const first = await codeFor(mobile);
    await t.call('POST', '/driver/code', { mobile });
    const second = await codeFor(mobile);
    const wrong = second === '000000' ? '111111' : '000000';
    for (const code of ['abc', '12345', '1234567', 'x123456', '123456x']) {
      expect(await t.call('POST', '/driver/session', { mobile, code }), String(code)).toMatchObject({ status: 422, body: { field: 'code', message: DRIVER_MESSAGES.codeShape } });
    }
    if (first !== second) expect((await t.call('POST', '/driver/session', { mobile, code: first })).body).toMatchObject({ field: 'code', message: DRIVER_MESSAGES.codeWrong });
    for (let i = first !== second ? 1 : 0; i < 4; i++) {
      expect((await t.call('POST', '/driver/session', { mobile, code: wrong })).body.message).toBe(DRIVER_MESSAGES.codeWrong);
    }
    // The fifth try is the last: the right code now is refused too.
    expect((await t.call('POST', '/driver/session', { mobile, code: wrong })).body.message).toBe(DRIVER_MESSAGES.codeWrong);
    expect((await t.call('POST', '/driver/session', { mobile, code: second })).body).toMatchObject({ field: 'code', message: DRIVER_MESSAGES.codeGone });
    // A new code works once.
    await t.call('POST', '/driver/code', { mobile });
    const third = await codeFor(mobile);
    // Typed as the text spaces it, or with spaces of the phone's own: the same code.
    const ok = await t.call('POST', '/driver/session', { mobile, code: ` ${third.slice(0, 3)}  ${third.slice(3)} ` });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ driver: { name: 'Tries Driver', company_name: 'Albion Executive Cars' } });
    expect(ok.headers['set-cookie']).toMatch(/^driver_session=[\w-]{43}; Max-Age=2592000; Path=\/api\/v1\/driver; HttpOnly; SameSite=Strict$/);
    expect((await t.call('POST', '/driver/session', { mobile, code: third })).body.message).toBe(DRIVER_MESSAGES.codeGone);
  });

  it('signs a driver out everywhere, and spends their code, when the office changes their mobile (a lost phone)', async () => {
    const a = await signedInDriver('Lost Phone Driver');
    await t.call('POST', '/driver/code', { mobile: a.mobile });
    const [company] = await t.db.query<{ id: number }>("SELECT id FROM companies WHERE company_name = 'Albion Executive Cars'");
    const [rec] = await t.db.query<{ licence_number: string }>('SELECT licence_number FROM drivers WHERE id = $1', [a.driver_id]);
    const saved = await t.call('POST', '/operator/data', { change: {
      kind: 'driver', id: a.driver_id, name: 'Lost Phone Driver', mobile: '07800 123987', email: '', licence_number: rec.licence_number,
      licensing_authority: 'Transport for London', licence_expiry: '2035-12-31', company_id: company.id, active: 'yes',
    } }, office);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await t.call('GET', '/driver/jobs', undefined, a.cookie)).status).toBe(401);
    expect(await t.db.query('SELECT 1 FROM driver_codes WHERE driver_id = $1 AND used_at IS NULL', [a.driver_id])).toEqual([]);
  });

  it('leaves the records: codes after a day, sessions once ended by 30 days unused', async () => {
    const a = await signedInDriver('Purged Driver');
    await t.db.query("UPDATE driver_codes SET created_at = now() - interval '25 hours' WHERE driver_id = $1", [a.driver_id]);
    await t.call('POST', '/driver/code', { mobile: a.mobile });
    await t.db.query("INSERT INTO driver_sessions (token_hash, driver_id, last_used_at) VALUES ('old-session', $1, now() - interval '31 days')", [a.driver_id]);
    const removed = await purgeExpiredRecords(t.db);
    expect(removed.driver_codes).toBeGreaterThanOrEqual(1);
    expect(await t.db.query('SELECT 1 FROM driver_codes WHERE driver_id = $1', [a.driver_id])).toHaveLength(1);
    expect(await t.db.query('SELECT token_hash FROM driver_sessions WHERE driver_id = $1', [a.driver_id])).toHaveLength(1);
    expect((await t.call('GET', '/driver/jobs', undefined, a.cookie)).status).toBe(200);
  });

  it('ends a session 90 days after its sign-in, however often it is used', async () => {
    const a = await signedInDriver('Old Session Driver');
    await t.db.query("UPDATE driver_sessions SET created_at = now() - interval '91 days' WHERE driver_id = $1", [a.driver_id]);
    expect((await t.call('GET', '/driver/jobs', undefined, a.cookie)).status).toBe(401);
  });

  it('refuses an expired code', async () => {
    const crew = await recordDriverAndCar(t.db, 'Albion Executive Cars');
    const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
    await t.call('POST', '/driver/code', { mobile });
    await t.db.query("UPDATE driver_codes SET expires_at = now() - interval '1 second' WHERE driver_id = $1", [crew.driver_id]);
    expect((await t.call('POST', '/driver/session', { mobile, code: await codeFor(mobile) })).body.message).toBe(DRIVER_MESSAGES.codeGone);
  });

  it('texts 5 codes a mobile and 10 a network an hour, whoever the mobile is, then refuses naming the field', async () => {
    const limited = await testApp({ limits: DEFAULT_LIMITS });
    try {
      const from = (ip: string) => ({ 'X-Forwarded-For': ip });
      const mobile = '+447700900901';
      for (let i = 0; i < DEFAULT_LIMITS.driverCodesPerMobile.max; i++) {
        expect((await limited.call('POST', '/driver/code', { mobile }, from(`198.51.100.${i + 1}`))).status).toBe(200);
      }
      expect(await limited.call('POST', '/driver/code', { mobile }, from('198.51.100.99'))).toMatchObject({
        status: 429, body: { field: 'mobile', message: DEFAULT_LIMITS.driverCodesPerMobile.message },
      });
      for (let i = 0; i < DEFAULT_LIMITS.driverCodes.max; i++) {
        expect((await limited.call('POST', '/driver/code', { mobile: `+4477009002${String(i).padStart(2, '0')}` }, from('203.0.113.7'))).status).toBe(200);
      }
      expect(await limited.call('POST', '/driver/code', { mobile: '+447700900299' }, from('203.0.113.7'))).toMatchObject({
        status: 429, body: { field: 'mobile', message: DEFAULT_LIMITS.driverCodes.message },
      });
    } finally {
      await limited.db.close();
    }
    // Each code's answer takes at least 400 ms (CODE_ANSWER_MS): 17 of them, on a machine that may be busy.
  }, 90_000);

  it('sets its cookie Secure when the driver signs in over HTTPS', async () => {
    const crew = await recordDriverAndCar(t.db, 'Albion Executive Cars', { name: 'Secure Driver' });
    const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
    await t.call('POST', '/driver/code', { mobile });
    const res = await t.app.request('https://bookings.example.co.uk/api/v1/driver/session', {
      method: 'POST', headers: { ...KEYS, 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, code: await codeFor(mobile) }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^driver_session=[\w-]{43}; Max-Age=2592000; Path=\/api\/v1\/driver; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('keeps a session per device until sign-out, and ends every one when the office makes the driver inactive', async () => {
    const a = await signedInDriver('Session Driver');
    expect((await t.call('GET', '/driver/session', undefined, a.cookie)).body).toEqual({ driver: { name: 'Session Driver', company_name: 'Albion Executive Cars' } });
    expect((await t.call('GET', '/driver/jobs')).status).toBe(401);
    await t.call('POST', '/driver/code', { mobile: a.mobile });
    const second = await t.call('POST', '/driver/session', { mobile: a.mobile, code: await codeFor(a.mobile) });
    const other = { Cookie: second.headers['set-cookie'].split(';')[0] };
    const out = await t.call('DELETE', '/driver/session', undefined, a.cookie);
    expect([out.status, out.body]).toEqual([200, { signedOut: true }]);
    expect(out.headers['set-cookie']).toMatch(/^driver_session=; Max-Age=0; Path=\/api\/v1\/driver/);
    expect((await t.call('GET', '/driver/jobs', undefined, a.cookie)).status).toBe(401);
    // A cookie that is not a session's, or a session's with more or less to it, signs nobody in.
    const token = a.cookie.Cookie.split('=')[1];
    for (const bad of ['x', `${token}x`, token.slice(1), `.${token.slice(1)}`]) {
      expect((await t.call('GET', '/driver/jobs', undefined, { Cookie: `driver_session=${bad}` })).status, bad).toBe(401);
    }
    expect((await t.call('GET', '/driver/jobs', undefined, other)).status).toBe(200);
    const [company] = await t.db.query<{ id: number }>("SELECT id FROM companies WHERE company_name = 'Albion Executive Cars'");
    const saved = await t.call('POST', '/operator/data', { change: {
      kind: 'driver', id: a.driver_id, name: 'Session Driver', mobile: a.mobile, email: '', licence_number: `T${100000 + Number(a.driver_id)}`,
      licensing_authority: 'Transport for London', licence_expiry: '2035-12-31', company_id: company.id, active: 'no',
    } }, office);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await t.call('GET', '/driver/jobs', undefined, other)).status).toBe(401);
    expect(await t.db.query('SELECT 1 FROM driver_sessions WHERE driver_id = $1', [a.driver_id])).toEqual([]);
  });
});

describe("a driver's jobs", () => {
  it('are the bookings dispatched to them, with what a driver needs and no other price than what to collect', async () => {
    const dan = await signedInDriver('Jobs Driver');
    const b = await book();
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office)).status).toBe(200);
    const { jobs } = (await t.call('GET', '/driver/jobs', undefined, dan.cookie)).body;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      reference: b.booking_number, status: 'assigned', steps: ['accepted', 'declined'], cancelled: false, pickup_date: DATE, pickup_time: '07:15',
      pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN', passengers: 2,
      passenger_phone: '+447700900456', notes: 'Two large cases', collect: expect.stringMatching(/^£\d+\.\d\d$/),
      vehicle: 'Saloon', car: `Black Mercedes-Benz E-Class, ${dan.registration}`,
    });
    expect(Object.keys(jobs[0])).not.toContain('price_breakdown');
    // The driver heard of it by text, with the link to their page.
    const [job] = await texts(b.id, 'driver_job');
    expect(job).toEqual({ to_address: dan.mobile, body_text: expect.stringMatching(new RegExp(`^Albion Executive Cars: New job ${b.booking_number}: .* 07:15, Heathrow Airport Terminal 5 -> Trafalgar Square\\. Open it: https://bookings\\.example\\.co\\.uk/driver$`)) });
  });

  it('show the sign, the luggage and the extras as booked, what to collect only when paid in the car, and when a No-show may be tapped', async () => {
    const dan = await signedInDriver('Detail Driver');
    const b = await book();
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office)).status).toBe(200);
    // Opened by its reference as typed, in any case.
    const job = async () => (await t.call('GET', `/driver/jobs/${b.booking_number.toLowerCase()}`, undefined, dan.cookie)).body.job;
    expect(await job()).toMatchObject({ luggage: '1 suitcase, 0 hand luggage', extras: [], sign: null, finished: false, no_show_from: null });
    await t.db.query(`UPDATE booking_details SET meet_and_greet = 'yes', sign_text = '  Dr G. Hopper ', baby_seat = 2, special_luggages = 1,
                        luggages = 2, hand_luggages = 1 WHERE booking_id = $1`, [b.id]);
    expect(await job()).toMatchObject({
      sign: 'Dr G. Hopper', luggage: '2 suitcases, 1 hand luggage, 1 special',
      extras: ['Meet and Greet', '2 baby seats', '1 special luggage item'],
    });
    // No sign text: the sign shows the passenger's name.
    await t.db.query('UPDATE booking_details SET sign_text = NULL WHERE booking_id = $1', [b.id]);
    const named = await job();
    expect(named.sign).toBe(named.passenger_name);
    expect(named.sign).toMatch(/^Grace Hopper\d+$/);
    // Paid on account: nothing for the driver to collect, and no other price.
    await t.db.query("UPDATE bookings SET payment_method = 'account' WHERE id = $1", [b.id]);
    expect((await job()).collect).toBeNull();
    await t.db.query("UPDATE bookings SET payment_method = 'car' WHERE id = $1", [b.id]);
    for (const s of ['accepted', 'on_way']) expect((await step(b.booking_number, s, dan)).body.job.no_show_from).toBeNull();
    const arrived = (await step(b.booking_number, 'arrived', dan)).body.job;
    const [{ minutes, at }] = await t.db.query<{ minutes: number; at: Date }>(
      'SELECT d.free_waiting_minutes AS minutes, b.arrived_at AS at FROM booking_details d JOIN bookings b ON b.id = d.booking_id WHERE b.id = $1', [b.id]);
    expect(arrived.no_show_from).toBe(new Date(new Date(at).getTime() + minutes * 60_000).toISOString());
    expect((await step(b.booking_number, 'on_board', dan)).body.job).toMatchObject({ no_show_from: null, finished: false });
  });

  it("are their own: another driver's job is not found, and its steps change nothing", async () => {
    const dan = await signedInDriver('Own Driver');
    const eve = await signedInDriver('Other Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, eve.cookie))).toMatchObject({ status: 404, body: { message: `No job ${b.booking_number} of yours.` } });
    expect((await step(b.booking_number, 'accepted', eve)).status).toBe(404);
    expect((await t.call('GET', '/driver/jobs', undefined, eve.cookie)).body.jobs).toEqual([]);
    const [row] = await t.db.query<{ job_status: string }>('SELECT job_status FROM bookings WHERE id = $1', [b.id]);
    expect(row.job_status).toBe('assigned');
  });

  it('move through the day in order, each step on the timeline, the passenger texted at On my way, Arrived and Completed', async () => {
    const dan = await signedInDriver('Day Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    // Out of order: refused, nothing changed.
    const early = await step(b.booking_number, 'completed', dan);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/Completed cannot be tapped now/);
    for (const [status, steps] of [['accepted', ['on_way']], ['on_way', ['arrived']], ['arrived', ['on_board']], ['on_board', ['completed']]] as const) {
      const res = await step(b.booking_number, status, dan);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.job).toMatchObject({ status, steps });
    }
    expect((await step(b.booking_number, 'accepted', dan)).status).toBe(409);
    expect((await step(b.booking_number, 'completed', dan)).body.job).toMatchObject({ status: 'completed', finished: true, steps: [] });
    const [booking] = await t.db.query<{ status: string; completed_at: Date | null }>('SELECT status, completed_at FROM bookings WHERE id = $1', [b.id]);
    expect(booking.status).toBe('completed');
    const timeline = (await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, office)).body.timeline;
    expect(timeline.filter((e: any) => e.text.startsWith('Driver:')).map((e: any) => [e.text, e.by])).toEqual([
      ['Driver: Accept', 'Day Driver (driver)'], ['Driver: On my way', 'Day Driver (driver)'], ['Driver: Arrived', 'Day Driver (driver)'],
      ['Driver: Passenger on board', 'Day Driver (driver)'], ['Driver: Completed', 'Day Driver (driver)'],
    ]);
    // Each text is listed on the console's Mail page by its step and booking.
    const labels = await t.db.query<{ subject: string }>(
      "SELECT subject FROM outbound_emails WHERE booking_id = $1 AND kind IN ('driver_on_way', 'driver_arrived', 'journey_completed') ORDER BY id", [b.id]);
    expect(labels.map((m) => m.subject)).toEqual([`On my way: ${b.booking_number}`, `Arrived: ${b.booking_number}`, `Completed: ${b.booking_number}`]);
    const [onWay] = await texts(b.id, 'driver_on_way');
    expect(onWay.to_address).toBe('+447700900456');
    expect(onWay.body_text).toMatch(new RegExp(`^Albion Executive Cars: Day Driver is on the way to your pickup for ${b.booking_number}\\. Follow the car: https://bookings\\.example\\.co\\.uk/manage/${b.booking_number}#key=[\\w-]{43} Questions\\? Call \\+44 20 7946 0321$`));
    // Texts holding a key of the booking's page are erased once sent; the one without a link is kept.
    const erased = await t.db.query<{ kind: string; erase_after_send: boolean }>(
      "SELECT kind, erase_after_send FROM outbound_emails WHERE booking_id = $1 AND kind IN ('driver_on_way', 'driver_arrived', 'journey_completed') ORDER BY id", [b.id]);
    expect(erased).toEqual([
      { kind: 'driver_on_way', erase_after_send: true }, { kind: 'driver_arrived', erase_after_send: false }, { kind: 'journey_completed', erase_after_send: true },
    ]);
    // The link opens the booking's page.
    const key = /#key=([\w-]{43})/.exec(onWay.body_text)![1];
    expect((await t.call('GET', `/manage/${b.booking_number}`, undefined, { 'X-Manage-Key': key })).status).toBe(200);
    // The number was typed by whoever booked: none of these texts carries text they typed (the pickup address).
    for (const kind of ['driver_assigned_sms', 'driver_on_way', 'driver_arrived', 'journey_completed']) {
      for (const m of await texts(b.id, kind)) expect(m.body_text, kind).not.toMatch(/Heathrow|Trafalgar/);
    }
    expect((await texts(b.id, 'driver_arrived'))[0].body_text).toMatch(/your driver Day Driver is at the pickup point for BK-\w+\. Questions\? Call /);
    expect((await texts(b.id, 'journey_completed'))[0].body_text).toMatch(/thank you for travelling with us\. Your receipt for BK-\w+: https:\/\/bookings\.example\.co\.uk\/manage\//);
  });

  it('takes a No-show only once the free waiting time since Arrived has passed', async () => {
    const dan = await signedInDriver('Wait Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    for (const s of ['accepted', 'on_way', 'arrived']) expect((await step(b.booking_number, s, dan)).status).toBe(200);
    const [{ minutes }] = await t.db.query<{ minutes: number }>('SELECT free_waiting_minutes AS minutes FROM booking_details WHERE booking_id = $1', [b.id]);
    expect(minutes).toBeGreaterThan(0);
    const refused = await step(b.booking_number, 'no_show', dan);
    expect(refused).toMatchObject({ status: 409, body: { message: expect.stringMatching(/^The passenger has free waiting time: No-show can be tapped in \d+ minutes?\.$/) } });
    const arrived = new Date(t.clock.now);
    t.clock.now = new Date(arrived.getTime() + minutes * 60_000);
    try {
      expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie)).body.job.steps).toEqual(['on_board', 'no_show']);
      expect((await step(b.booking_number, 'no_show', dan)).body.job).toMatchObject({ status: 'no_show', finished: true });
    } finally {
      t.clock.now = new Date();
    }
    expect((await t.db.query<{ status: string }>('SELECT status FROM bookings WHERE id = $1', [b.id]))[0].status).toBe('no_show');
  });

  it('goes back to the office when declined: flagged, the office told, and no longer the driver’s', async () => {
    const dan = await signedInDriver('Decline Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    expect(await step(b.booking_number, 'declined', dan)).toEqual({ status: 200, body: { job: null } });
    const [row] = await t.db.query<any>('SELECT driver, driver_id, job_status, declined_by FROM bookings WHERE id = $1', [b.id]);
    expect(row).toEqual({ driver: null, driver_id: null, job_status: 'declined', declined_by: 'Decline Driver' });
    expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie)).status).toBe(404);
    const notices = await t.db.query<{ subject: string; body_text: string }>("SELECT subject, body_text FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_change_notice'", [b.id]);
    expect(notices.map((m) => m.subject)).toContainEqual(expect.stringContaining('Driver declined the job'));
    // Who declined, how to reach them, and what the office is to do.
    const declined = notices.find((m) => m.subject.includes('Driver declined the job'))!;
    expect(declined.body_text).toContain(`Decline Driver (${dan.mobile})`);
    expect(declined.body_text).toContain('Assign another driver');
    // The board and the booking's page flag it until another driver is assigned.
    const board = (await t.call('GET', `/operator/bookings?tab=upcoming&q=${b.booking_number}`, undefined, office)).body.rows;
    expect(board).toEqual([expect.objectContaining({ booking_number: b.booking_number, driver_name: null, job_status: 'declined', declined_by: 'Decline Driver' })]);
    expect((await t.call('GET', `/operator/bookings/${b.booking_number}`, undefined, office)).body.desk.job)
      .toEqual({ status: 'declined', label: 'Declined by the driver', declined_by: 'Decline Driver' });
  });

  it('shows as cancelled when the office cancels it, the driver texted, and takes no step', async () => {
    const dan = await signedInDriver('Cancel Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    await step(b.booking_number, 'accepted', dan);
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/cancel`, { reason: 'Flight cancelled' }, office)).status).toBe(200);
    expect((await t.call('GET', '/driver/jobs', undefined, dan.cookie)).body.jobs.find((j: any) => j.reference === b.booking_number))
      .toMatchObject({ cancelled: true, steps: [] });
    expect(await step(b.booking_number, 'on_way', dan)).toMatchObject({ status: 409, body: { message: 'This job was cancelled by the office.' } });
    expect((await texts(b.id, 'booking_cancelled_sms'))[0]).toEqual({ to_address: dan.mobile, body_text: expect.stringContaining(`job ${b.booking_number} on `) });
  });

  it('tells a driver who loses a job to another, and the new driver hears of it', async () => {
    const dan = await signedInDriver('First Driver');
    const eve = await signedInDriver('Second Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    await step(b.booking_number, 'accepted', dan);
    expect((await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, eve, office)).status).toBe(200);
    expect((await texts(b.id, 'driver_job_taken'))).toEqual([{ to_address: dan.mobile, body_text: expect.stringContaining('is no longer yours') }]);
    expect((await texts(b.id, 'driver_job')).map((m) => m.to_address)).toEqual([dan.mobile, eve.mobile]);
    expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie)).status).toBe(404);
    expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, eve.cookie)).body.job).toMatchObject({ status: 'assigned' });
  });

  it('takes a step once when it is tapped twice at once', async () => {
    const dan = await signedInDriver('Twice Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    const both = await Promise.all([step(b.booking_number, 'accepted', dan), step(b.booking_number, 'accepted', dan)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await t.db.query("SELECT 1 FROM audit_log WHERE booking_id = $1 AND action = 'Driver: Accept'", [b.id]);
    expect(rows).toHaveLength(1);
  });

  it('are not the driver’s to open a day after they ended', async () => {
    const dan = await signedInDriver('Past Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    for (const s of ['accepted', 'on_way', 'arrived', 'on_board', 'completed']) expect((await step(b.booking_number, s, dan)).status).toBe(200);
    expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie)).status).toBe(200);
    t.clock.now = new Date(Date.parse(`${DATE}T06:15:00Z`) + 25 * 3_600_000);
    try {
      expect((await t.call('GET', `/driver/jobs/${b.booking_number}`, undefined, dan.cookie)).status).toBe(404);
    } finally {
      t.clock.now = new Date();
    }
  });

  it('refuses a status that is not a step, naming the field', async () => {
    const dan = await signedInDriver('Typo Driver');
    const b = await book();
    await t.call('POST', `/operator/bookings/${b.booking_number}/driver`, dan, office);
    expect(await step(b.booking_number, 'teleported', dan)).toMatchObject({ status: 422, body: { field: 'status' } });
    expect(await t.call('POST', `/driver/jobs/${b.booking_number}/status`, { status: 5 }, dan.cookie)).toMatchObject({ status: 422, body: { field: 'status' } });
  });
});
