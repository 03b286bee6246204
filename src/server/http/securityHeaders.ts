// Security headers on every response: the web pages, their assets, vehicle
// images, API answers (errors included) and 404s.
//
// The Content-Security-Policy of a page allows the site itself and, only when
// they are configured, the outside services it loads (providers below). It
// needs no 'unsafe-inline': the one inline script (the run-time config that
// web.ts injects) carries a nonce made for that response. The same nonce is on
// the page's <script> and <link rel=stylesheet> tags because the Google Maps
// JS API copies it from there onto the <script> and <style> elements it adds
// (Google's CSP guide for the Maps JS API), so Maps needs no 'unsafe-inline'
// for styles either. Anything that is not a page (JSON, scripts, styles,
// images, plain-text 404s) gets a policy that allows nothing at all: it is
// never a document that should load anything.
import { randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap { cspNonce?: string }
}

/** The outside services a page may load; each is on only when configured. */
export interface Providers {
  /** Maps JS API and Places in the browser: the GOOGLE_API_KEY setting is non-empty. */
  googleMaps: boolean;
  /** Stripe.js and Elements, 3-D Secure frames: STRIPE_PUBLISHABLE_KEY is set. */
  stripe: boolean;
  /** The map tiles' origin (the MAP_TILE_URL setting, src/domain/tracking.ts tileSource), allowed as images; none: null. */
  mapTiles?: string | null;
}

export const NO_PROVIDERS: Providers = { googleMaps: false, stripe: false };

type Directive =
  | 'default-src' | 'script-src' | 'style-src' | 'img-src' | 'font-src' | 'connect-src'
  | 'frame-src' | 'worker-src' | 'object-src' | 'base-uri' | 'form-action' | 'frame-ancestors';
type Sources = Partial<Record<Directive, string[]>>;

/** What the site loads by itself: its own scripts, styles, images (and the data: favicon), API calls. */
const SITE: Sources = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ["'none'"],
  'worker-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Each provider's origins, added to the site's when it is on.
 * Google: the origins of Google's CSP guide for the Maps JS API, except that
 * script-src names only maps.googleapis.com (where the loader and its
 * libraries come from; the scripts the API adds carry the page's nonce).
 * A wildcard *.googleapis.com in script-src would also allow files anyone can
 * host on storage.googleapis.com. No 'unsafe-eval': Places suggestions and the
 * raster route map do not need it.
 * Stripe: Stripe.js from js.stripe.com, its Elements and 3-D Secure frames,
 * and its API.
 */
const PROVIDER_SOURCES: Record<'googleMaps' | 'stripe', Sources> = {
  googleMaps: {
    'script-src': ['https://maps.googleapis.com'],
    'style-src': ['https://fonts.googleapis.com'],
    'img-src': ['https://*.googleapis.com', 'https://*.gstatic.com', 'https://*.google.com', 'https://*.googleusercontent.com'],
    'font-src': ['https://fonts.gstatic.com'],
    'connect-src': ['https://*.googleapis.com', 'https://*.google.com', 'https://*.gstatic.com', 'data:', 'blob:'],
    'frame-src': ['https://*.google.com'],
    'worker-src': ['blob:'],
  },
  stripe: {
    'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com'],
    'img-src': ['https://*.stripe.com'],
    'connect-src': ['https://api.stripe.com'],
    'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  },
};

/** The page policy: the site's sources, the nonce, and those of the providers that are on. */
export function pagePolicy(opts: { nonce?: string; providers: Providers }): string {
  const merged = new Map<Directive, string[]>(Object.entries(SITE) as [Directive, string[]][]);
  const add = (directive: Directive, sources: string[]) => {
    const now = (merged.get(directive) ?? []).filter((s) => s !== "'none'");
    merged.set(directive, [...now, ...sources.filter((s) => !now.includes(s))]);
  };
  if (opts.nonce) {
    add('script-src', [`'nonce-${opts.nonce}'`]);
    add('style-src', [`'nonce-${opts.nonce}'`]);
  }
  for (const name of Object.keys(PROVIDER_SOURCES) as (keyof typeof PROVIDER_SOURCES)[]) {
    if (!opts.providers[name]) continue;
    for (const [directive, sources] of Object.entries(PROVIDER_SOURCES[name]) as [Directive, string[]][]) add(directive, sources);
  }
  if (opts.providers.mapTiles) add('img-src', [opts.providers.mapTiles]);
  return [...merged].map(([directive, sources]) => `${directive} ${sources.join(' ')}`).join('; ');
}

/** Everything that is not a page: it loads nothing and may not be framed. */
export const NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Browser features: the home page asks for the visitor's location, nothing
 * uses the camera, microphone, sensors and the like. Payment Request (Apple
 * Pay, Google Pay) is allowed only for Stripe's frame, and only with Stripe.
 */
export function permissionsPolicy(providers: Providers): string {
  const features: [string, string][] = [
    ['geolocation', '(self)'],
    ['camera', '()'], ['microphone', '()'], ['display-capture', '()'],
    ['accelerometer', '()'], ['gyroscope', '()'], ['magnetometer', '()'],
    ['usb', '()'], ['serial', '()'], ['hid', '()'], ['midi', '()'],
    ['payment', providers.stripe ? '(self "https://js.stripe.com")' : '()'],
    ['publickey-credentials-get', '()'], ['screen-wake-lock', '()'], ['idle-detection', '()'],
    ['xr-spatial-tracking', '()'], ['encrypted-media', '()'], ['autoplay', '()'],
    ['picture-in-picture', '()'], ['fullscreen', '(self)'], ['browsing-topics', '()'],
  ];
  return features.map(([feature, allow]) => `${feature}=${allow}`).join(', ');
}

/** The nonce of this response's page, made on first use (web.ts puts it on the page's tags). */
export function cspNonce(c: Context): string {
  let nonce = c.get('cspNonce');
  if (!nonce) {
    nonce = randomBytes(16).toString('base64');
    c.set('cspNonce', nonce);
  }
  return nonce;
}

export interface SecurityHeadersOptions {
  /** Providers for a page, read per page (settings can change while the server runs). */
  pageProviders: (c: Context) => Providers | Promise<Providers>;
  /** Providers known at start-up (environment): for Permissions-Policy, and for pages when the settings cannot be read. */
  staticProviders: Providers;
  /** TRUST_PROXY: the proxy's X-Forwarded-Proto tells whether the visitor came over HTTPS. */
  trustProxy?: boolean;
}

/** One year, this host and its subdomains: sent only on answers that came over HTTPS (browsers ignore it otherwise). */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Whether the visitor's request came over HTTPS: a TLS socket, or (behind a trusted proxy) the proxy says so. */
export function cameOverHttps(c: Context, trustProxy: boolean): boolean {
  if (c.req.url.startsWith('https:')) return true;
  if (!trustProxy) return false;
  // The last value is the one the nearest proxy, ours, wrote (as for X-Forwarded-For in clientAddress.ts).
  const proto = c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase();
  return proto === 'https';
}

/** JSON answers made by `apiJson`: their body, status and headers, until the middleware adds the fixed headers. */
const plainAnswers = new WeakMap<Response, { body: string; status: number; headers: Record<string, string> }>();

/**
 * A JSON answer of the API whose security headers are added as one plain object (no Headers object is built and
 * then copied for node): for the calls made most (prices, bookings), where that was a tenth of the work.
 */
export function apiJson(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const body = typeof data === 'string' ? data : JSON.stringify(data);
  const all = { 'content-type': 'application/json', ...headers };
  const res = new Response(body, { status, headers: all });
  plainAnswers.set(res, { body, status, headers: all });
  return res;
}

export function securityHeaders(opts: SecurityHeadersOptions): MiddlewareHandler {
  const permissions = permissionsPolicy(opts.staticProviders);
  const fixed = {
    'Content-Security-Policy': NON_PAGE_POLICY, 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin', 'Permissions-Policy': permissions,
  };
  const trustProxy = opts.trustProxy ?? false;
  return async (c, next) => {
    await next();
    // Answers of the API may carry personal data or a token: no cache, shared or private, keeps them.
    const extra: Record<string, string> = c.req.path.startsWith('/api/') ? { 'Cache-Control': 'no-store' } : {};
    if (cameOverHttps(c, trustProxy)) extra['Strict-Transport-Security'] = HSTS;
    const plain = plainAnswers.get(c.res);
    if (plain) {
      c.res = undefined; // replaced, not merged (merging would build the Headers object this avoids)
      c.res = new Response(plain.body, { status: plain.status, headers: { ...plain.headers, ...fixed, ...extra } });
      return;
    }
    const headers = c.res.headers;
    const isPage = /^text\/html\b/i.test(headers.get('content-type') ?? '');
    let policy = NON_PAGE_POLICY;
    if (isPage) {
      let providers: Providers;
      try {
        providers = await opts.pageProviders(c);
      } catch (err) {
        // No settings (database trouble): the page still works, with no outside services.
        console.error('Security headers: could not read the settings; no outside services allowed on this page:', err);
        providers = opts.staticProviders;
      }
      policy = pagePolicy({ nonce: c.get('cspNonce'), providers });
    }
    headers.set('Content-Security-Policy', policy);
    headers.set('X-Frame-Options', 'DENY');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    headers.set('Permissions-Policy', permissions);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  };
}
