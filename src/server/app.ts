// The HTTP API of SPEC section 7 under /api/v1, as one Hono app.
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bodyStillArriving, closeConnection } from './http/connection';
import { requestLoad } from './http/load';
import { answerError, errorBody } from './http/answers';
import { catalogRoutes } from './catalog/routes';
import { pricingRoutes } from './pricing/routes';
import { bookingRoutes } from './bookings/routes';
import { enquiryRoutes } from './enquiries/routes';
import { authRoutes } from './auth/routes';
import { accountRoutes } from './account/routes';
import { cardRoutes } from './bookings/cardRoutes';
import { webhookRoutes } from './cardEvents/routes';
import { driverRoutes } from './driver/routes';
import { flightRoutes } from './flights/routes';
import { TEST_FLIGHTS_PATH, testFlightsApp } from './flightStatus/testService';
import { smsStatusRoutes } from './smsEvents/smsStatus';
import { operatorRoutes } from './operator/routes';
import { payLinkRoutes } from './bookings/payLinkRoutes';
import { recordsRoutes } from './operator/recordsRoutes';
import { phoneRoutes } from './operator/phoneRoutes';
import { caseworkRoutes } from './operator/caseworkRoutes';
import { accountConsoleRoutes } from './operator/accountRoutes';
import { bookerRoutes } from './accounts/routes';
import { privacyRoutes } from './privacy/routes';
import { manageRoutes } from './manage/routes';
import { GATEWAY_PATH } from './payments/provider';
import { securityHeaders, type Providers } from './http/securityHeaders';
import { loadSettings, type AppDeps, type AppEnv } from './deps';

import { MAP_SETTINGS, tileSource } from '../domain/tracking';

export const MAX_BODY_BYTES = 100 * 1024;

/** The deps, set once for every request that reaches a route: routes read them as `c.var.deps`. */
const provide = (deps: AppDeps): MiddlewareHandler<AppEnv> => (c, next) => {
  c.set('deps', deps);
  return next();
};

function createApiApp(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  // An answer given before the request body has all arrived (a 401 or 503 to a
  // large upload) ends the connection cleanly, so the client's next request
  // goes on a new one instead of being lost (http/connection.ts, closeConnection).
  // The deps are set here too, in the API's first step, rather than by a middleware of their own on every request.
  // Each request is counted while it is answered: the mail queue yields to them under load (http/load.ts).
  api.use('*', async (c, next) => {
    c.set('deps', deps);
    requestLoad.started();
    try {
      await next();
    } finally {
      requestLoad.ended();
    }
    if (bodyStillArriving(c)) closeConnection(c);
  });
  // SPEC 6: every call carries the two key headers.
  api.use('*', async (c, next) => {
    if (c.req.header('API-PUBLIC-KEY') !== deps.apiKeys.public || c.req.header('API-SECRET-KEY') !== deps.apiKeys.secret) {
      return c.json(errorBody('Missing or invalid API keys'), 401);
    }
    await next();
  });
  // The embedded database serves requests in arrival order; while its line is
  // full, a new request gets 503 with Retry-After (db/admission.ts).
  api.use('*', async (_c, next) => {
    deps.db.admit();
    await next();
  });
  // Issue 24: a body is JSON and says so. A plain HTML form on another site can send only form or text bodies, and
  // (with the key headers' preflight, which the API does not grant) this keeps every cross-site form out.
  api.use('*', async (c, next) => {
    const method = c.req.method;
    if ((method === 'POST' || method === 'PATCH' || method === 'PUT') && carriesBody(c.req.header('content-length'), c.req.header('transfer-encoding'))
      && !isJsonType(c.req.header('content-type'))) {
      return c.json(errorBody('Send the request body as JSON, with Content-Type: application/json.'), 415);
    }
    await next();
  });
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    // The rest of the body may still be on its way: never keep this connection.
    onError: (c) => {
      closeConnection(c);
      return c.json(errorBody(`The request body is larger than ${MAX_BODY_BYTES / 1024} kB`), 413);
    },
  });
  // A body with a Content-Length is judged by its headers alone. Hono's bodyLimit reads `c.req.raw.body`, which
  // builds a full WHATWG Request around the node request (a fifth of a price call's CPU); the body is then read
  // straight from the socket by c.req.text(). A chunked body (no length) still goes through bodyLimit.
  api.use('*', (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > MAX_BODY_BYTES ? limitBody(c, next) : next();
    }
    return limitBody(c, next);
  });
  api.route('/', catalogRoutes);
  api.route('/', pricingRoutes);
  api.route('/', bookingRoutes);
  api.route('/', enquiryRoutes);
  api.route('/', authRoutes);
  api.route('/', accountRoutes);
  api.route('/', cardRoutes);
  api.route('/', payLinkRoutes);
  api.route('/', operatorRoutes);
  api.route('/', recordsRoutes);
  api.route('/', phoneRoutes);
  api.route('/', caseworkRoutes);
  api.route('/', accountConsoleRoutes);
  api.route('/', bookerRoutes);
  api.route('/', privacyRoutes);
  api.route('/', manageRoutes);
  api.route('/', driverRoutes);
  api.route('/', flightRoutes);
  api.all('*', (c) => c.json(errorBody(`No such API call: ${c.req.method} ${c.req.path}`), 404));
  api.onError(answerError);
  return api;
}

/** Whether a request has a body: a length above 0, or one sent in chunks. */
const carriesBody = (length: string | undefined, transferEncoding: string | undefined) =>
  transferEncoding !== undefined || (length !== undefined && length.trim() !== '0');

/** application/json, with or without parameters (`; charset=utf-8`). */
export const isJsonType = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type?.trim() ?? '');

/** The site: its API and, with `web`, its pages; `extra` are doors mounted first (the admin door, the tests' door). */
export function createApp(deps: AppDeps, web?: Hono, ...extra: (Hono | undefined)[]) {
  const app = new Hono<AppEnv>();
  // Security headers on every answer (pages, assets, API, errors, 404s). Stripe is
  // configured at start-up (the local test gateway's Stripe.js comes from this site
  // and needs nothing more); Google Maps by a setting that can change at run time,
  // so a page's policy reads the (cached) settings each time.
  const fixed: Providers = { googleMaps: false, stripe: deps.cards.standInScript === null };
  app.use('*', securityHeaders({
    staticProviders: fixed, trustProxy: deps.security.trustProxy,
    pageProviders: async () => {
      const settings = await loadSettings(deps.db);
      return { ...fixed, googleMaps: Boolean(settings.GOOGLE_API_KEY?.trim()), mapTiles: tileSource(settings[MAP_SETTINGS.url]) };
    },
  }));
  for (const door of extra) if (door) app.route('/', door);
  // The provider's events: signed, so outside the API-key check (bookings/cardRoutes.ts).
  app.use('/api/v1/stripe/*', provide(deps));
  app.route('/api/v1', webhookRoutes);
  // Twilio's delivery reports: signed, so outside the API-key check too (issue 41).
  app.use('/api/v1/sms/*', provide(deps));
  app.route('/api/v1', smsStatusRoutes);
  // The local test gateway, when it is the card provider: the card page's Stripe.js stand-in and its API.
  if (deps.cards.gateway) app.route(GATEWAY_PATH, deps.cards.gateway.app);
  // With Stripe configured there is no test gateway: its paths are not found (not the site's page either).
  else app.all(`${GATEWAY_PATH}/*`, (c) => c.json(errorBody('Not found'), 404));
  // The local test flight service, when it is the one in use (issue 42): its scripting door; else not found.
  if (deps.flights?.provider === 'test') app.route(TEST_FLIGHTS_PATH, testFlightsApp(deps.db));
  else app.all(`${TEST_FLIGHTS_PATH}/*`, (c) => c.json(errorBody('Not found'), 404));
  app.route('/api/v1', createApiApp(deps));
  if (web) app.route('/', web);
  return app;
}
