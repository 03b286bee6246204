// The demo's database, prepared: `npm install` (scripts/prepare.mjs) makes a data directory holding the
// migrated schema and the demo operator, and `npm start` with a new data folder (never with NODE_ENV=production, whose
// database starts from the template with the reference data alone: decision 47) starts from a copy of it (about
// 0.2 s) instead of loading the template and seeding (about 1.5 s, a third of it hashing the demo password at the
// full cost). Only the demo passenger's bookings are added at the copy, as they are dated from the day the database
// is made. Its name carries the template's key and a hash of the seed's sources, so a changed seed, migration or
// PGlite version is never copied: the folder is prepared again, or the start seeds as before.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, readTemplate, templateKey } from '../db/pgliteTemplate';
import { DEFAULT_PASSWORD_HASH_COST } from '../config';
import { makeTreePrivate } from '../privateData';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// What the demo rows are made of: the seed's files and how passwords are hashed.
const SEED_SOURCES = [
  ...readdirSync(HERE).filter((f) => /^seed\w*\.ts$/.test(f) || f === 'operator.ts').map((f) => path.join(HERE, f)),
  path.join(HERE, '../auth/passwords.ts'),
];

function demoImageKey(): string {
  const hash = createHash('sha256').update(`${templateKey()}\ncost ${DEFAULT_PASSWORD_HASH_COST}\n`);
  for (const file of SEED_SOURCES.sort()) hash.update(`${path.basename(file)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export const demoImageDir = () => path.join(CACHE_DIR, `demo-${demoImageKey()}`);

/**
 * Copies the prepared demo database into `dataDir` when that folder is new (missing or empty) and the prepared one
 * exists; true when it did. The caller then adds the demo bookings (seedCorporate.ts `addDemoBookings`).
 */
export function copyDemoImage(dataDir: string): boolean {
  if (existsSync(dataDir) && readdirSync(dataDir).length) return false;
  let image: string;
  try {
    image = demoImageDir();
  } catch {
    return false; // the seed's sources or the PGlite package cannot be read: seed as without an image
  }
  if (!existsSync(image)) return false;
  // Copied aside and renamed, so a start stopped half way leaves a new folder, never half a database.
  const partial = `${dataDir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(image, partial, { recursive: true });
  makeTreePrivate(partial); // a copy keeps the cache's modes
  // Only an empty folder is removed (rmdir refuses any other), so a database is never replaced.
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(partial, dataDir);
  return true;
}

/** Prepares the demo database when it is missing; true when it exists afterwards. A failure is never fatal. */
export async function ensureDemoImage(): Promise<boolean> {
  const target = demoImageDir();
  if (existsSync(target)) return true;
  mkdirSync(CACHE_DIR, { recursive: true });
  const building = mkdtempSync(path.join(CACHE_DIR, 'demo-building-'));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { openPgliteOn } = await import('../db/pglite');
    const { migrate } = await import('../db/migrate');
    const { seedIfEmpty } = await import('./seed');
    const template = readTemplate();
    const pg = await PGlite.create(path.join(building, 'pglite'), template ? { loadDataDir: template } : {});
    const db = openPgliteOn(pg);
    await migrate(db);
    await seedIfEmpty(db, DEFAULT_PASSWORD_HASH_COST, { bookings: false });
    await db.close();
    renameSync(path.join(building, 'pglite'), target);
    for (const old of readdirSync(CACHE_DIR)) {
      if (/^demo-[0-9a-f]{16}$/.test(old) && path.join(CACHE_DIR, old) !== target) rmSync(path.join(CACHE_DIR, old), { recursive: true, force: true });
    }
    return true;
  } catch (err) {
    if (existsSync(target)) return true; // another process prepared it first
    console.warn(`Could not prepare the demo database (${(err as Error).message}); a new data folder will be seeded at start.`);
    return false;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
