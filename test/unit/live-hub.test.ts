// Issue 41 §5, decision 57: the live hub (src/server/live/hub.ts) on a database that only notifies: a watched booking
// is read once per change however many watch it, changes heard while it is read are folded into one more read, each
// watcher is sent only what differs from what it was last sent, the board hears every change (not positions), and a
// lost connection reads everything afresh.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index';
import { LIVE_CHANNEL, createLiveHub, liveHubOf, positionPayload } from '../../src/server/live/hub';

/** A database that only listens: `notify` plays a payload, `lose` a lost connection; how often it was asked to listen. */
function fakeDb(opts: { failFirstListen?: boolean } = {}) {
  let onPayload: ((p: string) => void) | null = null;
  let onReconnect: (() => void) | undefined;
  const state = { listens: 0, stopped: 0, channel: '' };
  let fail = opts.failFirstListen ?? false;
  const db = {
    async listen(channel: string, payload: (p: string) => void, reconnect?: () => void) {
      state.listens++;
      if (fail) { fail = false; throw new Error('database away'); }
      state.channel = channel;
      onPayload = payload;
      onReconnect = reconnect;
      return async () => { state.stopped++; };
    },
  } as unknown as Db;
  return { db, state, notify: (p: string) => onPayload!(p), lose: () => onReconnect!() };
}
const settle = () => new Promise((r) => setTimeout(r, 0));
/** A value read from the database, and a gate to hold its read open. */
function source<T>(initial: T) {
  let value = initial;
  let reads = 0;
  let gate: Promise<void> | null = null;
  return {
    load: async () => { reads++; if (gate) await gate; return value; },
    set: (v: T) => { value = v; },
    hold: () => { let open!: () => void; gate = new Promise((r) => { open = r; }); return () => { gate = null; open(); }; },
    reads: () => reads,
  };
}

describe('the live hub', () => {
  it('listens once on the live channel, from the first watcher on, and stops listening when closed', async () => {
    const f = fakeDb();
    const hub = createLiveHub(f.db);
    expect(f.state.listens).toBe(0);
    await hub.watchBooking(1, async () => 'a', () => {});
    await hub.watchChanges(() => {});
    await hub.watchBooking(2, async () => 'b', () => {});
    expect([f.state.listens, f.state.channel]).toEqual([1, LIVE_CHANNEL]);
    await hub.close();
    expect(f.state.stopped).toBe(1);
  });

  it('tries to listen again with the next watcher after a failed start', async () => {
    const f = fakeDb({ failFirstListen: true });
    const hub = createLiveHub(f.db);
    await expect(hub.watchBooking(1, async () => 'a', () => {})).rejects.toThrow('database away');
    const sent: string[] = [];
    await hub.watchBooking(1, async () => 'a', (v) => sent.push(v));
    await settle();
    expect([f.state.listens, sent]).toEqual([2, ['a']]);
  });

  it('sends each watcher the booking now, then what differs after each change or position; one read for all its watchers', async () => {
    const f = fakeDb();
    const hub = createLiveHub(f.db);
    const s = source<{ status: string; car?: number }>({ status: 'accepted' });
    const jane: unknown[] = [];
    const john: unknown[] = [];
    await hub.watchBooking(7, s.load, (v) => jane.push(v));
    await settle();
    await hub.watchBooking(7, async () => ({ status: 'never read' }), (v) => john.push(v));
    await settle();
    expect([jane, john]).toEqual([[{ status: 'accepted' }], [{ status: 'accepted' }]]);
    const reads = s.reads();
    s.set({ status: 'on_way' });
    f.notify('7:3');
    await settle();
    expect(s.reads()).toBe(reads + 1);
    expect([jane.at(-1), john.at(-1)]).toEqual([{ status: 'on_way' }, { status: 'on_way' }]);
    // A change that alters nothing this page shows, and a position of the same place: nothing sent.
    f.notify('7:3');
    f.notify(positionPayload(7));
    await settle();
    expect([jane.length, john.length]).toEqual([2, 2]);
    s.set({ status: 'on_way', car: 1 });
    f.notify(positionPayload(7));
    await settle();
    expect(jane).toEqual([{ status: 'accepted' }, { status: 'on_way' }, { status: 'on_way', car: 1 }]);
    // Another booking's change is not this one's.
    const before = s.reads();
    f.notify('8:3');
    f.notify('not a booking');
    await settle();
    expect(s.reads()).toBe(before);
  });

  it('folds the changes heard while a booking is read into one more read', async () => {
    const f = fakeDb();
    const hub = createLiveHub(f.db);
    const s = source('first');
    const sent: string[] = [];
    await hub.watchBooking(3, s.load, (v) => sent.push(v));
    await settle();
    const open = s.hold();
    s.set('second');
    f.notify('3:1');
    await settle();
    const during = s.reads();
    s.set('third');
    f.notify('3:1');
    f.notify('3:1');
    f.notify(positionPayload(3));
    await settle();
    expect(s.reads()).toBe(during);
    open();
    await expect.poll(() => sent).toEqual(['first', 'third']);
    expect(s.reads()).toBe(during + 1);
  });

  it('stops sending to a watcher that stopped, and forgets a booking nobody watches', async () => {
    const f = fakeDb();
    const hub = createLiveHub(f.db);
    const s = source(1);
    const a: number[] = [];
    const b: number[] = [];
    const stopA = await hub.watchBooking(4, s.load, (v) => a.push(v));
    const stopB = await hub.watchBooking(4, s.load, (v) => b.push(v));
    await settle();
    stopA();
    s.set(2);
    f.notify('4:1');
    await settle();
    expect([a, b]).toEqual([[1], [1, 2]]);
    stopB();
    const reads = s.reads();
    f.notify('4:1');
    await settle();
    expect(s.reads()).toBe(reads);
    // Watched again, it is read with the new watcher's own reader.
    const c: string[] = [];
    await hub.watchBooking(4, async () => 'new reader', (v) => c.push(v));
    await settle();
    expect(c).toEqual(['new reader']);
  });

  it('tells the board of every change with its company, not of positions, and of a lost connection with 0', async () => {
    const f = fakeDb();
    const hub = createLiveHub(f.db);
    const told: [number, number | null][] = [];
    const stop = await hub.watchChanges((id, company) => told.push([id, company]));
    const s = source('x');
    const sent: string[] = [];
    await hub.watchBooking(5, s.load, (v) => sent.push(v));
    await settle();
    f.notify('5:2');
    f.notify('6');
    f.notify(positionPayload(5));
    s.set('y');
    f.lose();
    await settle();
    expect(told).toEqual([[5, 2], [6, null], [0, null]]);
    // After the lost connection the watched booking was read afresh.
    expect(sent).toEqual(['x', 'y']);
    stop();
    f.notify('5:2');
    expect(told).toHaveLength(3);
  });

  it('is one hub a database in this process', () => {
    const f = fakeDb();
    expect(liveHubOf(f.db)).toBe(liveHubOf(f.db));
    expect(liveHubOf(fakeDb().db)).not.toBe(liveHubOf(f.db));
  });
});
