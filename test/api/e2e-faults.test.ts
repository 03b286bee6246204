// The browser tests' fault route (test/e2e/e2eAdmin.ts): only with the token, and each kind of failure
// reaches the next matching call only, as many times as asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { e2eAdminApp } from '../e2e/e2eAdmin';
import type { Db } from '../../src/server/db/index';
import { estimateDistance } from '../../src/server/geo/distance';
import { KEYS, TEST_SECURITY, localCards, seededTestDb } from './setup';

let db: Db;
let app: ReturnType<typeof createApp>;
const TOKEN = 'fault-token';

beforeAll(async () => {
  db = await seededTestDb();
  app = createApp({
    db, distance: estimateDistance, mail: { kick: () => {} }, cards: localCards(db),
    apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] }, now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY,
  }, undefined, e2eAdminApp(db, TOKEN));
});
afterAll(() => db.close());

const ask = (body: unknown, token = TOKEN) => app.request('/__e2e__/fault', {
  method: 'POST', headers: { 'content-type': 'application/json', 'x-e2e-admin-token': token }, body: JSON.stringify(body),
});
const settings = () => app.request('/api/v1/setting', { headers: KEYS });

describe('the fault route', () => {
  it('refuses a call without the token, and fails nothing then', async () => {
    expect((await ask({ method: 'GET', path: '/api/v1/setting', kind: 'status', status: 503 }, 'wrong-token!')).status).toBe(403);
    expect((await settings()).status).toBe(200);
  });

  it('answers the next matching call with the status and message asked for, once by default', async () => {
    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'status', status: 422, message: 'Nope', field: 'email' });
    const failed = await settings();
    expect([failed.status, await failed.json()]).toEqual([422, { success: false, message: 'Nope', field: 'email' }]);
    expect((await settings()).status).toBe(200);
  });

  it('gives a whole answer when asked, and only to the method and path asked for (in any case)', async () => {
    await ask({ method: 'GET', path: '/API/v1/Setting', kind: 'answer', body: [], times: 2 });
    expect((await app.request('/api/v1/setting', { method: 'POST', headers: KEYS })).status).not.toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await settings();
      expect([res.status, await res.json()]).toEqual([200, []]);
    }
    expect(((await (await settings()).json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('answers late when asked', async () => {
    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'delay', ms: 300 });
    const began = Date.now();
    expect((await settings()).status).toBe(200);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
  });

  it('forgets what no call has met when told to clear', async () => {
    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'status', status: 500 });
    expect(await (await ask({ clear: true })).json()).toEqual({ pending: 0, held: 0 });
    expect((await settings()).status).toBe(200);
  });

  it('holds a late call until it is released for its method and path, and no longer', async () => {
    // Held far longer than the test may run: an answer can only come from the release.
    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'delay', ms: 600_000 });
    let answered = false;
    const late = Promise.resolve(settings()).then((res) => { answered = true; return res; });
    const heldNow = async () => (await (await ask({ count: { method: 'GET', path: '/api/v1/setting' } })).json() as { held: number }).held;
    await expect.poll(heldNow).toBe(1);
    // Another call's release, or another method's, leaves it waiting: the server says it still holds it.
    await ask({ release: { method: 'GET', path: '/api/v1/fetch_vehicles' } });
    await ask({ release: { method: 'POST', path: '/api/v1/setting' } });
    expect(await heldNow()).toBe(1);
    expect(answered).toBe(false);
    await ask({ release: { method: 'GET', path: '/API/v1/Setting' } });
    expect((await late).status).toBe(200);
    expect(await heldNow()).toBe(0);
  });

  it('lets a late call released before it arrived go at once, and releases every held call when told to', async () => {
    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'delay', ms: 600_000 });
    // Clearing the failures keeps a hold whose call has not arrived yet.
    expect(await (await ask({ clear: true })).json()).toEqual({ pending: 1, held: 0 });
    // Released before it came, the hold is gone: the call is answered (a kept hold of 10 minutes would time the test out).
    expect(await (await ask({ release: { method: 'GET', path: '/api/v1/setting' } })).json()).toEqual({ pending: 0, held: 0 });
    expect((await settings()).status).toBe(200);

    await ask({ method: 'GET', path: '/api/v1/setting', kind: 'delay', ms: 600_000 });
    await ask({ method: 'GET', path: '/api/v1/fetch_vehicles', kind: 'delay', ms: 600_000 });
    const both = Promise.all([settings(), Promise.resolve(app.request('/api/v1/fetch_vehicles', { headers: KEYS }))]);
    await expect.poll(async () => (await (await ask({ clear: true })).json() as { held: number }).held).toBe(2);
    await ask({ release: 'all' });
    expect((await both).map((r) => r.status)).toEqual([200, 200]);
  });
});
