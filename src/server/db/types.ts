// The tiny query interface both databases implement: plain SQL with $1 parameters (opened by ./index.ts).
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
}

export interface QueryOptions {
  /**
   * Parse and plan this text once per session (a named prepared statement), for hot statements whose text is one of
   * a few fixed variants (the booking's, the mail queue's): per connection on PostgreSQL, once on PGlite.
   */
  prepare?: boolean;
}

export interface Db extends Queryable {
  /** Runs several statements (a migration file) in one go. */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Called as a request arrives: throws DatabaseBusyError (admission.ts) when so
   * much work already waits for the embedded database that the request should
   * come back later. PostgreSQL's pool queues by itself: never throws there.
   */
  admit(): void;
  /**
   * Calls `onPayload` with every NOTIFY on `channel` of this database's schema (`channel_schema`, as statements name it
   * with current_schema()) once its transaction commits, whichever process sent it (issue 41 §5, live updates); `onReconnect` after a lost listening connection came back (what was sent meanwhile is lost:
   * listeners read afresh). Resolves to the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** Embedded database only: operations that may wait before new requests get 503 (default: DB_QUEUE_LIMIT from the configuration). */
  queueLimit?: number;
}

/** One name per statement text, for this process: a session prepares each text once, under its name. */
const names = new Map<string, string>();
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) names.set(sql, (name = `s${names.size + 1}`));
  return name;
}
