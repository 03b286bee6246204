import { existsSync, readdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './index';
import { AdmissionQueue } from './admission';
import { readTemplate } from './pgliteTemplate';

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

/** A started PGlite behind the Db interface. */
export function openPgliteOn(pg: PGlite, opts: Pick<PgliteOptions, 'queueLimit'> = {}): Db {
  // Every statement, exec and transaction takes its turn, in the order asked; a
  // transaction's own statements run inside its turn, straight on PGlite.
  const queue = new AdmissionQueue(opts.queueLimit);
  const rows = async (q: Pick<PGlite, 'query'>, sql: string, params: unknown[]) => (await q.query(sql, params)).rows as never[];
  const inTransaction = (tx: Pick<PGlite, 'query'>): Queryable => ({ query: (sql, params = []) => rows(tx, sql, params) });
  const db: Db = {
    kind: 'pglite',
    query: (sql, params = []) => queue.run(() => rows(pg, sql, params)),
    exec: (sql) => queue.run(async () => { await pg.exec(sql); }),
    transaction: (fn) => queue.run(() => pg.transaction((tx) => fn(inTransaction(tx)))),
    admit: () => queue.admit(),
    close: () => queue.run(() => pg.close()),
  };
  images.set(db, () => queue.run(() => pg.dumpDataDir('none')));
  return db;
}

const images = new WeakMap<Db, () => Promise<Blob>>();

/** The whole data directory of a PGlite database, for `openPglite`'s `image`. */
export function dumpPglite(db: Db): Promise<Blob> {
  const dump = images.get(db);
  if (!dump) throw new Error('not a PGlite database');
  return dump();
}
