// The line in front of the embedded database: one operation at a time, in the
// order asked, each in its own turn of the event loop; new requests are turned
// away (503, Retry-After) while `limit` operations wait; a failing operation
// hands the turn on.
import { describe, expect, it } from 'vitest';
import { AdmissionQueue, DatabaseBusyError, DEFAULT_DB_QUEUE_LIMIT, parseQueueLimit } from '../../src/server/db/admission';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AdmissionQueue', () => {
  it('runs operations one at a time, in the order they were asked for', async () => {
    const q = new AdmissionQueue(1000);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const ops = Array.from({ length: 40 }, (_, i) => q.run(async () => {
      started.push(i);
      most = Math.max(most, ++running);
      for (let k = 0; k < (i * 7) % 4; k++) await tick(); // uneven lengths
      running--;
      return i * 2;
    }));
    expect(await Promise.all(ops)).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    expect(started).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(most).toBe(1);
  });

  it('starts each operation in a new turn of the event loop, so requests read meanwhile get in line', async () => {
    const q = new AdmissionQueue(10);
    const order: string[] = [];
    const first = q.run(async () => { order.push('first operation'); });
    const second = q.run(async () => { order.push('second operation'); });
    setImmediate(() => order.push('socket read')); // node reading a request that arrived during the first
    await Promise.all([first, second]);
    expect(order).toEqual(['first operation', 'socket read', 'second operation']);
  });

  it('serves a request that arrives while another is between its statements before that one\'s next statement', async () => {
    const q = new AdmissionQueue(10);
    const order: string[] = [];
    const op = (name: string) => () => { order.push(name); return Promise.resolve(); };
    const early = (async () => {
      await q.run(op('early: lookup'));
      await tick(); // work between statements that waits for I/O (a distance service, say)
      await q.run(op('early: write'));
    })();
    const late = new Promise<void>((resolve) => setImmediate(() => { q.run(op('late: lookup')).then(resolve); }));
    await Promise.all([early, late]);
    expect(order).toEqual(['early: lookup', 'late: lookup', 'early: write']);
  });

  it('turns new requests away while `limit` operations wait, and lets them in again once the line moves', async () => {
    const q = new AdmissionQueue(3);
    let release!: () => void;
    const holding = q.run(() => new Promise<void>((resolve) => { release = resolve; }));
    while (!release) await tick(); // the first operation has the database
    expect(() => q.admit()).not.toThrow();
    const waiting = [1, 2, 3].map((n) => q.run(async () => n));
    expect(q.waiting).toBe(3);
    let busy: unknown;
    try { q.admit(); } catch (err) { busy = err; }
    expect(busy).toBeInstanceOf(DatabaseBusyError);
    expect((busy as DatabaseBusyError).message).toMatch(/busy/i);
    const seconds = (busy as DatabaseBusyError).retryAfterSeconds;
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60).toBe(true);
    // Work already admitted still gets its turn, whatever the length of the line.
    const extra = q.run(async () => 'admitted earlier');
    release();
    await holding;
    expect(await Promise.all(waiting)).toEqual([1, 2, 3]);
    expect(await extra).toBe('admitted earlier');
    expect(q.waiting).toBe(0);
    expect(() => q.admit()).not.toThrow();
  });

  it('passes an operation\'s error to its caller and hands the turn on', async () => {
    const q = new AdmissionQueue(10);
    const rejected = q.run(async () => { throw new Error('constraint violated'); });
    const thrown = q.run(() => { throw new Error('thrown before any await'); });
    const after = q.run(async () => 'still served');
    await expect(rejected).rejects.toThrow('constraint violated');
    await expect(thrown).rejects.toThrow('thrown before any await');
    expect(await after).toBe('still served');
    expect(q.waiting).toBe(0);
  });

  it('wants a limit of at least 1; DB_QUEUE_LIMIT is read the same way', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new AdmissionQueue(bad)).toThrow(/queue limit/);
    expect(new AdmissionQueue().limit).toBe(DEFAULT_DB_QUEUE_LIMIT);
    expect(parseQueueLimit(undefined)).toBe(DEFAULT_DB_QUEUE_LIMIT);
    expect(parseQueueLimit('')).toBe(DEFAULT_DB_QUEUE_LIMIT);
    expect(parseQueueLimit('50')).toBe(50);
    for (const bad of ['0', '-3', '2.5', 'lots']) expect(() => parseQueueLimit(bad)).toThrow(/DB_QUEUE_LIMIT/);
  });
});
