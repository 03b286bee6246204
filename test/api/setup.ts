// One in-memory PGlite per test file, migrated and seeded as `npm start` does.
import { openDb, type Db } from '../../src/server/db/index';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/seed';
import { createApp } from '../../src/server/app';
import { estimateDistance } from '../../src/server/geo/distance';

export const KEYS = { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret' };

export async function testApp() {
  const db: Db = await openDb({ databaseUrl: process.env.TEST_DATABASE_URL });
  if (db.kind === 'postgres') await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  await migrate(db);
  await seedIfEmpty(db);
  const app = createApp({ db, distance: estimateDistance, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] } });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.request(`/api/v1${path}`, {
      method,
      headers: { ...KEYS, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any;
    try { json = JSON.parse(text); } catch { json = text; }
    return { status: res.status, body: json };
  };
  return { app, db, call };
}
