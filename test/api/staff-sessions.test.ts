// Issue 39 item 7: a console session ends STAFF_SESSION_HOURS after sign-in whatever it does, and STAFF_IDLE_MINUTES
// after the last call a person made; the board's background poll (X-Background-Poll: 1) is no use of it. In production
// the cookie is `__Host-` and Secure whatever the request came over (decision 47). Time is moved in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { DEFAULT_STAFF_SESSION, loadConfig, type StaffSessionConfig } from '../../src/server/config';
import { estimateDistance } from '../../src/server/geo/distance';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import type { Db } from '../../src/server/db/index';
import { KEYS, TEST_SECURITY, localCards, seededTestDb } from './setup';

let db: Db;
beforeAll(async () => { db = await seededTestDb(); });
afterAll(async () => { await db.close(); });

const [ADMIN] = DEMO_STAFF;
const POLL = { 'X-Background-Poll': '1' };

/** The app with these session settings (none: as the API tests' other apps, the defaults). */
function console_(staffSession?: StaffSessionConfig) {
  const app = createApp({
    db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
    now: () => new Date(), siteUrl: 'http://localhost:8080', security: { ...TEST_SECURITY, staffSession }, cards: localCards(db),
  });
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => app.request(`/api/v1/operator${path}`, {
    method, headers: { ...KEYS, 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    call,
    /** Signs in as the demo administrator: the Set-Cookie header and the cookie to send back. */
    async signIn() {
      const res = await call('POST', '/session', {}, { email: ADMIN.email, password: ADMIN.password });
      expect(res.status).toBe(200);
      const setCookie = res.headers.get('set-cookie')!;
      return { setCookie, cookie: { Cookie: setCookie.split(';')[0] } };
    },
  };
}

/** Moves this session's sign-in and last use back in time. */
async function age(cookie: { Cookie: string }, signedIn: string, lastUsed: string) {
  await db.query(`UPDATE staff_sessions SET created_at = now() - $1::interval, last_used_at = now() - $2::interval
    WHERE staff_id = (SELECT id FROM staff WHERE email = $3) AND revoked_at IS NULL AND token_hash = encode(sha256(convert_to($4, 'UTF8')), 'hex')`,
  [signedIn, lastUsed, ADMIN.email, cookie.Cookie.split('=')[1]]);
}
async function minutesUnused(cookie: { Cookie: string }): Promise<number> {
  const [row] = await db.query<{ m: number }>(
    `SELECT extract(epoch FROM now() - last_used_at)::int / 60 AS m FROM staff_sessions WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [cookie.Cookie.split('=')[1]]);
  return row.m;
}

describe('a console session', () => {
  it('ends 12 hours after sign-in however busy it is, refused while the board polls it', async () => {
    const desk = console_();
    const { cookie } = await desk.signIn();
    await age(cookie, '11 hours 59 minutes', '10 seconds');
    expect((await desk.call('GET', '/latest', { ...cookie, ...POLL })).status).toBe(200);
    expect((await desk.call('GET', '/bookings', cookie)).status).toBe(200);
    await age(cookie, '13 hours', '5 seconds');
    const polled = await desk.call('GET', '/latest', { ...cookie, ...POLL });
    expect([polled.status, (await polled.json()).message]).toEqual([401, 'Please sign in again: your session has ended.']);
    expect((await desk.call('GET', '/bookings', cookie)).status).toBe(401);
    expect(await (await desk.call('GET', '/session', cookie)).json()).toEqual({ staff: null });
  });

  it('is kept by a person\'s calls but not by the board\'s poll, which alone lets it end after 30 minutes', async () => {
    const desk = console_();
    const { cookie } = await desk.signIn();
    await age(cookie, '1 hour', '29 minutes');
    expect((await desk.call('GET', '/latest', { ...cookie, ...POLL })).status).toBe(200);
    expect(await minutesUnused(cookie)).toBe(29);
    // The board's live stream (issue 41) is opened by the console by itself, whatever its headers say.
    const live = await desk.call('GET', '/live', cookie);
    expect(live.status).toBe(200);
    await live.body?.cancel();
    expect(await minutesUnused(cookie)).toBe(29);
    // Any other value of the header is a person's call.
    expect((await desk.call('GET', '/latest', { ...cookie, 'X-Background-Poll': '0' })).status).toBe(200);
    expect(await minutesUnused(cookie)).toBe(0);
    await age(cookie, '1 hour', '29 minutes');
    expect((await desk.call('GET', '/bookings?tab=upcoming', cookie)).status).toBe(200);
    expect(await minutesUnused(cookie)).toBe(0);
    await age(cookie, '1 hour', '31 minutes');
    expect((await desk.call('GET', '/latest', { ...cookie, ...POLL })).status).toBe(401);
    expect((await desk.call('GET', '/latest', cookie)).status).toBe(401);
  });

  it('lasts STAFF_SESSION_HOURS and STAFF_IDLE_MINUTES when they are set, and so does its cookie', async () => {
    const desk = console_({ hours: 2, idleMinutes: 10, secureCookie: false });
    const { cookie, setCookie } = await desk.signIn();
    expect(setCookie).toContain('Max-Age=7200;');
    await age(cookie, '1 hour 59 minutes', '9 minutes');
    expect((await desk.call('GET', '/latest', cookie)).status).toBe(200);
    await age(cookie, '1 hour 59 minutes', '11 minutes');
    expect((await desk.call('GET', '/latest', cookie)).status).toBe(401);
    const again = await desk.signIn();
    await age(again.cookie, '2 hours 1 minute', '1 minute');
    expect((await desk.call('GET', '/latest', again.cookie)).status).toBe(401);
  });
});

describe('the staff cookie', () => {
  it('in development: operator_session on the console\'s calls, HttpOnly, SameSite=Strict, not Secure over plain HTTP', async () => {
    const { setCookie } = await console_().signIn();
    expect(setCookie).toMatch(/^operator_session=[\w-]{43}; Max-Age=43200; Path=\/api\/v1\/operator; HttpOnly; SameSite=Strict$/);
  });

  it('in production: __Host-, Secure over plain HTTP too, Path=/, no Domain; only that name signs in; sign-out clears it', async () => {
    const desk = console_({ ...DEFAULT_STAFF_SESSION, secureCookie: true });
    const { cookie, setCookie } = await desk.signIn();
    expect(setCookie).toMatch(/^__Host-operator_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    expect((await desk.call('GET', '/latest', cookie)).status).toBe(200);
    const token = cookie.Cookie.split('=')[1];
    expect((await desk.call('GET', '/latest', { Cookie: `operator_session=${token}` })).status).toBe(401);
    const out = await desk.call('DELETE', '/session', cookie);
    expect(out.headers.get('set-cookie')).toMatch(/^__Host-operator_session=; Max-Age=0; Path=\/; Secure$/);
    expect((await desk.call('GET', '/latest', cookie)).status).toBe(401);
  });

  it('is production\'s whenever NODE_ENV=production, and the lifetimes are read from the environment', () => {
    expect(loadConfig({}).staffSession).toEqual({ hours: 12, idleMinutes: 30, secureCookie: false });
    expect(loadConfig({ NODE_ENV: 'production', CARD_GATEWAY: 'test' }).staffSession.secureCookie).toBe(true);
    expect(loadConfig({ STAFF_SESSION_HOURS: '8', STAFF_IDLE_MINUTES: '480' }).staffSession).toEqual({ hours: 8, idleMinutes: 480, secureCookie: false });
    expect(loadConfig({ STAFF_SESSION_HOURS: '1', STAFF_IDLE_MINUTES: '5' }).staffSession).toMatchObject({ hours: 1, idleMinutes: 5 });
    expect(() => loadConfig({ STAFF_SESSION_HOURS: '25' })).toThrow('STAFF_SESSION_HOURS must be a whole number of hours from 1 to 24, not "25"');
    expect(() => loadConfig({ STAFF_SESSION_HOURS: '0' })).toThrow(/STAFF_SESSION_HOURS/);
    expect(() => loadConfig({ STAFF_SESSION_HOURS: '1.5' })).toThrow(/STAFF_SESSION_HOURS/);
    expect(() => loadConfig({ STAFF_SESSION_HOURS: '8', STAFF_IDLE_MINUTES: '481' })).toThrow('STAFF_IDLE_MINUTES must be a whole number of minutes from 5 to 480, not "481"');
    expect(() => loadConfig({ STAFF_IDLE_MINUTES: '4' })).toThrow(/STAFF_IDLE_MINUTES/);
  });
});
