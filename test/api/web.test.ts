// The one process also serves the website: index.html with the run-time keys for every page path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/server/app';
import { webApp } from '../../src/server/http/web';
import { estimateDistance } from '../../src/server/geo/distance';
import { openDb, type Db } from '../../src/server/db/index';
import { migrate } from '../../src/server/db/migrate';
import { setSetting } from '../../src/server/operator/operator';
import { TEST_SECURITY, localCards } from './setup';

let db: Db;
const KEYS = { 'API-PUBLIC-KEY': 'pk-<x>', 'API-SECRET-KEY': 'sk' };
let app: ReturnType<typeof createApp>;
const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-'));

beforeAll(async () => {
  writeFileSync(path.join(dist, 'index.html'), '<!DOCTYPE html><title>x</title><script type=module src=/app.1234.js></script><body><div id=root></div>');
  writeFileSync(path.join(dist, 'app.1234.js'), 'console.log(1)');
  // As Parcel's compressors write them next to each asset.
  writeFileSync(path.join(dist, 'app.1234.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(path.join(dist, 'app.1234.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(path.join(dist, 'app.1234.js.map'), '{"version":3,"sourcesContent":["the full source"]}');
  // As the build's reporter (scripts/parcel-reporter-view-chunks.cjs) writes it; the last entry is not a file name.
  writeFileSync(path.join(dist, 'view-chunks.json'), JSON.stringify({
    QuotationView: ['/QuotationView.1.js', '/priceFiltering.2.js'],
    SiteArea: ['/SiteArea.3.css', '/SiteArea.3.js'],
    AccountArea: ['/x.js"><script>alert(1)</script>'],
  }));
  db = await openDb({});
  await migrate(db);
  const runtime = { apiPublicKey: 'pk-<x>', apiSecretKey: 'sk' };
  app = createApp({ db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: 'pk-<x>', secret: 'sk' }, now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(db) },
    webApp({
      distDir: dist, publicDir: path.resolve('public'), runtime,
      // As main.ts hands them: GET /setting's own answer.
      settings: async () => (await app.request('/api/v1/setting', { headers: KEYS })).json(),
    }));
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
      expect(html).toContain(`<script nonce="${nonce}">window.__APP_CONFIG__={"apiPublicKey":"pk-\\u003cx>","apiSecretKey":"sk"};window.__APP_SETTINGS__=`);
      // A later step's page names its view's files in between (the next test).
      expect(html).toMatch(/window\.__APP_SETTINGS__=\[.*?\]<\/script>(?:<link [^>]*>)*<script nonce="[^"]+" type=module/);
    }
  });

  it("names the files of the view an address opens, so they load beside the main script (decision 30)", async () => {
    const hints = async (p: string) => [...(await (await app.request(p)).text()).matchAll(/<link\b[^>]*rel="(?:modulepreload|preload|stylesheet)"[^>]*>/g)].map((m) => m[0]);
    const quotation = await hints('/quotationview');
    expect(quotation).toEqual([
      expect.stringMatching(/^<link nonce="[^"]+" rel="modulepreload" href="\/QuotationView\.1\.js">$/),
      expect.stringMatching(/^<link nonce="[^"]+" rel="modulepreload" href="\/priceFiltering\.2\.js">$/),
    ]);
    // Paths match without case, as the routes do.
    expect(await hints('/QuotationView')).toHaveLength(2);
    // A view's styles are part of its page's first render: fetched beside the main ones, not after its script.
    expect(await hints('/contactus')).toEqual([
      expect.stringMatching(/^<link nonce="[^"]+" rel="stylesheet" href="\/SiteArea\.3\.css">$/),
      expect.stringMatching(/rel="modulepreload" href="\/SiteArea\.3\.js">$/),
    ]);
    // The home page's code is the main script; an unknown path, and anything in the list that is not a file name, get none.
    for (const p of ['/', '/anything', '/login']) expect(await hints(p), p).toEqual([]);
    // The hints go before the app script, after the settings.
    expect(await (await app.request('/quotationview')).text()).toMatch(/window\.__APP_SETTINGS__=\[.*?\]<\/script><link [^>]*modulepreload[^>]*><link [^>]*><script nonce="[^"]+" type=module/);
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

/** What the page's inline script sets window.__APP_SETTINGS__ to. */
const inlineSettings = (html: string) => JSON.parse(/window\.__APP_SETTINGS__=(.*?)<\/script>/.exec(html)![1]) as unknown;

describe('the settings sent with the page (decision 30)', () => {
  it('are GET /setting\'s answer, read again for every page so an operator\'s change shows on the next load', async () => {
    await setSetting(db, 'SHOW_NAVBAR_PAGE', 'enable');
    const route = await (await app.request('/api/v1/setting', { headers: KEYS })).json();
    expect(route).toContainEqual({ setting_name: 'SHOW_NAVBAR_PAGE', setting_value: 'enable' });
    expect(inlineSettings(await (await app.request('/')).text())).toEqual(route);
    await setSetting(db, 'Company_Name', 'Changed </script><b> Cars');
    const html = await (await app.request('/quotationview')).text();
    expect(html).not.toContain('</script><b>');
    expect(inlineSettings(html)).toContainEqual({ setting_name: 'Company_Name', setting_value: 'Changed </script><b> Cars' });
  });

  it('are left out (null) when they cannot be read, and the page is still served', async () => {
    const failing = webApp({ distDir: dist, publicDir: path.resolve('public'), runtime: { apiPublicKey: 'p', apiSecretKey: 's' }, settings: async () => { throw new Error('database down'); } });
    const res = await failing.request('/');
    expect(res.status).toBe(200);
    expect(inlineSettings(await res.text())).toBeNull();
  });
});

describe('compression (brotli where the browser takes it, gzip otherwise)', () => {
  const get = (p: string, encoding?: string) => app.request(p, encoding === undefined ? {} : { headers: { 'Accept-Encoding': encoding } });

  it('serves an asset as brotli to a browser that takes br, gzip to one that takes only gzip, and plain to one that takes neither', async () => {
    const br = await get('/app.1234.js', 'gzip, deflate, br, zstd');
    expect([br.headers.get('content-encoding'), br.headers.get('vary')]).toEqual(['br', 'Accept-Encoding']);
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe('console.log(1)');
    const gz = await get('/app.1234.js', 'gzip, deflate');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe('console.log(1)');
    const plain = await get('/app.1234.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe('console.log(1)');
    // Weights are read: br;q=1 is brotli, br;q=0 refuses it.
    expect((await get('/app.1234.js', 'gzip;q=0.8, br;q=1.0')).headers.get('content-encoding')).toBe('br');
    expect((await get('/app.1234.js', 'gzip, br;q=0')).headers.get('content-encoding')).toBe('gzip');
  });

  it('compresses the page itself the same way', async () => {
    const br = await get('/', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/^text\/html/);
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toContain('window.__APP_CONFIG__');
    const gz = await get('/', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain('<div id=root>');
    const plain = await get('/');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('<div id=root>');
  });
});

describe('the browser tests\' admin door', () => {
  it('does not exist unless the server was given it (only the browser tests\' server is, test/e2e/server.ts), and wants the token when it does', async () => {
    expect((await app.request('/__e2e__/admin', { method: 'POST', body: '{"args":["settings"]}' })).status).toBe(404);
    const { e2eAdminApp } = await import('../e2e/e2eAdmin');
    const withDoor = createApp({ db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: 'p', secret: 's' }, now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(db) },
      undefined, e2eAdminApp(db, 'open-sesame'));
    const call = (token: string) => withDoor.request('/__e2e__/admin', {
      method: 'POST', headers: { 'x-e2e-admin-token': token, 'content-type': 'application/json' }, body: '{"args":["help"]}',
    });
    expect((await call('wrong')).status).toBe(403);
    expect((await call('open-sesame')).status).toBe(200);
  });
});
