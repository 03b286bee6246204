import pg from 'pg';
import { statementName, type Db, type Queryable } from './types';
import { statementLabel, timed } from '../timing';

// Dates stay as the 'YYYY-MM-DD' text they are on PGlite, not JS Dates at local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);


export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  await pool.query('SELECT 1');
  const wrap = (q: { query: pg.Pool['query'] }): Queryable => ({
    // Timed with STEP_TIMING: the pool's wait for a connection and the round trip.
    query: (sql, params = [], opts) => timed(statementLabel(sql), async () => {
      if (opts?.prepare) return (await q.query({ name: statementName(sql), text: sql, values: params })).rows;
      return (await q.query(sql, params)).rows;
    }),
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async exec(sql) { await pool.query(sql); },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client as unknown as { query: pg.Pool['query'] }));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    admit() {},
    close: () => pool.end(),
  };
}
