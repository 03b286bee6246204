import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './index';
import { AdmissionQueue } from './admission';

export interface PgliteOptions {
  /** Operations that may wait for the database before new requests get 503 (see admission.ts). */
  queueLimit?: number;
}

export async function openPglite(dataDir?: string, opts: PgliteOptions = {}): Promise<Db> {
  const pg = await PGlite.create(dataDir);
  // Every statement, exec and transaction takes its turn, in the order asked; a
  // transaction's own statements run inside its turn, straight on PGlite.
  const queue = new AdmissionQueue(opts.queueLimit);
  const rows = async (q: Pick<PGlite, 'query'>, sql: string, params: unknown[]) => (await q.query(sql, params)).rows as never[];
  const inTransaction = (tx: Pick<PGlite, 'query'>): Queryable => ({ query: (sql, params = []) => rows(tx, sql, params) });
  return {
    kind: 'pglite',
    query: (sql, params = []) => queue.run(() => rows(pg, sql, params)),
    exec: (sql) => queue.run(async () => { await pg.exec(sql); }),
    transaction: (fn) => queue.run(() => pg.transaction((tx) => fn(inTransaction(tx)))),
    admit: () => queue.admit(),
    close: () => queue.run(() => pg.close()),
  };
}
