// A started PGlite behind the Db interface (./types.ts): every operation takes its turn (./admission.ts), hot
// statements are prepared once (decision 29), and the whole data directory can be dumped as an image.
import { PGlite, parse as pgliteParse, protocol } from '@electric-sql/pglite';
import { statementName, type Db, type QueryOptions, type Queryable } from './types';
import { AdmissionQueue } from './admission';
import { recordStep, statementLabel, timed, timingOn } from '../timing';

/** A started PGlite behind the Db interface. */
export function openPgliteOn(pg: PGlite, opts: { queueLimit?: number } = {}): Db {
  // Every statement, exec and transaction takes its turn, in the order asked; a
  // transaction's own statements run inside its turn, straight on PGlite.
  const queue = new AdmissionQueue(opts.queueLimit);
  const prepared = preparedStatements(pg);
  const rows = async (q: Pick<PGlite, 'query'>, sql: string, params: unknown[], o?: QueryOptions) =>
    (o?.prepare && prepared.handles(params) ? prepared.run(sql, params) : (await q.query(sql, params)).rows) as never[];
  const inTransaction = (tx: Pick<PGlite, 'query'>): Queryable => ({ query: (sql, params = [], o) => rows(tx, sql, params, o) });
  const db: Db = {
    kind: 'pglite',
    query: (sql, params = [], o) => {
      if (!timingOn()) return queue.run(() => rows(pg, sql, params, o));
      // Timed (STEP_TIMING): the wait for the database's turn, then the statement on it.
      const asked = performance.now();
      return queue.run(() => {
        recordStep('db (waiting for its turn)', performance.now() - asked);
        return timed(statementLabel(sql), () => rows(pg, sql, params, o));
      });
    },
    exec: (sql) => queue.run(async () => { await pg.exec(sql); }),
    transaction: (fn) => queue.run(() => pg.transaction((tx) => fn(inTransaction(tx)))),
    admit: () => queue.admit(),
    // One session: a NOTIFY is delivered to it after the statement that commits it.
    listen: (channel, onPayload) => queue.run(async () => {
      const [{ schema }] = (await pg.query<{ schema: string }>('SELECT current_schema() AS schema')).rows;
      const stop = await pg.listen(`${channel}_${schema}`, onPayload);
      return () => queue.run(() => stop());
    }),
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

/**
 * Named prepared statements on PGlite (decision 29): PGlite's query() parses, plans and describes every statement
 * again, in five calls into the database; the booking's statement took 1.0 to 1.2 ms that way and 0.35 to 0.45 ms
 * as Bind, Describe, Execute and Sync of a statement parsed once, sent in one call. Parameters go as text, as
 * query() sends them: strings, numbers, booleans and null only. Anything else takes query(), about three times
 * slower: the booking's statement went that way from issue 27, which gave it a boolean, to issue 40. Runs in the
 * caller's turn of the admission queue, inside or outside a transaction (the same session either way).
 */
function preparedStatements(pg: PGlite) {
  const parsed = new Set<string>();
  const { serialize } = protocol;
  const parsers = (pg as unknown as { parsers: Parameters<typeof pgliteParse.parseResults>[1] }).parsers;
  return {
    handles: (params: unknown[]) => params.every((v) => v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'),
    async run(sql: string, params: unknown[]): Promise<unknown[]> {
      const name = statementName(sql);
      const parts = [
        ...(parsed.has(name) ? [] : [serialize.parse({ name, text: sql, types: [] })]),
        serialize.bind({ statement: name, values: params.map((v) => (v === null || v === undefined ? null : String(v))) }),
        serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync(),
      ];
      const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) { message.set(p, at); at += p.length; }
      const { messages } = await pg.execProtocol(message, { throwOnError: false });
      if (messages.some((m) => m.name === 'parseComplete')) parsed.add(name);
      const error = messages.find((m) => m.name === 'error');
      if (error) throw error;
      return pgliteParse.parseResults(messages, parsers, {}, undefined)[0]?.rows ?? [];
    },
  };
}
