// The embedded database (PGlite) in a data folder or in memory, a new one started from the migrated template.
import { existsSync, readdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db } from './types';
import { openPgliteOn } from './pgliteDb';
import { readTemplate } from './pgliteTemplate';

export { dumpPglite, openPgliteOn } from './pgliteDb';

export interface PgliteOptions {
  /** Operations that may wait for the database before new requests get 503 (see admission.ts). */
  queueLimit?: number;
  /** A data directory dumped by `dumpPglite` to start from, for an in-memory or a new database: skips initdb. */
  image?: Blob;
}

/**
 * The embedded database in `dataDir` (in memory without one). A new data directory starts from `opts.image` or,
 * without one, from the migrated template when it has been built (pgliteTemplate.ts), instead of running initdb.
 */
export async function openPglite(dataDir?: string, opts: PgliteOptions = {}): Promise<Db> {
  const image = opts.image ?? (dataDir && isNewDataDir(dataDir) ? readTemplate() : null);
  return openPgliteOn(await PGlite.create(dataDir, image ? { loadDataDir: image } : {}), opts);
}

const isNewDataDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;
