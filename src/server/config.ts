// Configuration: environment variables, each with a safe local default (README lists them).
import path from 'node:path';
import { parseQueueLimit } from './db/admission';
import { parseLimits, type Limits } from './limits';
import { siteUrl } from './startup';

export interface Config {
  port: number;
  /** The address to listen on (HOST); unset: every interface. */
  host?: string;
  /** The site's address as people open it (SITE_URL), for links in e-mails; unset: where this server listens. */
  siteUrl: string;
  dataDir: string;
  databaseUrl?: string;
  apiPublicKey: string;
  apiSecretKey: string;
  smtpUrl?: string;
  mailFrom?: string;
  googleMapsServerKey?: string;
  googleMapsBaseUrl?: string;
  osrmUrl?: string;
  /** HMAC key for reset codes (SERVER_SECRET); unset: a random one kept in DATA_DIR/server-secret. */
  serverSecret?: string;
  /** scrypt cost as log2(N) for new password hashes (PASSWORD_HASH_COST, default 17). */
  passwordHashCost: number;
  /** Take the client address from X-Forwarded-For (TRUST_PROXY=1) instead of the socket. */
  trustProxy: boolean;
  /**
   * Twilio for texts (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM; TWILIO_API_URL for a stand-in in tests); unset:
   * each text is a file in DATA_DIR/sms (issue 41).
   */
  twilio?: { accountSid: string; authToken: string; from: string; apiUrl?: string };
  /**
   * The flight status service (issue 42): FlightAware AeroAPI with AEROAPI_KEY (AEROAPI_URL for a stand-in); else the
   * local test flight service (FLIGHT_STATUS=test, the default but in production) or none (FLIGHT_STATUS=none).
   */
  flights: { service: 'aeroapi'; key: string; url?: string } | { service: 'test' | 'none' };
  /** Seconds between the flight watcher's rounds (FLIGHT_WATCH_SECONDS, default 60); each flight keeps its own interval. */
  flightWatchSeconds: number;
  /** Stripe's publishable key (STRIPE_PUBLISHABLE_KEY); set: pages may load Stripe.js (card payments). */
  stripePublishableKey?: string;
  /** Stripe's secret key (STRIPE_SECRET_KEY). With neither key set, card payments use the local test gateway. */
  stripeSecretKey?: string;
  /** The signing secret of the site's Stripe webhook endpoint (STRIPE_WEBHOOK_SECRET, whsec_...). */
  stripeWebhookSecret?: string;
  /** Where the Stripe SDK sends its calls (STRIPE_API_URL, e.g. http://127.0.0.1:12111): for tests against a stand-in. */
  stripeApiUrl?: string;
  /** Embedded database: operations that may wait for it before new API requests get 503 (DB_QUEUE_LIMIT, default 200). */
  dbQueueLimit: number;
  /** Live pages (Server-Sent Events) open at once in a process: per link or member of staff, per client address, in all (issue 41). */
  liveStreams: { perOwner: number; perAddress: number; total: number };
  /** STEP_TIMING: a file the time of each step of a booking, of the mail sender and of each statement is written to at the stop (timing.ts). */
  stepTiming?: string;
  /** Days an expired (never paid) card booking keeps its personal data (PENDING_RETENTION_DAYS, default 7). */
  pendingRetentionDays: number;
  /** Days a message stays in DATA_DIR/outbox after it was written there (OUTBOX_RETENTION_DAYS, default 30). */
  outboxRetentionDays: number;
  /** NODE_ENV=production without Stripe keys, and CARD_GATEWAY=test set on purpose: the start line says so. */
  testGatewayInProduction: boolean;
  /** Allowances per client address, recipient and booking (limits.ts), with RATE_LIMITS' changes. */
  rateLimits: Limits;
  /**
   * NODE_ENV=production: a server for customers. Its new database gets no demo sign-ins or bookings, it refuses to start
   * while a README demo password signs anyone in, and its staff cookie is Secure (decision 47).
   */
  production: boolean;
  /** How long a console session lasts (STAFF_SESSION_HOURS, STAFF_IDLE_MINUTES) and how its cookie is sent. */
  staffSession: StaffSessionConfig;
}

export interface StaffSessionConfig {
  /** Hours from sign-in after which a session ends, however it is used. */
  hours: number;
  /** Minutes without a person's call after which it ends (the board's background poll is no use). */
  idleMinutes: number;
  /** The cookie is Secure and `__Host-` prefixed (production), whatever the request came over. */
  secureCookie: boolean;
}

/** NIST SP 800-63B's reauthentication for AAL2: 12 hours after sign-in, 30 minutes unused. */
export const DEFAULT_STAFF_SESSION_HOURS = 12;
export const DEFAULT_STAFF_IDLE_MINUTES = 30;
export const DEFAULT_STAFF_SESSION: StaffSessionConfig = {
  hours: DEFAULT_STAFF_SESSION_HOURS, idleMinutes: DEFAULT_STAFF_IDLE_MINUTES, secureCookie: false,
};

/** scrypt N = 2^17 with r = 8, p = 1: current guidance for interactive logins. */
export const DEFAULT_PASSWORD_HASH_COST = 17;

/** How long an expired, never paid card booking keeps its passenger's details. */
export const DEFAULT_PENDING_RETENTION_DAYS = 7;

/** How long a sent message stays in the outbox folder. */
export const DEFAULT_OUTBOX_RETENTION_DAYS = 30;

export const DEFAULT_API_PUBLIC_KEY = 'local-public-key';
export const DEFAULT_API_SECRET_KEY = 'local-secret-key';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = portNumber(env.PORT);
  const host = env.HOST?.trim() || undefined;
  return {
    port,
    host,
    siteUrl: publicUrl(env.SITE_URL, port, host),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    apiPublicKey: env.API_PUBLIC_KEY || DEFAULT_API_PUBLIC_KEY,
    apiSecretKey: env.API_SECRET_KEY || DEFAULT_API_SECRET_KEY,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    googleMapsServerKey: env.GOOGLE_MAPS_SERVER_KEY || undefined,
    googleMapsBaseUrl: env.GOOGLE_MAPS_BASE_URL || undefined,
    osrmUrl: env.OSRM_URL || undefined,
    serverSecret: env.SERVER_SECRET || undefined,
    stepTiming: env.STEP_TIMING ? path.resolve(env.STEP_TIMING) : undefined,
    passwordHashCost: hashCost(env.PASSWORD_HASH_COST),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    ...stripeKeys(env),
    twilio: twilioSettings(env),
    flights: flightService(env),
    flightWatchSeconds: wholeNumber('FLIGHT_WATCH_SECONDS', env.FLIGHT_WATCH_SECONDS, 60, 1, 3600, 'seconds'),
    dbQueueLimit: parseQueueLimit(env.DB_QUEUE_LIMIT),
    liveStreams: {
      perOwner: wholeNumber('LIVE_STREAMS_PER_OWNER', env.LIVE_STREAMS_PER_OWNER, 5, 1, 100_000, 'streams'),
      perAddress: wholeNumber('LIVE_STREAMS_PER_ADDRESS', env.LIVE_STREAMS_PER_ADDRESS, 100, 1, 100_000, 'streams'),
      total: wholeNumber('LIVE_STREAMS_TOTAL', env.LIVE_STREAMS_TOTAL, 5_000, 1, 100_000, 'streams'),
    },
    rateLimits: parseLimits(env.RATE_LIMITS),
    pendingRetentionDays: wholeDays('PENDING_RETENTION_DAYS', env.PENDING_RETENTION_DAYS, DEFAULT_PENDING_RETENTION_DAYS),
    outboxRetentionDays: wholeDays('OUTBOX_RETENTION_DAYS', env.OUTBOX_RETENTION_DAYS, DEFAULT_OUTBOX_RETENTION_DAYS),
    production: env.NODE_ENV === 'production',
    staffSession: staffSession(env),
  };
}

function staffSession(env: NodeJS.ProcessEnv): StaffSessionConfig {
  const hours = wholeNumber('STAFF_SESSION_HOURS', env.STAFF_SESSION_HOURS, DEFAULT_STAFF_SESSION_HOURS, 1, 24, 'hours');
  // Idle longer than the session itself would mean nothing.
  const idleMinutes = wholeNumber('STAFF_IDLE_MINUTES', env.STAFF_IDLE_MINUTES, DEFAULT_STAFF_IDLE_MINUTES, 5, hours * 60, 'minutes');
  return { hours, idleMinutes, secureCookie: env.NODE_ENV === 'production' };
}

function wholeNumber(name: string, value: string | undefined, fallback: number, min: number, max: number, unit: string): number {
  if (!value?.trim()) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be a whole number of ${unit} from ${min} to ${max}, not "${value}"`);
  return n;
}

const TWILIO_VARS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;

/** Twilio needs its account, token and sender; none means the SMS folder; some but not all is a mistake to stop on. */
function twilioSettings(env: NodeJS.ProcessEnv): Config['twilio'] {
  const set = TWILIO_VARS.filter((k) => env[k]?.trim());
  if (!set.length) return undefined;
  if (set.length < TWILIO_VARS.length) {
    throw new Error(`Texts through Twilio need ${TWILIO_VARS.join(', ')}; missing: ${TWILIO_VARS.filter((k) => !env[k]?.trim()).join(', ')}. Set all three, or none for the SMS folder.`);
  }
  if (!/^AC[0-9a-fA-F]{32}$/.test(env.TWILIO_ACCOUNT_SID!.trim())) throw new Error('TWILIO_ACCOUNT_SID is AC followed by 32 hexadecimal digits');
  return {
    accountSid: env.TWILIO_ACCOUNT_SID!.trim(), authToken: env.TWILIO_AUTH_TOKEN!.trim(), from: env.TWILIO_FROM!.trim(),
    apiUrl: env.TWILIO_API_URL?.trim() || undefined,
  };
}

/**
 * AEROAPI_KEY chooses AeroAPI. Without it the test service, scripted by anyone who can reach it: a production server
 * runs it only when FLIGHT_STATUS=test says so, and otherwise follows no flights (the numbers stay text).
 */
function flightService(env: NodeJS.ProcessEnv): Config['flights'] {
  const chosen = env.FLIGHT_STATUS?.trim() || undefined;
  if (chosen && !['aeroapi', 'test', 'none'].includes(chosen)) throw new Error(`FLIGHT_STATUS must be aeroapi, test or none, not "${chosen}"`);
  const key = env.AEROAPI_KEY?.trim();
  if (chosen === 'aeroapi' || (!chosen && key)) {
    if (!key) throw new Error('FLIGHT_STATUS=aeroapi needs AEROAPI_KEY, the key of your FlightAware AeroAPI account.');
    const url = env.AEROAPI_URL?.trim() || undefined;
    // The key goes with every call: in production only over https.
    if (url && env.NODE_ENV === 'production' && !/^https:\/\//i.test(url)) throw new Error(`AEROAPI_URL must be https in production, not "${url}"`);
    return { service: 'aeroapi', key, url };
  }
  if (chosen === 'test' || chosen === 'none') return { service: chosen };
  return { service: env.NODE_ENV === 'production' ? 'none' : 'test' };
}

const STRIPE_VARS = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;

/** Stripe needs all three keys; none means the local test gateway; some but not all is a mistake to stop on. */
function stripeKeys(env: NodeJS.ProcessEnv) {
  const set = STRIPE_VARS.filter((k) => env[k]);
  if (set.length && set.length < STRIPE_VARS.length) {
    throw new Error(`Card payments with Stripe need ${STRIPE_VARS.join(', ')}; missing: ${STRIPE_VARS.filter((k) => !env[k]).join(', ')}. Set all three, or none for the local test gateway.`);
  }
  // Issue 24: a production deployment that forgot its keys must not quietly take test cards as payments.
  if (!set.length && env.NODE_ENV === 'production' && env.CARD_GATEWAY !== 'test') {
    throw new Error('NODE_ENV is production but no Stripe keys are set: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and '
      + 'STRIPE_WEBHOOK_SECRET, or CARD_GATEWAY=test to take test payments on purpose.');
  }
  return {
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    testGatewayInProduction: !set.length && env.NODE_ENV === 'production',
  };
}

/** SITE_URL: http(s), a host, perhaps a port and a path; kept without a trailing slash. */
function publicUrl(value: string | undefined, port: number, host: string | undefined): string {
  if (!value?.trim()) return siteUrl(port, host);
  let url: URL | null = null;
  try { url = new URL(value.trim()); } catch { /* refused below */ }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
    throw new Error(`SITE_URL must be the site's address, such as https://bookings.example.co.uk, not "${value}"`);
  }
  return url.href.replace(/\/+$/, '');
}

function portNumber(value: string | undefined): number {
  if (!value?.trim()) return 8080;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`PORT must be a whole number from 1 to 65535, not "${value}"`);
  return n;
}

function wholeDays(name: string, value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3650) throw new Error(`${name} must be a whole number of days from 1 to 3650, not "${value}"`);
  return n;
}

function hashCost(value: string | undefined): number {
  if (!value) return DEFAULT_PASSWORD_HASH_COST;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 20) throw new Error(`PASSWORD_HASH_COST must be a whole number from 10 to 20, not "${value}"`);
  return n;
}
