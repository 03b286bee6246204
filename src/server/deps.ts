// What every route is given: the database, the outside services and the
// configuration (AppDeps), set once per request as the typed Hono variable
// `deps` (AppEnv: `c.var.deps`), and the settings readers the routes share.
// Routes import this module, never app.ts, so the app and its routes do not
// import each other.
import type { Db, Queryable } from './db/index';
import type { DistanceService } from './geo/distance';
import type { FlightStatusService } from './flightStatus/service';
import type { MailQueue } from './mail/queue';
import type { Settings } from '../domain/settings';
import { referenceSettings } from './reference/referenceData';
import type { CardProvider } from './payments/provider';
import type { Limits } from './limits';
import type { StaffSessionConfig } from './config';

export interface AppDeps {
  db: Db;
  distance: DistanceService;
  mail: Pick<MailQueue, 'kick'>;
  apiKeys: { public: string; secret: string };
  now: () => Date;
  /** The site's address as people open it (SITE_URL), for links in e-mails. */
  siteUrl: string;
  security: SecurityConfig;
  /** Card payments: Stripe, or the local test gateway (payments/provider.ts). */
  cards: CardProvider;
  /** Twilio's auth token, to check its delivery reports (smsEvents/smsStatus.ts); none without Twilio (issue 41). */
  smsReports?: { authToken: string } | null;
  /** The flight status service (issue 42): AeroAPI, the local test service, or none (flights/service.ts). */
  flights?: FlightStatusService | null;
}

/** The Hono environment of every route: `c.var.deps`. */
export interface AppEnv { Variables: { deps: AppDeps } }

/** What the sign-in and reset-code checks need from the configuration. */
export interface SecurityConfig {
  /** HMAC key for reset-code hashes. */
  secret: Buffer;
  /** scrypt cost (log2 N) for new password hashes. */
  passwordHashCost: number;
  /** Read the client address from X-Forwarded-For (behind a trusted proxy). */
  trustProxy: boolean;
  /** Allowances per client address, recipient and booking (limits.ts). */
  limits: Limits;
  /** Console sessions' lifetime and cookie (config.ts); unset: the defaults, a cookie Secure only over HTTPS. */
  staffSession?: StaffSessionConfig;
  /** Live pages open at once in this process, per link or member of staff, per client address, in all (live/sse.ts); unset: its defaults. */
  liveStreams?: { perOwner: number; perAddress: number; total: number };
}

export async function loadSettings(db: Queryable): Promise<Settings> {
  return referenceSettings(db);
}
