// The HTTP API of SPEC section 7 under /api/v1, as one Hono app.
import { Hono } from 'hono';
import type { Db, Queryable } from './db/index';
import type { DistanceService } from './geo/distance';
import { UnknownPlaceError } from './geo/places';
import { HttpError } from './http';
import { catalogRoutes } from './routes/catalog';
import { pricingRoutes } from './routes/pricing';
import { bookingRoutes } from './routes/bookings';
import { settingsFromList, type Settings } from '../domain/settings';

export interface AppDeps {
  db: Db;
  distance: DistanceService;
  apiKeys: { public: string; secret: string };
}

export async function loadSettings(db: Queryable): Promise<Settings> {
  return settingsFromList(await db.query('SELECT setting_name, setting_value FROM settings'));
}

export function createApiApp(deps: AppDeps) {
  const api = new Hono();
  // SPEC 6: every call carries the two key headers.
  api.use('*', async (c, next) => {
    if (c.req.header('API-PUBLIC-KEY') !== deps.apiKeys.public || c.req.header('API-SECRET-KEY') !== deps.apiKeys.secret) {
      return c.json({ success: false, message: 'Missing or invalid API keys' }, 401);
    }
    await next();
  });
  api.route('/', catalogRoutes(deps));
  api.route('/', pricingRoutes(deps));
  api.route('/', bookingRoutes(deps));
  api.all('*', (c) => c.json({ success: false, message: `No such API call: ${c.req.method} ${c.req.path}` }, 404));
  api.onError((err, c) => {
    if (err instanceof HttpError) return c.json({ success: false, message: err.message, field: err.field }, err.status);
    if (err instanceof UnknownPlaceError) return c.json({ success: false, message: err.message, field: err.field }, 422);
    console.error(`${c.req.method} ${c.req.path} failed:`, err);
    return c.json({ success: false, message: 'Something went wrong on our side. Please try again or call us.' }, 500);
  });
  return api;
}

export function createApp(deps: AppDeps, web?: Hono) {
  const app = new Hono();
  app.route('/api/v1', createApiApp(deps));
  if (web) app.route('/', web);
  return app;
}
