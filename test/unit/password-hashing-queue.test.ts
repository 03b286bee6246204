// Issue 24: never more password hashes at once than the machine has cores, a bounded line behind them, and a
// refusal (503 with Retry-After, app.ts) beyond it. The queue is driven with tasks the test finishes by hand.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { boundedQueue, hashing, HashingBusy, hashPassword, verifyPassword, WAITING_PER_CORE } from '../../src/server/auth/passwords';

function task() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  return { run: () => done, finish };
}

describe('the password-hashing queue', () => {
  it('runs two at once, lines up three more, and refuses the sixth at once', async () => {
    const q = boundedQueue(2, 3);
    const tasks = Array.from({ length: 5 }, task);
    const runs = tasks.map((t) => q.run(t.run));
    expect([q.running, q.waiting, q.started]).toEqual([2, 3, 2]);
    const busy = await q.run(task().run).catch((e: HashingBusy) => e);
    expect(busy).toBeInstanceOf(HashingBusy);
    expect([(busy as HashingBusy).kind, (busy as HashingBusy).message, (busy as HashingBusy).retryAfterSeconds])
      .toEqual(['busy', 'The server is busy. Please try again in a moment.', 2]);
    tasks[0].finish();
    await runs[0];
    await Promise.resolve();
    // The freed slot went to the first in line: still two running, two waiting.
    expect([q.running, q.waiting, q.started]).toEqual([2, 2, 3]);
    for (const t of tasks) t.finish();
    await Promise.all(runs);
    expect([q.running, q.waiting, q.started]).toEqual([0, 0, 5]);
  });

  it('frees the slot of a task that fails', async () => {
    const q = boundedQueue(1, 0);
    await expect(q.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    expect(q.running).toBe(0);
    await expect(q.run(async () => 'ok')).resolves.toBe('ok');
  });

  it('is sized by the machine: one hash per core, four per core in line', () => {
    expect(WAITING_PER_CORE).toBe(4);
    const tasks = Array.from({ length: availableParallelism() * 5 }, task);
    const runs = tasks.map((t) => hashing.run(t.run));
    expect([hashing.running, hashing.waiting]).toEqual([availableParallelism(), availableParallelism() * 4]);
    return expect(hashing.run(task().run)).rejects.toBeInstanceOf(HashingBusy).finally(async () => {
      for (const t of tasks) t.finish();
      await Promise.all(runs);
    });
  });
});

describe('a stored password hash', () => {
  it('checks the right password, and refuses a hash that is not a whole scrypt record without trying it', async () => {
    const stored = await hashPassword('right-pass-1', 10);
    expect(await verifyPassword('right-pass-1', stored, 10)).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword('wrong-pass-1', stored, 10)).toEqual({ ok: false, needsRehash: false });
    expect(await verifyPassword('right-pass-1', stored, 11)).toEqual({ ok: true, needsRehash: true });
    const [, n, r, p, salt, key] = stored.split('$');
    const started = hashing.started;
    for (const damaged of ['x', `bcrypt$${n}$${r}$${p}$${salt}$${key}`, `scrypt$${n}$${r}$${p}$$${key}`, `scrypt$${n}$${r}$${p}$${salt}$`,
      `scrypt$${n}$8.5$${p}$${salt}$${key}`]) {
      expect(await verifyPassword('right-pass-1', damaged, 10), damaged).toEqual({ ok: false, needsRehash: false });
    }
    expect(hashing.started).toBe(started);
  });
});
