import pg from 'pg';
import { statementName, type Db, type Queryable } from './types';
import { statementLabel, timed } from '../timing';

// Dates stay as the 'YYYY-MM-DD' text they are on PGlite, not JS Dates at local midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);


export async function openPostgres(connectionString: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  await pool.query('SELECT 1');
  const listeners = new Set<() => Promise<void>>();
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
    async listen(channel, onPayload, onReconnect) {
      const stop = await listenOn(connectionString, channel, onPayload, onReconnect);
      listeners.add(stop);
      return async () => { listeners.delete(stop); await stop(); };
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/**
 * A connection of its own that LISTENs on `channel` (a pool's connections come and go): when it is lost, a new one is
 * opened, after 0.5 s and then up to 10 s apart, and `onReconnect` tells the listeners that what was sent meanwhile
 * was missed. TCP keep-alive and a query every 30 s find a connection a network device dropped without a word.
 */
async function listenOn(connectionString: string, channel: string, onPayload: (payload: string) => void, onReconnect?: () => void) {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let wait = 500;
  let ping: ReturnType<typeof setInterval> | null = null;
  let listened = '';
  const reopen = () => {
    const again = () => open().then(() => { wait = 500; onReconnect?.(); }, () => {
      wait = Math.min(wait * 2, 10_000);
      if (!stopped) setTimeout(again, wait).unref();
    });
    setTimeout(again, wait).unref();
  };
  const open = async (): Promise<void> => {
    const c = new pg.Client({ connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    c.on('notification', (n) => { if (n.channel === listened) onPayload(n.payload ?? ''); });
    c.on('error', () => { void c.end().catch(() => {}); });
    c.on('end', () => {
      if (stopped || client !== c) return;
      client = null;
      reopen();
    });
    try {
      await c.connect();
      // This connection's schema (its search_path), as the statements that notify name it with current_schema().
      const [{ schema }] = (await c.query<{ schema: string }>('SELECT current_schema() AS schema')).rows;
      const named = `${channel}_${schema}`;
      listened = named;
      await c.query(`LISTEN "${named.replace(/"/g, '""')}"`);
    } catch (err) {
      await c.end().catch(() => {});
      throw err;
    }
    if (stopped) { await c.end(); return; }
    client = c;
  };
  await open();
  ping = setInterval(() => {
    const c = client;
    if (c) c.query('SELECT 1').catch(() => { void c.end().catch(() => {}); });
  }, 30_000);
  ping.unref();
  return async () => {
    stopped = true;
    if (ping) clearInterval(ping);
    const c = client;
    client = null;
    await c?.end().catch(() => {});
  };
}
