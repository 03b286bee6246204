// Opening the database: PostgreSQL or embedded PGlite behind the one query interface of ./types.ts.
import { parseQueueLimit } from './admission';
import type { Db, DbOptions } from './types';

export { statementName, type Db, type DbOptions, type Queryable, type QueryOptions } from './types';

/** PostgreSQL through `pg` when DATABASE_URL is set, otherwise embedded PGlite (in dataDir, or in memory). */
export async function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(opts.databaseUrl);
  }
  const { openPglite } = await import('./pglite');
  return openPglite(opts.dataDir, { queueLimit: opts.queueLimit ?? parseQueueLimit(process.env.DB_QUEUE_LIMIT) });
}
