// `npm start`: one process serving the website and /api/v1 on one port.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { loadConfig } from './config';
import { openDb } from './db/index';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './seed';
import { createApp } from './app';
import { estimateDistance } from './geo/distance';
import { webApp } from './web';
import { buildSpa, spaIsStale } from './spaBuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const distDir = path.join(root, 'dist');
const config = loadConfig();

if (process.env.SKIP_SPA_BUILD !== '1' && spaIsStale(root, distDir)) buildSpa(root, distDir);

if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
const applied = await migrate(db);
if (applied.length) console.log(`Database migrations applied: ${applied.join(', ')}`);
if (await seedIfEmpty(db)) console.log('Seeded the demo operator (Albion Executive Cars).');

const app = createApp(
  { db, distance: estimateDistance, apiKeys: { public: config.apiPublicKey, secret: config.apiSecretKey } },
  webApp({ distDir, publicDir: path.join(root, 'public'), runtime: { apiPublicKey: config.apiPublicKey, apiSecretKey: config.apiSecretKey } }),
);

const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  console.log(`Booking site ready on http://localhost:${info.port} (database: ${where})`);
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
