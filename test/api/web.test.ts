// The one process also serves the website: index.html with the run-time keys for every page path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/server/app';
import { webApp } from '../../src/server/http/web';
import { estimateDistance } from '../../src/server/geo/distance';
import { openDb, type Db } from '../../src/server/db/index';
import { migrate } from '../../src/server/db/migrate';
import { TEST_SECURITY, localCards } from './setup';

let db: Db;
let app: ReturnType<typeof createApp>;
const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-'));

beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!DOCTYPE html><title>x</title><script type=module src=/app.1234.js></script><body><div id=root></div>');
  writeFileSync(path.join(dist, 'app.1234.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'app.1234.js.map'), '{"version":3,"sourcesContent":["the full source"]}');
  db = await openDb({});
  await migrate(db);
  const runtime = { apiPublicKey: 'pk-<x>', apiSecretKey: 'sk' };
  app = createApp({ db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: 'pk-<x>', secret: 'sk' }, now: () => new Date(), security: TEST_SECURITY, cards: localCards(db) },
    webApp({ distDir: dist, publicDir: path.resolve('public'), runtime }));
});
afterAll(async () => { await db.close(); rmSync(dist, { recursive: true, force: true }); });

describe('serving the website', () => {
  it('answers every page path with index.html and the API keys injected before the app script, under the nonce of its policy', async () => {
    for (const p of ['/', '/quotationview', '/paymentview', '/anything']) {
      const res = await app.request(p);
      expect(res.status).toBe(200);
      const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonce, p).toBeTruthy();
      const html = await res.text();
      expect(html).toContain(`<script nonce="${nonce}">window.__APP_CONFIG__={"apiPublicKey":"pk-\\u003cx>","apiSecretKey":"sk"}</script><script nonce="${nonce}" type=module`);
    }
  });

  it('serves built assets and vehicle images, and 404s a missing file', async () => {
    expect((await app.request('/app.1234.js')).status).toBe(200);
    const img = await app.request('/storage/vehicles/saloon.svg');
    expect([img.status, img.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    expect((await app.request('/missing.1234.js')).status).toBe(404);
  });

  it('never serves source maps (they hold the full sources)', async () => {
    for (const p of ['/app.1234.js.map', '/APP.1234.JS.MAP']) {
      const res = await app.request(p);
      expect(res.status, p).toBe(404);
      expect(await res.text()).not.toContain('the full source');
    }
  });

  it('keeps unknown API calls in JSON, never the web page', async () => {
    const res = await app.request('/api/v1/nothing', { headers: { 'API-PUBLIC-KEY': 'pk-<x>', 'API-SECRET-KEY': 'sk' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false });
  });
});

describe('the browser tests\' admin door', () => {
  it('does not exist unless the server was started with E2E_ADMIN_TOKEN, and wants the token when it does', async () => {
    expect((await app.request('/__e2e__/admin', { method: 'POST', body: '{"args":["settings"]}' })).status).toBe(404);
    const { e2eAdminApp } = await import('../../src/server/operator/e2eAdmin');
    const withDoor = createApp({ db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: 'p', secret: 's' }, now: () => new Date(), security: TEST_SECURITY, cards: localCards(db) },
      undefined, e2eAdminApp(db, 'open-sesame'));
    const call = (token: string) => withDoor.request('/__e2e__/admin', {
      method: 'POST', headers: { 'x-e2e-admin-token': token, 'content-type': 'application/json' }, body: '{"args":["help"]}',
    });
    expect((await call('wrong')).status).toBe(403);
    expect((await call('open-sesame')).status).toBe(200);
  });
});
