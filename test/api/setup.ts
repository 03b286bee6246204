// One database per test file (in-memory PGlite started from the run's seeded image, or the PostgreSQL server named
// by API_TEST_DATABASE_URL, set by scripts/test-pg.mjs), migrated and seeded as `npm start` does; mail captured in
// memory.
import { testFlightService } from '../../src/server/flightStatus/testService';
import type { FlightStatusService } from '../../src/server/flightStatus/service';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openDb, type Db } from '../../src/server/db/index';
import { openPglite } from '../../src/server/db/pglite';
import { loadConfig } from '../../src/server/config';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';
import { createApp } from '../../src/server/app';
import { estimateDistance, type DistanceService } from '../../src/server/geo/distance';
import { MailQueue } from '../../src/server/mail/queue';
import type { MailTransport, OutgoingMessage } from '../../src/server/mail/transport';
import { cardProviderFromConfig, type CardProvider } from '../../src/server/payments/provider';
import type { WebhookDelivery } from '../../src/server/testGateway/webhooks';
import { DEFAULT_LIMITS, type Limits } from '../../src/server/limits';
import type { Queryable } from '../../src/server/db/index';
import { saveCar, saveDriver } from '../../src/server/operator/fleetRecords';
import { renderStored } from '../../src/server/mail/templates';
import { referenceSettings } from '../../src/server/reference/referenceData';

/**
 * The per-address allowances a thousand times over: the API files book, write and pay many times from one address and
 * to one recipient, as many visitors would. test/unit/allowances.test.ts checks the real numbers (DEFAULT_LIMITS).
 */
export const ROOMY_LIMITS = Object.fromEntries(Object.entries(DEFAULT_LIMITS).map(([name, l]) => [name, { ...l, max: l.max * 1000 }])) as Limits;

/** Cheap password hashing for tests (production default is 2^17); a fixed HMAC key. */
export const TEST_SECURITY = { secret: Buffer.from('test-server-secret'), passwordHashCost: 10, trustProxy: true, limits: ROOMY_LIMITS };

export const KEYS = { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret' };

export interface StoredMessage {
  id: number; to_address: string; cc_address: string | null; reply_to: string | null; subject: string; body_text: string; body_html: string;
  status: string; erase_after_send: boolean;
}

/**
 * A booking's messages of one kind, oldest first, as the sender hands them over: one written as a template and its data
 * (a booking's confirmation and the office's notice, issue 40) rendered as the mail queue renders it.
 */
export async function storedMessages(db: Queryable, bookingId: number, kind: string): Promise<StoredMessage[]> {
  const rows = await db.query<StoredMessage & { template: string | null; template_data: string | null }>(
    `SELECT id, to_address, cc_address, reply_to, subject, body_text, body_html, status, erase_after_send, template, template_data
       FROM outbound_emails WHERE booking_id = $1 AND kind = $2 ORDER BY id`, [bookingId, kind]);
  const settings = await referenceSettings(db);
  return rows.map(({ template, template_data: data, ...row }) => {
    if (!template) return row;
    const m = renderStored(template, data ?? '', settings);
    return { ...row, subject: m.subject, body_text: m.text, body_html: m.html };
  });
}

/** The site's address in the e-mails of the API tests. */
export const TEST_SITE_URL = 'https://bookings.example.co.uk';

export function memoryTransport() {
  const sent: OutgoingMessage[] = [];
  let failWith: string | null = null;
  const transport: MailTransport = {
    description: 'memory',
    async send(m) {
      if (failWith) throw new Error(failWith);
      sent.push(m);
    },
  };
  return { transport, sent, fail: (reason: string | null) => { failWith = reason; } };
}

/** The local test gateway as the card provider, in process; its webhooks go to `deliver` (none by default). */
export function localCards(db: Db, deliver: WebhookDelivery | null = null): CardProvider {
  return cardProviderFromConfig({}, { db, secret: TEST_SECURITY.secret, deliverWebhook: deliver });
}

let schemaCounter = 0;

export async function openTestDb(): Promise<Db> {
  const url = process.env.API_TEST_DATABASE_URL;
  if (!url) return openDb({});
  // Each file gets its own schema on the shared server, so files can run in parallel.
  const schema = `t${process.pid}_${++schemaCounter}_${Date.now()}`;
  const admin = await openDb({ databaseUrl: url });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const sep = url.includes('?') ? '&' : '?';
  return openDb({ databaseUrl: `${url}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}` });
}

/** A database migrated and seeded as `npm start` leaves it: from the run's image (./globalSetup.ts), else made here. */
export async function seededTestDb(): Promise<Db> {
  const image = inject('seededPglite');
  if (image) return openPglite(undefined, { image: new Blob([readFileSync(image)]), queueLimit: loadConfig().dbQueueLimit });
  const db = await openTestDb();
  await migrate(db);
  await seedIfEmpty(db, TEST_SECURITY.passwordHashCost);
  return db;
}

/** An app on a fresh seeded database, or on `db` (already migrated and seeded) to share one between apps of a file. */
export async function testApp(opts: {
  distance?: DistanceService; db?: Db; cards?: (db: Db) => CardProvider; limits?: Limits; smsReports?: { authToken: string };
  /** The flight status service (issue 42); unset: the local test service, as a server without AeroAPI's key has. */
  flights?: (db: Db) => FlightStatusService | null;
} = {}) {
  const db = opts.db ?? await seededTestDb();
  const mailbox = memoryTransport();
  const mail = new MailQueue(db, mailbox.transport, async () => 'bookings@albion-executive.co.uk', () => {});
  const clock = { now: new Date() };
  // The gateway's webhooks reach this app's endpoint, as Stripe's reach the site's.
  const toSite: WebhookDelivery = async (payload, signature) => (await app.request('/api/v1/stripe/webhook', {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload,
  })).ok;
  const app: ReturnType<typeof createApp> = createApp({
    cards: opts.cards?.(db) ?? localCards(db, toSite),
    db, distance: opts.distance ?? estimateDistance, mail: { kick: () => {} },
    apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] }, now: () => clock.now, siteUrl: TEST_SITE_URL,
    security: { ...TEST_SECURITY, limits: opts.limits ?? TEST_SECURITY.limits }, smsReports: opts.smsReports ?? null,
    flights: opts.flights ? opts.flights(db) : testFlightService(db),
  });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.request(`/api/v1${path}`, {
      method,
      headers: { ...KEYS, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try { json = JSON.parse(text); } catch { json = text; }
    // The headers are there to read, but not enumerable, so `toEqual({ status, body })` still compares the answer alone.
    const answer = { status: res.status, body: json } as { status: number; body: any; headers: Record<string, string> };
    Object.defineProperty(answer, 'headers', { value: Object.fromEntries(res.headers), enumerable: false });
    return answer;
  };
  return { app, db, call, mail, mailbox, clock };
}

/** Paddington to Heathrow T3, early morning: a trip every vehicle is priced for. */
export const PADDINGTON_TO_HEATHROW = {
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 3, Hounslow TW6 1QG',
  pickup_date: '2030-03-14', pickup_hour: '6am', pickup_min: '30', passengers: 1, luggages: 2,
};

/** Heathrow T5 to Trafalgar Square: 20.4 estimated miles, well outside the grace period. */
export const HEATHROW_TO_TRAFALGAR = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 2,
};

let recorded = 0;
/**
 * A driver and a car of `companyName` on record (issue 41), licensed, MOT'd and insured to 2035 so any test booking
 * may take them, each with a new mobile (07800 ...) and registration; `name` and the car's `passengers` may be given. Their ids.
 */
export async function recordDriverAndCar(db: Queryable, companyName: string, opts: { name?: string; passengers?: number } = {}) {
  const [company] = await db.query<{ id: number }>('SELECT id FROM companies WHERE company_name = $1', [companyName]);
  const [type] = await db.query<{ id: number }>("SELECT id FROM vehicle_types WHERE category_name = 'Saloon'");
  // Unique across test files sharing one database (test:pg): a random number each, not a count per file.
  const n = ++recorded;
  const unique = `${process.pid % 1000}${n}${Math.floor(Math.random() * 1e6)}`.slice(-6).padStart(6, '0');
  const letters = (k: number) => Array.from({ length: k }, () => 'ABCDEFGHJKLMNPRSTUVWXY'[Math.floor(Math.random() * 22)]).join('');
  const driver = await saveDriver(db, null, null, {
    name: opts.name ?? `Test Driver ${n}`, mobile: `07800 ${unique}`, email: '', licence_number: `T${unique}${letters(2)}`,
    licensing_authority: 'Transport for London', licence_expiry: '2035-12-31', company_id: String(company.id), active: 'yes',
  });
  const car = await saveCar(db, null, null, {
    registration: `${letters(2)}${unique.slice(-2)} ${letters(3)}`, make: 'Mercedes-Benz', model: 'E-Class', colour: 'Black', vehicle_type_id: String(type.id),
    passengers: String(opts.passengers ?? 4), suitcases: '2', wheelchair: 'no', licence_number: `PHV ${unique}${letters(2)}`, licence_expiry: '2035-12-31',
    mot_expiry: '2035-12-31', insurance_expiry: '2035-12-31', company_id: String(company.id), active: 'yes',
  });
  return { driver_id: String(driver.id), car_id: String(car.id), name: driver.driver.name, registration: car.car.registration };
}

/**
 * A second server process's database, for the tests of two processes at once: on PostgreSQL (test:pg) a pool of its
 * own on the same database and schema as `db`; on PGlite (one database in this process) `db` itself. Close it with
 * `closeSecond`.
 */
export async function secondProcessDb(db: Db): Promise<Db> {
  const postgres = process.env.API_TEST_DATABASE_URL;
  if (!postgres) return db;
  // openTestDb gave the file a schema of its own on the server: the second pool opens the same one.
  const [{ schema }] = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  return openDb({ databaseUrl: `${postgres}${postgres.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` });
}
export const closeSecond = async (second: Db | undefined, db: Db) => { if (second && second !== db) await second.close(); };
