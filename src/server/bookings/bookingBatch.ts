// Bookings made at the same moment written together (issue 40, decision 65). A booking made on its own is written at
// once, in its own statement (queries.ts insertBooking). Only while a process already has WRITING statements of
// bookings at the database do the next ones wait, and the next statement then writes up to BATCH of those waiting at
// once (queries.ts insertBookings): under load, a database does a booking's fixed work (the statement's start, its
// locks, its commit) once for several, and fewer of its sessions share the cores at once.
// Every guarantee of the single statement holds: a batch is all or nothing, so a batch that fails (a used-up
// allowance, a booking number drawn twice, an account's e-mail taken, anything) has written nothing, and each of its
// bookings is then written alone, as if it had come alone, to answer with its own outcome.
import type { Db, Queryable } from '../db/index';
import { bookingVariant, insertBooking, insertBookings, KeyAlreadyUsed, type BookingWrite, type InsertedBooking } from './queries';

/** Statements of bookings a process has at the database at once (PGlite runs one statement at a time anyway). */
export const WRITING = { postgres: 2, pglite: 1 } as const;
/** Bookings in one statement at most. */
export const BATCH = 8;

interface Waiting { w: BookingWrite; variant: string; resolve: (row: InsertedBooking) => void; reject: (err: unknown) => void }

export interface BookingWriter {
  write(w: BookingWrite): Promise<InsertedBooking>;
  /** Bookings waiting for a statement. */
  readonly waiting: number;
}

/**
 * Whether the database answered the statement with an error of its own (a SQLSTATE), which undoes it, rather than
 * not answering at all (a lost connection: no SQLSTATE, or class 08), after which it may have committed.
 */
export function refusedByDatabase(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08');
}

function createWriter(db: Queryable, writing: number): BookingWriter {
  let busy = 0;
  const waiting: Waiting[] = [];

  const alone = async (b: Waiting) => {
    try { b.resolve(await insertBooking(db, b.w)); } catch (err) { b.reject(err); }
  };

  /** The first waiting booking, with those after it of the same variant; never two of one Idempotency-Key. */
  const take = (): Waiting[] => {
    const batch = [waiting.shift()!];
    const keys = new Set([batch[0].w.options.idempotencyKey]);
    for (let i = 0; i < waiting.length && batch.length < BATCH;) {
      const b = waiting[i];
      const key = b.w.options.idempotencyKey;
      if (b.variant !== batch[0].variant || (key && keys.has(key))) { i++; continue; }
      keys.add(key);
      batch.push(...waiting.splice(i, 1));
    }
    return batch;
  };

  const run = async (batch: Waiting[]) => {
    if (batch.length === 1) return alone(batch[0]);
    let outcomes: (InsertedBooking | KeyAlreadyUsed)[];
    try {
      outcomes = await insertBookings(db, batch.map((b) => b.w));
    } catch (err) {
      // The database refused the statement, so nothing of any was written: each alone now, in turn, answers with its
      // own outcome. Without its answer (the connection lost), the statement may have committed: each is told of the
      // failure, as a booking alone would be, and none is written again.
      if (!refusedByDatabase(err)) { for (const b of batch) b.reject(err); return; }
      for (const b of batch) await alone(b);
      return;
    }
    outcomes.forEach((o, i) => (o instanceof KeyAlreadyUsed ? batch[i].reject(o) : batch[i].resolve(o)));
  };

  const next = () => {
    while (busy < writing && waiting.length) {
      busy++;
      void run(take()).finally(() => { busy--; next(); });
    }
  };

  return {
    get waiting() { return waiting.length; },
    write: (w) => new Promise<InsertedBooking>((resolve, reject) => {
      waiting.push({ w, variant: bookingVariant(w), resolve, reject });
      next();
    }),
  };
}

const writers = new WeakMap<Db, BookingWriter>();
/** The one writer of a database's bookings in this process. */
export function bookingWriter(db: Db): BookingWriter {
  let writer = writers.get(db);
  if (!writer) writers.set(db, (writer = createWriter(db, WRITING[db.kind])));
  return writer;
}
