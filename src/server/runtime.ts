// Opening what the server runs on: the database (migrated, seeded), the
// distance service and the mail queue. `npm start` and `npm run admin` share it.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Config } from './config';
import { openDb, type Db } from './db/index';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './operator/seed';
import { distanceFromConfig } from './geo/index';
import type { DistanceService } from './geo/distance';
import { MailQueue } from './mail/queue';
import { outboxTransport, smtpTransport } from './mail/transport';
import { loadSettings } from './deps';

export interface Runtime { db: Db; distance: DistanceService; mail: MailQueue; log: string[] }

export async function openRuntime(config: Config): Promise<Runtime> {
  const log: string[] = [];
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite'), queueLimit: config.dbQueueLimit });
  const applied = await migrate(db);
  if (applied.length) log.push(`Database migrations applied: ${applied.join(', ')}`);
  if (await seedIfEmpty(db, config.passwordHashCost)) log.push('Seeded the demo operator (Albion Executive Cars).');
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : outboxTransport(path.join(config.dataDir, 'outbox'));
  const from = async () => config.mailFrom ?? (await loadSettings(db)).FROM_EMAIL ?? 'bookings@localhost';
  const mail = new MailQueue(db, transport, from);
  return { db, distance: distanceFromConfig(config), mail, log };
}
