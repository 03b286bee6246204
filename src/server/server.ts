// The site's server: one process serving the website and /api/v1 on one port. `npm start` runs it (./main.ts);
// the browser tests run it with their admin door added (test/e2e/server.ts).
// What stops it from starting (a setting, the port, a data folder another server has, a demo password in production)
// is one line on stderr and exit code 1 (startup.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Db } from './db/index';
import { loadConfig, type Config } from './config';
import { createApp } from './app';
import { webApp } from './http/web';
import { buildSpa, spaIsStale } from './spaBuild';
import { openRuntime, type Runtime } from './runtime';
import { claimDataDir } from './dataLock';
import { keepNewFilesPrivate, makeTreePrivate } from './privateData';
import { removeOldOutboxFiles } from './mail/transport';
import { loadServerSecret } from './auth/secret';
import { cardProviderFromConfig } from './payments/provider';
import { reconcileCardBookings } from './cardEvents/cardEvents';
import { loadSettings } from './deps';
import { purgeExpiredRecords } from './operator/retention';
import { issueAccountInvoices } from './accounts/invoiceRun';
import { previousMonth } from '../domain/accounts';
import { ukToday } from '../domain/ukTime';
import { expireUnpaidCardBookings } from './bookings/unpaidBookings';
import { removeExpiredPersonalData, removeUnpaidPersonalData } from './privacy/job';
import { listening, listeningOn, refusalLine, siteUrl } from './startup';
import { adminDoorApp, newDoorSecret, openDoor } from './operator/adminDoor';
import { demoSignInRefusal, findDemoSignIns } from './operator/demoAccounts';
import type { AddressInfo } from 'node:net';
import { startTiming, writeTiming } from './timing';
import { FlightWatcher } from './flights/watcher';
import { seedDemoFlights } from './flightStatus/testService';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const distDir = path.join(root, 'dist');

/** What was opened so far, closed again when the start is refused half way. */
const opened: { runtime?: Runtime; release?: () => void } = {};

async function refuse(err: unknown): Promise<never> {
  process.stderr.write(`${refusalLine(err)}\n`);
  await opened.runtime?.db.close().catch(() => {});
  opened.release?.();
  process.exit(1);
}

async function openData(config: Config): Promise<Runtime> {
  // Everything written from here on (database, outbox, lock) is this user's alone; the build above stays readable.
  keepNewFilesPrivate();
  opened.release = config.databaseUrl ? () => {} : claimDataDir(config.dataDir);
  try {
    opened.runtime = await openRuntime(config);
  } catch (err) {
    const where = config.databaseUrl ? `PostgreSQL at ${safeHost(config.databaseUrl)} (DATABASE_URL)` : `${config.dataDir}/pglite`;
    throw new Error(`could not open the database, ${where}: ${(err as Error).message}`);
  }
  return opened.runtime;
}

/** host:port of a database URL, without its user and password. */
function safeHost(url: string): string {
  try { return new URL(url).host || 'a local socket'; } catch { return 'an unreadable DATABASE_URL'; }
}

export interface ServeOptions {
  /** Routes only the browser tests mount (their admin door), given the open database. */
  testRoutes?: (db: Db) => Hono;
}

/** Starts the site; what stops it from starting is one line on stderr and exit code 1. */
export function serveSite(options: ServeOptions = {}): Promise<void> {
  return start(options).catch(refuse);
}

async function start(options: ServeOptions) {
  const config = loadConfig();
  if (config.stepTiming) startTiming();
  if (process.env.SKIP_SPA_BUILD !== '1' && spaIsStale(root, distDir)) buildSpa(root, distDir);
  const { db, distance, mail, flights, log } = await openData(config);
  log.forEach((line) => console.log(line));
  // Issue 39: a server for customers never opens with a README password that still signs someone in (decision 47).
  if (config.production) {
    const refusal = demoSignInRefusal(await findDemoSignIns(db));
    if (refusal) throw new Error(refusal);
  }
  await mail.start();

  const keys = { public: config.apiPublicKey, secret: config.apiSecretKey };
  const security = {
    secret: loadServerSecret(config), passwordHashCost: config.passwordHashCost, trustProxy: config.trustProxy, limits: config.rateLimits,
    staffSession: config.staffSession, liveStreams: config.liveStreams,
  };
  // The local test gateway's webhooks reach the site's endpoint in this process, as Stripe's would over the network.
  const cards = cardProviderFromConfig(config, {
    db, secret: security.secret,
    deliverWebhook: async (payload, signature) => (await app.request('/api/v1/stripe/webhook', {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload,
    })).ok,
  });
  const doorSecret = config.databaseUrl ? null : newDoorSecret();
  const app = createApp(
    {
      db, distance, mail, apiKeys: keys, now: () => new Date(), siteUrl: config.siteUrl, security, cards, flights,
      smsReports: config.twilio ? { authToken: config.twilio.authToken } : null,
    },
    webApp({
      // WEB_DIST_DIR: another build to serve (npm run bench:web builds into its own folder, never into dist).
      distDir: process.env.WEB_DIST_DIR || distDir, publicDir: path.join(root, 'public'), runtime: { apiPublicKey: keys.public, apiSecretKey: keys.secret },
      // The public settings go with every page, read through GET /setting itself so the route stays their one source.
      settings: async () => {
        const res = await app.request('/api/v1/setting', { headers: { 'API-PUBLIC-KEY': keys.public, 'API-SECRET-KEY': keys.secret } });
        if (!res.ok) throw new Error(`GET /setting answered ${res.status}`);
        return res.json();
      },
    }),
    // `npm run admin` while the site runs on the embedded database (operator/adminDoor.ts).
    doorSecret ? adminDoorApp(db, doorSecret, () => mail.kick(), config.passwordHashCost) : undefined,
    options.testRoutes?.(db),
  );

  // HOST unset: every interface, as node listens by default.
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  await listening(server, config.port, config.host);
  const closeDoor = doorSecret
    ? openDoor(config.dataDir, { pid: process.pid, port: (server.address() as AddressInfo).port, secret: doorSecret }) : () => {};
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  console.log(`Mail goes to: ${mail.describe()}; texts to: ${mail.describeSms()}; distances: ${distance.name}; card payments: ${cards.describe}; `
    + `flight status: ${flights ? flights.name : 'none (flight numbers are kept as text)'}`);
  if (config.production && flights?.provider === 'test') {
    console.log('FLIGHT_STATUS=test: this production server follows SCRIPTED test flights, not real ones; anyone can script them at /test-flights.');
  }
  // The demo's scripted flights (README 'Airport pickups'), never on a server for customers.
  if (flights?.provider === 'test' && !config.production && await seedDemoFlights(db)) console.log('Scripted the demo flights of the test flight service.');
  // Issue 42: airport pickups follow their flights, checked in the background (flights/watcher.ts).
  const watcher = flights ? new FlightWatcher({
    db, service: flights, settings: () => loadSettings(db), siteUrl: config.siteUrl, now: () => new Date(), kick: () => mail.kick(), log: console.log,
  }) : null;
  watcher?.start(config.flightWatchSeconds * 1000);
  // Issue 41: a production server without Twilio's keys texts nobody; the drivers' codes and the passengers' texts
  // wait in the folder. Said at every start, as the test card gateway is.
  if (config.production && !config.twilio) {
    console.log(`No Twilio keys: this production server texts NOBODY (drivers' sign-in codes, passengers' texts); each text is a file in ${path.join(config.dataDir, 'sms')}.`);
  }
  if (config.testGatewayInProduction) {
    console.log('CARD_GATEWAY=test: this production server takes TEST card payments only (no Stripe keys); no real card is charged.');
  }
  // The card SDK loads a second after the site answers, beside no first page (payments/provider.ts).
  setTimeout(() => { cards.stripe().catch((err) => console.error('Card provider failed to load:', err)); }, 1000).unref();
  console.log(`Listening on ${listeningOn(server.address())}`);
  console.log(`Booking site ready on ${siteUrl(config.port, config.host)} (database: ${where}; started in ${(performance.now() / 1000).toFixed(2)} s)`);

  // Card bookings whose payment succeeded while no one was told (a stop between the charge and the booking, a lost
  // webhook) are completed just after the start and every 15 minutes; so are passengers' changes whose difference was.
  const reconcile = () => reconcileCardBookings(db, cards, { settings: () => loadSettings(db), siteUrl: config.siteUrl }).then((n) => {
    if (n) console.log(`Completed ${n} card booking(s) whose payment had succeeded.`);
  }, (err) => console.error('Card booking check failed:', err));
  // The privacy policy's retention times (operator/retention.ts), checked with the same timer; card bookings never paid
  // expire after a day and lose their personal data after PENDING_RETENTION_DAYS (bookings/unpaidBookings.ts,
  // privacy/job.ts); once a day, bookings past the records time and invoices past theirs lose theirs (privacy/job.ts,
  // decision 60); sent messages leave the outbox folder (and texts the sms folder) after OUTBOX_RETENTION_DAYS; what
  // PGlite made since is made private.
  let retentionRanAt = 0;
  const daily = () => {
    if (Date.now() - retentionRanAt < 24 * 3_600_000) return undefined;
    retentionRanAt = Date.now();
    return loadSettings(db).then((settings) => removeExpiredPersonalData(db, settings)).then((n) => {
      if (n.bookings || n.passengers || n.invoices) {
        console.log(`Retention: personal data removed from ${n.bookings} booking(s), ${n.passengers} contact record(s), ${n.invoices} invoice(s).`);
      }
    }, (err) => { retentionRanAt = 0; throw err; });
  };
  const purge = () => purgeExpiredRecords(db)
    .then(() => expireUnpaidCardBookings(db, cards))
    .then(() => removeUnpaidPersonalData(db, config.pendingRetentionDays))
    .then(daily)
    .then(() => removeOldOutboxFiles(path.join(config.dataDir, 'outbox'), config.outboxRetentionDays))
    .then(() => removeOldOutboxFiles(path.join(config.dataDir, 'sms'), config.outboxRetentionDays, Date.now(), '.txt'))
    .then(() => { if (!config.databaseUrl) makeTreePrivate(config.dataDir); })
    .catch((err) => console.error('Retention clean-up failed:', err));
  // Issue 44: the accounts' invoices for the month before, issued on the first of the month (each try issues only what
  // is missing, so a server that was stopped then catches up at its next start).
  const invoiceRun = () => loadSettings(db)
    .then((settings) => issueAccountInvoices(db, { periodStart: previousMonth(ukToday()).start, now: new Date(), settings, siteUrl: config.siteUrl }))
    .then((issued) => {
      if (!issued.length) return;
      console.log(`Issued ${issued.length} account invoice(s) for last month.`);
      mail.kick();
    }, (err) => console.error('Account invoice run failed:', err));
  const periodic = () => { void reconcile(); void purge(); void invoiceRun(); };
  // The first run waits a few seconds, so the first pages after a start never queue behind it for the database.
  const firstRun = setTimeout(periodic, 5_000);
  firstRun.unref();
  const reconcileTimer = setInterval(periodic, 15 * 60_000);
  reconcileTimer.unref();

  let stopping = false;
  async function stop() {
    if (stopping) return;
    stopping = true;
    server.close();
    clearTimeout(firstRun);
    clearInterval(reconcileTimer);
    cards.gateway?.webhooks.stop();
    await watcher?.stop();
    await mail.stop();
    await db.close();
    if (config.stepTiming) writeTiming(config.stepTiming);
    closeDoor();
    opened.release?.();
    process.exit(0);
  }
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

