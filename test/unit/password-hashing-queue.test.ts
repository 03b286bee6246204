// Issue 24: never more password hashes at once than the machine has cores, a bounded line behind them, and a
// refusal (503 with Retry-After, app.ts) beyond it. The queue is driven with tasks the test finishes by hand.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { boundedQueue, hashing, HashingBusy, WAITING_PER_CORE } from '../../src/server/auth/passwords';

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
    await expect(q.run(task().run)).rejects.toBeInstanceOf(HashingBusy);
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
