import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './index';

export async function openPglite(dataDir?: string): Promise<Db> {
  const pg = await PGlite.create(dataDir);
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query(sql, params = []) {
      return (await q.query(sql, params)).rows as never[];
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    async exec(sql) { await pg.exec(sql); },
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
