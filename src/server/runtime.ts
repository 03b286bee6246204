// Opening what the server runs on: the database (migrated, seeded), the
// distance service and the message queue (e-mail and SMS). `npm start` and `npm run admin` share it.
import path from 'node:path';
import { DEFAULT_PASSWORD_HASH_COST, type Config } from './config';
import { openDb, type Db } from './db/index';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './operator/seed';
import { addDemoBookings } from './operator/seedCorporate';
import { copyDemoImage } from './operator/demoImage';
import { distanceFromConfig } from './geo/index';
import { flightsFromConfig } from './flightStatus/index';
import type { FlightStatusService } from './flightStatus/service';
import type { DistanceService } from './geo/distance';
import { MailQueue } from './mail/queue';
import { outboxTransport, smtpTransport } from './mail/transport';
import { smsOutboxTransport, twilioSmsTransport } from './mail/sms';
import { underLoad } from './http/load';
import { loadSettings } from './deps';
import { makeDataDirPrivate, makeTreePrivate } from './privateData';

export const PRODUCTION_SEED = 'Seeded the reference data (settings, companies, fleet, rates, places: edit them before taking bookings), '
  + 'no staff, passengers or bookings. Add the first administrator: npm run admin -- add-staff --email <e-mail> --name <name> --role admin';

export interface Runtime { db: Db; distance: DistanceService; mail: MailQueue; flights: FlightStatusService | null; log: string[] }

export async function openRuntime(config: Config): Promise<Runtime> {
  const log: string[] = [];
  makeDataDirPrivate(config.dataDir);
  const pgliteDir = path.join(config.dataDir, 'pglite');
  // A new embedded database is a copy of the prepared demo one (operator/demoImage.ts) when its password cost is ours;
  // in production it is the migrated template, seeded below with the reference data alone (decision 47).
  const prepared = !config.production && !config.databaseUrl && config.passwordHashCost === DEFAULT_PASSWORD_HASH_COST && copyDemoImage(pgliteDir);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: pgliteDir, queueLimit: config.dbQueueLimit });
  const applied = await migrate(db);
  if (applied.length) log.push(`Database migrations applied: ${applied.join(', ')}`);
  if (prepared) {
    await addDemoBookings(db);
    log.push('Started from the prepared demo database (Albion Executive Cars).');
  } else if (await seedIfEmpty(db, config.passwordHashCost, { people: !config.production })) {
    log.push(config.production ? PRODUCTION_SEED : 'Seeded the demo operator (Albion Executive Cars).');
  }
  // PGlite makes some files of its own with wider rights than the umask allows (pg_internal.init): tightened here
  // and with the retention timer (server.ts); the 0700 folder keeps others out meanwhile.
  if (!config.databaseUrl) makeTreePrivate(pgliteDir);
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : outboxTransport(path.join(config.dataDir, 'outbox'));
  const from = async () => config.mailFrom ?? (await loadSettings(db)).FROM_EMAIL ?? 'bookings@localhost';
  // The sender yields to the site's requests under load (issue 40).
  // Texts (issue 41): Twilio when its keys are set, else a file each in DATA_DIR/sms; its delivery reports come to
  // /api/v1/sms/status (smsEvents/smsStatus.ts).
  const sms = config.twilio
    ? twilioSmsTransport({ ...config.twilio, statusCallback: `${config.siteUrl}/api/v1/sms/status` })
    : smsOutboxTransport(path.join(config.dataDir, 'sms'));
  const mail = new MailQueue(db, transport, from, console.log, { busy: underLoad, sms });
  return { db, distance: distanceFromConfig(config), mail, flights: flightsFromConfig(config, db), log };
}
