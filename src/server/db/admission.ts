// Fair turns at the embedded database under load.
//
// PGlite runs every statement on this thread, and a request's statements follow
// one another as promise continuations. Left alone, one request's database work
// runs from start to end before node reads another socket, and the socket it
// reads next is not the one that has waited longest: under 50 concurrent
// bookings some connections were served again and again while others waited
// 10 s and more. This queue gives the database to one operation at a time, in
// the order they asked for it, and starts each in a fresh turn of the event loop
// (setImmediate), so requests that arrived meanwhile are read and take their
// place in the line first. A new request is turned away with 503 and
// Retry-After (DatabaseBusyError) while the line is `limit` operations long;
// work already admitted, and background work such as the mail queue, always
// gets its turn.
import { DomainError } from '../errors';

/** Operations that may wait before new requests are turned away (DB_QUEUE_LIMIT). */
export const DEFAULT_DB_QUEUE_LIMIT = 200;

/** DB_QUEUE_LIMIT: a whole number above 0; unset or empty, DEFAULT_DB_QUEUE_LIMIT. */
export function parseQueueLimit(value: string | undefined): number {
  if (!value) return DEFAULT_DB_QUEUE_LIMIT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`DB_QUEUE_LIMIT must be a whole number above 0, not "${value}"`);
  return n;
}

export class DatabaseBusyError extends DomainError {
  constructor(override readonly retryAfterSeconds: number) {
    super('busy', 'We are very busy right now. Please try again in a moment.', undefined, retryAfterSeconds);
    this.name = 'DatabaseBusyError';
  }
}

export class AdmissionQueue {
  private readonly line: (() => Promise<void>)[] = [];
  private busy = false;
  /** Moving average of how long an operation holds the database, for Retry-After. */
  private averageMs = 10;

  constructor(public limit = DEFAULT_DB_QUEUE_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`The database queue limit must be a whole number above 0, not ${limit}`);
  }

  /** Operations waiting for their turn (not counting the one running). */
  get waiting(): number {
    return this.line.length;
  }

  /** For a new request: throws DatabaseBusyError when `limit` operations are already waiting. */
  admit(): void {
    if (this.line.length >= this.limit) throw new DatabaseBusyError(this.retryAfterSeconds());
  }

  /** Runs `op` after every operation queued before it, alone; its result or error is the caller's. */
  run<T>(op: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.line.push(async () => {
        const started = performance.now();
        try {
          resolve(await op());
        } catch (err) {
          reject(err);
        } finally {
          this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
        }
      });
      this.next();
    });
  }

  /** Seconds until the line ahead of a new request has probably cleared: at least 1, at most 60. */
  retryAfterSeconds(): number {
    return Math.min(60, Math.max(1, Math.ceil((this.line.length * this.averageMs) / 1000)));
  }

  private next(): void {
    if (this.busy || this.line.length === 0) return;
    this.busy = true;
    // A new macrotask: node reads the sockets that became ready before the next operation starts.
    setImmediate(() => {
      const job = this.line.shift()!;
      void job().finally(() => {
        this.busy = false;
        this.next();
      });
    });
  }
}
