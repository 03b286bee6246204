// Live updates (issue 41 §5, decision 57): a change to a booking (every timeline entry, ../bookings/bookingHistory.ts)
// and a driver's position (../driver/positions.ts) are NOTIFYed on one channel in the transaction that makes them, so
// they are heard after the commit by every server process, PostgreSQL or PGlite alike: nothing is kept in one process's
// memory but who is watching here. A watched booking is read once per change, however many watch it in this process;
// changes that come while it is read are folded into one more read.
import type { Db } from '../db/index';

export const LIVE_CHANNEL = 'booking_live';
/**
 * The channel as a statement names it: one per schema (`booking_live_public`), so databases sharing a server in
 * schemas of their own (the tests' files) never hear each other; `Db.listen` adds the same schema.
 */
export const LIVE_CHANNEL_SQL = `'${LIVE_CHANNEL}_' || current_schema()`;
/** The payload of a booking's change: its id and its company's (`12:3`); of a new position: `p` and its id. */
export const positionPayload = (bookingId: number) => `p${bookingId}`;

export type LiveKind = 'change' | 'position';

/** A watcher and what it was last sent (as JSON), so a read that finds nothing new sends it nothing. */
interface Listener<T> { send: (value: T) => void; last: string | null }

interface Watched<T> {
  load: () => Promise<T>;
  listeners: Set<Listener<T>>;
  reading: boolean;
  again: boolean;
}

export interface LiveHub {
  /**
   * Calls `send` with `load()`'s answer now and after each change (or position) of the booking that alters it, until
   * the returned function is called. Every watcher of one booking in this process shares one `load` (the first one
   * given).
   */
  watchBooking<T>(bookingId: number, load: () => Promise<T>, send: (value: T) => void): Promise<() => void>;
  /**
   * Calls `onChange` with the booking's id and its company's after every change of any booking (not positions): the
   * board. After a lost connection, with 0 and null: anything may have changed.
   */
  watchChanges(onChange: (bookingId: number, companyId: number | null) => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createLiveHub(db: Db): LiveHub {
  const watched = new Map<number, Watched<unknown>>();
  const changeWatchers = new Set<(bookingId: number, companyId: number | null) => void>();
  let started: Promise<() => Promise<void>> | null = null;

  async function read(id: number, w: Watched<unknown>) {
    if (w.reading) { w.again = true; return; }
    w.reading = true;
    try {
      do {
        w.again = false;
        let value: unknown;
        try { value = await w.load(); } catch { continue; }
        if (watched.get(id) !== w) return;
        // A late notice of a change already read (or a change the viewer does not see) finds the same answer: each
        // watcher is sent an answer once, and again only when it differs.
        const json = JSON.stringify(value);
        for (const l of w.listeners) {
          if (l.last === json) continue;
          l.last = json;
          l.send(value);
        }
      } while (w.again);
    } finally {
      w.reading = false;
    }
  }

  function heard(payload: string) {
    const position = payload.startsWith('p');
    const [id, company] = (position ? payload.slice(1) : payload).split(':').map(Number);
    if (!Number.isInteger(id)) return;
    const w = watched.get(id);
    if (w) void read(id, w);
    if (!position) for (const tell of changeWatchers) tell(id, Number.isInteger(company) ? company : null);
  }

  /** After a lost connection: everything watched is read afresh, and the board told. */
  function missed() {
    for (const [id, w] of watched) void read(id, w);
    for (const tell of changeWatchers) tell(0, null);
  }

  // A failed start (the database away for a moment) is tried again by the next watcher, not kept.
  const listening = () => (started ??= db.listen(LIVE_CHANNEL, heard, missed).catch((err) => { started = null; throw err; }));

  return {
    async watchBooking<T>(bookingId: number, load: () => Promise<T>, send: (value: T) => void) {
      await listening();
      let w = watched.get(bookingId) as Watched<T> | undefined;
      if (!w) watched.set(bookingId, (w = { load, listeners: new Set(), reading: false, again: false }) as Watched<unknown>);
      const listener: Listener<T> = { send, last: null };
      // Watching first, then read: a change that commits meanwhile is read again after, never missed.
      w.listeners.add(listener);
      void read(bookingId, w as Watched<unknown>);
      return () => {
        w!.listeners.delete(listener);
        if (w!.listeners.size === 0 && watched.get(bookingId) === w) watched.delete(bookingId);
      };
    },
    async watchChanges(onChange) {
      await listening();
      changeWatchers.add(onChange);
      return () => { changeWatchers.delete(onChange); };
    },
    async close() {
      watched.clear();
      changeWatchers.clear();
      if (started) await (await started)();
      started = null;
    },
  };
}

const hubs = new WeakMap<Db, LiveHub>();
/** The one hub of a database in this process, listening from its first watcher on. */
export function liveHubOf(db: Db): LiveHub {
  let hub = hubs.get(db);
  if (!hub) hubs.set(db, (hub = createLiveHub(db)));
  return hub;
}
