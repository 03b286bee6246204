// Security headers (hardening item 6) on every answer of the one process: the
// page, its assets, vehicle images, API answers including errors, 404s and the
// test admin door; a page policy that allows the site and, only when
// configured, Google Maps (a run-time setting) and Stripe (the environment).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/server/app';
import { webApp } from '../../src/server/http/web';
import { e2eAdminApp } from '../e2e/e2eAdmin';
import { setSetting } from '../../src/server/operator/operator';
import type { Db } from '../../src/server/db/index';
import { estimateDistance } from '../../src/server/geo/distance';
import { NON_PAGE_POLICY, pagePolicy } from '../../src/server/http/securityHeaders';
import { KEYS, TEST_SECURITY, localCards, seededTestDb } from './setup';
import { cardProviderFromConfig } from '../../src/server/payments/provider';

let db: Db;
const dist = mkdtempSync(path.join(os.tmpdir(), 'dist-sec-'));
const web = () => webApp({ distDir: dist, publicDir: path.resolve('public'), runtime: { apiPublicKey: KEYS['API-PUBLIC-KEY'], apiSecretKey: KEYS['API-SECRET-KEY'] } });
const deps = () => ({
  db, distance: estimateDistance, mail: { kick: () => {} }, now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(db),
  apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
});
/** The database, failing every query. */
const databaseDown = () => new Proxy(db, {
  get: (target, key) => {
    if (key === 'query') return async () => { throw new Error('database down'); };
    const value = Reflect.get(target, key);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});
/** Card payments with Stripe (its three keys configured), not the local test gateway. */
const stripeCards = () => cardProviderFromConfig(
  { stripeSecretKey: 'sk_test_123', stripePublishableKey: 'pk_test_123', stripeWebhookSecret: 'whsec_123' },
  { db, secret: TEST_SECURITY.secret, deliverWebhook: null },
);
/** The app as main.ts builds it: card payments by the local test gateway unless `stripe`. */
const siteApp = (opts: { stripe?: boolean } = {}) =>
  createApp({ ...deps(), ...(opts.stripe ? { cards: stripeCards() } : {}) }, web(), e2eAdminApp(db, 'door-token'));

beforeAll(async () => {
  // Like Parcel's minified page: no </head>, a stylesheet link and the module script.
  writeFileSync(path.join(dist, 'index.html'),
    '<!DOCTYPE html><html lang=en-GB><meta charset=utf-8><title>x</title><link rel=stylesheet href=/public.1234.css>'
    + '<script type=module src=/public.1234.js></script><body><div id=root></div>');
  writeFileSync(path.join(dist, 'public.1234.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'public.1234.css'), 'body{margin:0}');
  writeFileSync(path.join(dist, 'public.1234.js.map'), '{"version":3,"sourcesContent":["secret source"]}');
  db = await seededTestDb();
});
afterAll(async () => {
  await setSetting(db, 'GOOGLE_API_KEY', '');
  await db.close();
  rmSync(dist, { recursive: true, force: true });
});

function expectSecurityHeaders(res: Response, what: string) {
  expect(res.headers.get('content-security-policy'), what).toBeTruthy();
  expect(res.headers.get('content-security-policy'), what).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  const permissions = res.headers.get('permissions-policy') ?? '';
  expect(permissions, what).toContain('geolocation=(self)');
  expect(permissions, what).toContain('camera=()');
  expect(permissions, what).toContain('microphone=()');
}

/** The policy as a map from directive to its sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

async function page(app: ReturnType<typeof createApp>, at = '/') {
  const res = await app.request(at);
  expect(res.status).toBe(200);
  const policy = res.headers.get('content-security-policy') ?? '';
  return { res, html: await res.text(), policy, csp: directives(policy) };
}

describe('security headers on every answer', () => {
  it('are on pages, assets, images, source maps, 404s, every kind of API answer and the test admin door', async () => {
    const app = siteApp();
    const brokenApp = createApp({ ...deps(), db: databaseDown() }, web());
    const api = (p: string, init: RequestInit = {}, keys: Record<string, string> = KEYS) =>
      app.request(`/api/v1${p}`, { ...init, headers: { ...keys, 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) } });
    const cases: [string, Response | Promise<Response>, number][] = [
      ['home page', app.request('/'), 200],
      ['deep link page', app.request('/quotationview'), 200],
      ['index.html', app.request('/index.html'), 200],
      ['hashed script', app.request('/public.1234.js'), 200],
      ['hashed stylesheet', app.request('/public.1234.css'), 200],
      ['vehicle image', app.request('/storage/vehicles/saloon.svg'), 200],
      ['missing asset', app.request('/missing.1234.js'), 404],
      ['source map', app.request('/public.1234.js.map'), 404],
      ['API answer', api('/setting'), 200],
      ['API without keys', api('/setting', {}, {}), 401],
      ['API unknown call', api('/nothing'), 404],
      ['API body too large', api('/contact-us', { method: 'POST', body: JSON.stringify({ x: 'x'.repeat(110 * 1024) }) }), 413],
      ['API refusal', api('/booking', { method: 'POST', body: JSON.stringify({ bookingForm: null }) }), 422],
      ['API failure', brokenApp.request('/api/v1/setting', { headers: KEYS }), 500],
      ['page without settings', brokenApp.request('/'), 200],
      ['test admin door', app.request('/__e2e__/admin', { method: 'POST', body: '{}' }), 403],
    ];
    for (const [what, pending, status] of cases) {
      const res = await pending;
      expect(res.status, what).toBe(status);
      expectSecurityHeaders(res, what);
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) {
        expect(res.headers.get('content-security-policy'), what).toBe(NON_PAGE_POLICY);
      }
      await res.arrayBuffer();
    }
  });

  it('never serves source maps, which hold the full sources', async () => {
    const res = await siteApp().request('/public.1234.js.map');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('secret source');
  });
});

describe('HTTPS, caches and content types (issue 24)', () => {
  const behindProxy = () => createApp({ ...deps(), security: { ...TEST_SECURITY, trustProxy: true } }, web());
  const direct = () => createApp({ ...deps(), security: { ...TEST_SECURITY, trustProxy: false } }, web());
  const hsts = async (pending: Response | Promise<Response>) => {
    const res = await pending;
    await res.arrayBuffer();
    return res.headers.get('strict-transport-security');
  };

  it('asks browsers to keep to HTTPS for a year, on answers that came over HTTPS only', async () => {
    const year = 'max-age=31536000; includeSubDomains';
    expect(await hsts(direct().request('https://book.example.co.uk/'))).toBe(year);
    expect(await hsts(direct().request('https://book.example.co.uk/api/v1/setting', { headers: KEYS }))).toBe(year);
    expect(await hsts(direct().request('http://book.example.co.uk/'))).toBeNull();
    // A proxy's word counts only when it is trusted (TRUST_PROXY=1), and only the proxy's own (last) value.
    const proxied = (proto: string) => ({ headers: { 'X-Forwarded-Proto': proto } });
    expect(await hsts(behindProxy().request('http://book.example.co.uk/', proxied('https')))).toBe(year);
    expect(await hsts(behindProxy().request('http://book.example.co.uk/api/v1/setting', { headers: { ...KEYS, 'X-Forwarded-Proto': 'HTTPS' } }))).toBe(year);
    expect(await hsts(behindProxy().request('http://book.example.co.uk/', proxied('https, http')))).toBeNull();
    expect(await hsts(behindProxy().request('http://book.example.co.uk/', proxied('http')))).toBeNull();
    expect(await hsts(direct().request('http://book.example.co.uk/', proxied('https')))).toBeNull();
  });

  it('lets no cache keep an answer of the API, errors and tokens included; pages and assets keep their own', async () => {
    const app = siteApp();
    const json = { ...KEYS, 'Content-Type': 'application/json' };
    const answers: [string, Response | Promise<Response>][] = [
      ['settings', app.request('/api/v1/setting', { headers: KEYS })],
      ['a token', app.request('/api/v1/check-passenger-login', { method: 'POST', headers: json, body: JSON.stringify({ email: 'nobody@example.com', password: 'secret-1' }) })],
      ['a refusal', app.request('/api/v1/booking', { method: 'POST', headers: json, body: '{"bookingForm":null}' })],
      ['no keys', app.request('/api/v1/setting')],
      ['unknown call', app.request('/api/v1/nothing', { headers: KEYS })],
    ];
    for (const [what, pending] of answers) {
      const res = await pending;
      await res.arrayBuffer();
      expect(res.headers.get('cache-control'), what).toBe('no-store');
    }
    expect((await app.request('/')).headers.get('cache-control')).toBe('no-cache');
    expect((await app.request('/public.1234.js')).headers.get('cache-control')).not.toBe('no-store');
  });

  it('takes a request body only as JSON (415 otherwise); calls without a body stay as they were', async () => {
    const app = siteApp();
    const body = JSON.stringify({ firstName: 'Amelia', lastName: 'Hart', email: 'amelia@example.com', telephone: '07700 900123', queryReason: 'Booking', comments: 'Hi' });
    const send = (method: string, p: string, type: string | null, content = body) => app.request(`/api/v1${p}`, {
      method, body: content, headers: { ...KEYS, 'Content-Length': String(Buffer.byteLength(content)), ...(type === null ? {} : { 'Content-Type': type }) },
    });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', null]) {
      const res = await send('POST', '/contact-us', type);
      expect(res.status, String(type)).toBe(415);
      expect((await res.json()).message).toBe('Send the request body as JSON, with Content-Type: application/json.');
    }
    expect((await send('PATCH', '/update-passenger', 'text/plain', '{"first_name":"Amelia"}')).status).toBe(415);
    expect((await send('POST', '/contact-us', 'application/json; charset=utf-8')).status).toBe(200);
    expect((await send('POST', '/contact-us', 'Application/JSON')).status).toBe(200);
    // Body-less calls (a logout) need no type, and the API keys are checked first.
    const logout = await app.request('/api/v1/passenger/logout', { method: 'POST', headers: { ...KEYS, 'Content-Length': '0', Authorization: 'Bearer nothing' } });
    expect(logout.status).not.toBe(415);
    expect((await app.request('/api/v1/contact-us', { method: 'POST', body, headers: { 'Content-Type': 'text/plain', 'Content-Length': String(body.length) } })).status).toBe(401);
    // Stripe's events are JSON but are judged by their signature, wherever they come from.
    const webhook = await app.request('/api/v1/stripe/webhook', { method: 'POST', body: '{}', headers: { 'Content-Type': 'text/plain', 'Content-Length': '2' } });
    expect(webhook.status).not.toBe(415);
  });
});

describe('the page policy', () => {
  it('allows the inline config script by a nonce made for each response, never by unsafe-inline or unsafe-eval', async () => {
    const app = siteApp();
    const one = await page(app);
    const two = await page(app, '/paymentview');
    expect(one.policy).not.toMatch(/unsafe-inline|unsafe-eval|\*(?!\.)|https:(?!\/\/)/);
    const nonce = one.csp['script-src'].find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(one.csp['style-src']).toContain(`'nonce-${nonce}'`);
    expect(two.policy).not.toContain(nonce);
    // Every script and stylesheet tag carries this response's nonce (Google Maps copies it from there).
    const scripts = [...one.html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(one.html).toContain(`<link nonce="${nonce}" rel=stylesheet href=/public.1234.css>`);
    expect(one.html).toContain(`<script nonce="${nonce}">window.__APP_CONFIG__=`);
  });

  it('allows only the site itself when no outside service is configured', async () => {
    const { csp } = await page(siteApp());
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src'].filter((s) => !s.startsWith("'nonce-"))).toEqual(["'self'"]);
    expect(csp['style-src'].filter((s) => !s.startsWith("'nonce-"))).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:']);
    expect(csp['font-src']).toEqual(["'self'"]);
    expect(csp['frame-src']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });

  it('adds Google Maps origins while the GOOGLE_API_KEY setting is set, and drops them when it is cleared', async () => {
    const app = siteApp();
    expect((await page(app)).policy).not.toMatch(/google|gstatic/);
    await setSetting(db, 'GOOGLE_API_KEY', 'AIza-test-key');
    try {
      const { csp } = await page(app);
      expect(csp['script-src']).toContain('https://maps.googleapis.com');
      expect(csp['script-src'].join(' ')).not.toContain('*');
      expect(csp['connect-src']).toEqual(expect.arrayContaining(["'self'", 'https://*.googleapis.com', 'https://*.gstatic.com']));
      expect(csp['img-src']).toEqual(expect.arrayContaining(["'self'", 'https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.googleusercontent.com']));
      expect(csp['font-src']).toContain('https://fonts.gstatic.com');
      expect(csp['style-src']).toContain('https://fonts.googleapis.com');
      expect(csp['frame-src']).toEqual(['https://*.google.com']);
      // Not a page: API answers do not widen.
      const apiRes = await app.request('/api/v1/setting', { headers: KEYS });
      expect(apiRes.headers.get('content-security-policy')).toBe(NON_PAGE_POLICY);
    } finally {
      await setSetting(db, 'GOOGLE_API_KEY', '   ');
    }
    expect((await page(app)).policy).not.toMatch(/google|gstatic/);
  });

  it("allows the map tiles' origin as images while MAP_TILE_URL is set (issue 41), and nothing more", async () => {
    const app = siteApp();
    const before = (await page(app)).csp;
    await setSetting(db, 'MAP_TILE_URL', 'https://{s}.tiles.example.com/{z}/{x}/{y}.png');
    try {
      const { csp } = await page(app);
      expect(csp['img-src']).toEqual([...before['img-src'], 'https://*.tiles.example.com']);
      const sameBut = (list: string[]) => list.filter((x) => !x.startsWith("'nonce-"));
      for (const d of ['script-src', 'connect-src', 'style-src', 'frame-src'] as const) expect(sameBut(csp[d]), d).toEqual(sameBut(before[d]));
      // A setting the console would refuse (plain http elsewhere) opens nothing.
      await setSetting(db, 'MAP_TILE_URL', 'http://tiles.example.com/{z}/{x}/{y}.png');
      expect((await page(app)).csp['img-src']).toEqual(before['img-src']);
    } finally {
      await setSetting(db, 'MAP_TILE_URL', '');
    }
    expect((await page(app)).csp['img-src']).toEqual(before['img-src']);
  });

  it('still serves the page when the settings cannot be read, without outside services', async () => {
    await setSetting(db, 'GOOGLE_API_KEY', 'AIza-test-key');
    try {
      const { html, policy } = await page(createApp({ ...deps(), db: databaseDown() }, web()));
      expect(html).toContain('window.__APP_CONFIG__');
      expect(policy).toMatch(/script-src 'self' 'nonce-/);
      expect(policy).not.toContain('google');
    } finally {
      await setSetting(db, 'GOOGLE_API_KEY', '');
    }
  });

  it("adds Stripe origins only when Stripe's keys are configured", async () => {
    const without = await page(siteApp());
    expect(without.policy).not.toContain('stripe');
    expect(without.res.headers.get('permissions-policy')).toContain('payment=()');
    const { res, csp } = await page(siteApp({ stripe: true }));
    expect(csp['script-src']).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']));
    expect(csp['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']));
    expect(csp['frame-src']).not.toContain("'none'");
    expect(csp['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
    expect(res.headers.get('permissions-policy')).toContain('payment=(self "https://js.stripe.com")');
  });

  it('keeps Stripe out of the policy when the local test gateway takes the cards (its Stripe.js comes from this site)', async () => {
    const { policy } = await page(siteApp());
    expect(policy).not.toContain('stripe.com');
    const res = await siteApp().request('/test-gateway/stripe.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
  });

  it('combines providers without repeating a source', () => {
    const policy = pagePolicy({ nonce: 'abc', providers: { googleMaps: true, stripe: true } });
    const csp = directives(policy);
    for (const sources of Object.values(csp)) expect(new Set(sources).size).toBe(sources.length);
    expect(csp['script-src']).toEqual(["'self'", "'nonce-abc'", 'https://maps.googleapis.com', 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(csp['frame-src']).toEqual(['https://*.google.com', 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
  });
});
