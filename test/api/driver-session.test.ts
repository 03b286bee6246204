// Issue 41 §2: the driver's session cookie as a deployment sends it (`__Host-`, Secure, Path=/ in production; Secure
// over HTTPS, or behind a proxy that says so, elsewhere), the code's text in the office's name, a mobile typed as a
// number, signing out with no session, and a step that is not one named in the refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { DEFAULT_STAFF_SESSION } from '../../src/server/config';
import { estimateDistance } from '../../src/server/geo/distance';
import { setSetting } from '../../src/server/operator/operator';
import { JOB_STEPS } from '../../src/domain/driverJobs';
import type { Db } from '../../src/server/db/index';
import { KEYS, TEST_SECURITY, localCards, recordDriverAndCar, seededTestDb } from './setup';

let db: Db;
beforeAll(async () => { db = await seededTestDb(); });
afterAll(async () => { await db.close(); });

/** The app, in production (secure cookies) or not, and a call to its driver API over `scheme`. */
function site(production: boolean) {
  const app = createApp({
    db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
    now: () => new Date(), siteUrl: 'https://bookings.example.co.uk', cards: localCards(db),
    security: { ...TEST_SECURITY, staffSession: production ? { ...DEFAULT_STAFF_SESSION, secureCookie: true } : undefined },
  });
  return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, scheme = 'http') =>
    app.request(`${scheme}://bookings.example.co.uk/api/v1/driver${path}`, {
      method, headers: { ...KEYS, 'Content-Type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body),
    });
}
let n = 0;
async function driverWithCode(call: ReturnType<typeof site>) {
  const crew = await recordDriverAndCar(db, 'Albion Executive Cars', { name: `Cookie Driver ${++n}` });
  const [{ mobile }] = await db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
  expect((await call('POST', '/code', { mobile })).status).toBe(200);
  const [row] = await db.query<{ body_text: string }>(
    "SELECT body_text FROM outbound_emails WHERE kind = 'driver_sign_in_code' AND to_address = $1 ORDER BY id DESC LIMIT 1", [mobile]);
  return { mobile, text: row?.body_text ?? null, code: row ? /^(\d{6})/.exec(row.body_text)![1] : '' };
}

describe("the driver's session cookie", () => {
  it('is __Host-, Secure and for the whole site in production, whatever the request came over; only that name signs in', async () => {
    const call = site(true);
    const d = await driverWithCode(call);
    const res = await call('POST', '/session', { mobile: d.mobile, code: d.code });
    expect(res.status).toBe(200);
    const set = res.headers.get('set-cookie')!;
    expect(set).toMatch(/^__Host-driver_session=[\w-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const token = set.split(';')[0].split('=')[1];
    expect((await call('GET', '/jobs', undefined, { Cookie: `__Host-driver_session=${token}` })).status).toBe(200);
    expect((await call('GET', '/jobs', undefined, { Cookie: `driver_session=${token}` })).status).toBe(401);
  });

  it('is Secure elsewhere when the request came over HTTPS, as the proxy in front says (its first word)', async () => {
    const call = site(false);
    for (const [proto, secure] of [['https', true], ['https, http', true], ['http, https', false], ['http', false]] as const) {
      const d = await driverWithCode(call);
      const res = await call('POST', '/session', { mobile: d.mobile, code: d.code }, { 'X-Forwarded-Proto': proto });
      expect(res.headers.get('set-cookie')!.includes('; Secure'), proto).toBe(secure);
    }
  });
});

describe("the driver's sign-in", () => {
  it("texts the code in the office's name, to a mobile typed as a number too", async () => {
    const call = site(false);
    await setSetting(db, 'Company_Name', '  Albion Executive Cars  ');
    const d = await driverWithCode(call);
    expect(d.text).toMatch(/^\d{6} is your Albion Executive Cars driver code\. It works for 10 minutes\. Never share it\.$/);
    const asNumber = await recordDriverAndCar(db, 'Albion Executive Cars', { name: 'Number Driver' });
    const [{ mobile }] = await db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [asNumber.driver_id]);
    expect((await call('POST', '/code', { mobile: Number(mobile.slice(1)) })).status).toBe(200);
    expect(await db.query("SELECT 1 FROM outbound_emails WHERE kind = 'driver_sign_in_code' AND to_address = $1", [mobile])).toHaveLength(1);
  });

  it('signs out a page with no session as one with', async () => {
    const out = await site(false)('DELETE', '/session');
    expect([out.status, await out.json()]).toEqual([200, { signedOut: true }]);
  });

  it('names the steps there are when the status is not one', async () => {
    const call = site(false);
    const d = await driverWithCode(call);
    const cookie = { Cookie: (await call('POST', '/session', { mobile: d.mobile, code: d.code })).headers.get('set-cookie')!.split(';')[0] };
    const res = await call('POST', '/jobs/BK-NOSUCH1/status', { status: 'flying' }, cookie);
    expect([res.status, await res.json()]).toEqual([422, expect.objectContaining({ field: 'status', message: `status is one of ${JOB_STEPS.join(', ')}` })]);
  });
});
