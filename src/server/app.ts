// The HTTP API of SPEC section 7 under /api/v1, as one Hono app.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Db, Queryable } from './db/index';
import type { DistanceService } from './geo/distance';
import { UnknownPlaceError } from './geo/places';
import { HttpError } from './http';
import type { MailQueue } from './mail/queue';
import { catalogRoutes } from './routes/catalog';
import { pricingRoutes } from './routes/pricing';
import { bookingRoutes } from './routes/bookings';
import { passengerRoutes } from './routes/passengers';
import { enquiryRoutes } from './routes/enquiries';
import { authRoutes } from './routes/auth';
import type { Settings } from '../domain/settings';
import { reference } from './referenceData';

export interface AppDeps {
  db: Db;
  distance: DistanceService;
  mail: Pick<MailQueue, 'kick'>;
  apiKeys: { public: string; secret: string };
  now: () => Date;
  security: SecurityConfig;
}

/** What the sign-in and reset-code checks need from the configuration. */
export interface SecurityConfig {
  /** HMAC key for reset-code hashes. */
  secret: Buffer;
  /** scrypt cost (log2 N) for new password hashes. */
  passwordHashCost: number;
  /** Read the client address from X-Forwarded-For (behind a trusted proxy). */
  trustProxy: boolean;
}

export const MAX_BODY_BYTES = 100 * 1024;

export async function loadSettings(db: Queryable): Promise<Settings> {
  return (await reference(db)).settings;
}

/** Where operator mail goes: Company_Email, else FROM_EMAIL. */
export function operatorEmail(s: Settings): string {
  return s.Company_Email?.trim() || s.FROM_EMAIL?.trim() || 'bookings@localhost';
}

/** Error bodies carry `message` and, as SPEC 7's contact call reads it, `error`; `field` names the culprit. */
const errorBody = (message: string, field?: string) => ({ success: false as const, message, error: message, field });

export function createApiApp(deps: AppDeps) {
  const api = new Hono();
  // SPEC 6: every call carries the two key headers.
  api.use('*', async (c, next) => {
    if (c.req.header('API-PUBLIC-KEY') !== deps.apiKeys.public || c.req.header('API-SECRET-KEY') !== deps.apiKeys.secret) {
      return c.json(errorBody('Missing or invalid API keys'), 401);
    }
    await next();
  });
  api.use('*', bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(errorBody(`The request body is larger than ${MAX_BODY_BYTES / 1024} kB`), 413),
  }));
  api.route('/', catalogRoutes(deps));
  api.route('/', pricingRoutes(deps));
  api.route('/', passengerRoutes(deps));
  api.route('/', bookingRoutes(deps));
  api.route('/', enquiryRoutes(deps));
  api.route('/', authRoutes(deps));
  api.all('*', (c) => c.json(errorBody(`No such API call: ${c.req.method} ${c.req.path}`), 404));
  api.onError((err, c) => {
    if (err instanceof HttpError) return c.json(errorBody(err.message, err.field), err.status);
    if (err instanceof UnknownPlaceError) return c.json(errorBody(err.message, err.field), 422);
    console.error(`${c.req.method} ${c.req.path} failed:`, err);
    return c.json(errorBody('Something went wrong on our side. Please try again or call us.'), 500);
  });
  return api;
}

export function createApp(deps: AppDeps, web?: Hono, testAdmin?: Hono) {
  const app = new Hono();
  if (testAdmin) app.route('/', testAdmin);
  app.route('/api/v1', createApiApp(deps));
  if (web) app.route('/', web);
  return app;
}
