// A new embedded database starts from a template instead of running initdb (about 5 s of the 6.6 s a first
// `npm start` took): a gzipped image of an empty cluster with every migration applied, built once by
// `npm install` (scripts/prepare.mjs) or the browser tests' setup, and kept in node_modules/.cache.
// Its name carries a hash of the PGlite version and the migrations, so a changed migration or an upgraded PGlite
// never starts from an old template: it is built again instead. Seeding stays at start, as the demo's dates are
// relative to the day the database is made. A production server's new database starts from this template itself,
// never from the demo copy, and gets the reference data alone (decision 47).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS_DIR, migrate } from './migrate';
import { openPgliteOn } from './pgliteDb';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/uk-booking');

export function templateKey(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  hash.update(`pglite ${pglite.version}\n`);
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
    hash.update(`${file}\n`).update(readFileSync(path.join(MIGRATIONS_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

export const templateFile = (key = templateKey()) => path.join(CACHE_DIR, `pglite-${key}.tar.gz`);

/** The template for the current migrations, or null when none has been built or it cannot be read. */
export function readTemplate(): Blob | null {
  try {
    const file = templateFile();
    return existsSync(file) ? new Blob([readFileSync(file)]) : null;
  } catch {
    return null; // no PGlite package.json where expected, an unreadable cache: initdb, as without a template
  }
}

/** Builds the template when it is missing; true when it exists afterwards. A failure (no cache folder) is not fatal. */
export async function ensureTemplate(): Promise<boolean> {
  const file = templateFile();
  if (existsSync(file)) return true;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create();
    await migrate(openPgliteOn(pg));
    const image = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    await pg.close();
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside and renamed, so a start running meanwhile never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, image);
    renameSync(partial, file);
    for (const old of readdirSync(CACHE_DIR)) if (/^pglite-\w+\.tar\.gz$/.test(old) && path.join(CACHE_DIR, old) !== file) rmSync(path.join(CACHE_DIR, old), { force: true });
    return true;
  } catch (err) {
    console.warn(`Could not build the database template (${(err as Error).message}); a new database will run initdb.`);
    return false;
  }
}
