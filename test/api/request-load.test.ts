// Issue 40: the API counts the requests it is answering (http/load.ts), so the mail queue's sender can yield to them
// under load. A count that missed an answer would keep the sender waiting; one that missed a request would let it in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, testApp } from './setup';
import { BUSY_AT, BUSY_WINDOW_MS, requestLoad, underLoad } from '../../src/server/http/load';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const until = async (ready: () => boolean) => {
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => { setTimeout(r, 5); });
  return ready();
};

describe('requests in flight', () => {
  // The count is the process's: requests another test file left waiting for their body (keep-alive, slow uploads) are
  // in it too, so each check is against the count before it.
  it('counts a request while it is answered, and not once it is, whatever the answer', async () => {
    const base = requestLoad.inFlight;
    let arriving!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start(c) { arriving = c; } });
    const answer = t.app.request('/api/v1/calculate-distance-price', {
      method: 'POST', headers: { ...KEYS, 'Content-Type': 'application/json' }, body, duplex: 'half',
    } as RequestInit);
    expect(await until(() => requestLoad.inFlight === base + 1)).toBe(true);
    arriving.enqueue(new TextEncoder().encode('{"pickup": ""}'));
    arriving.close();
    expect((await answer).status).toBe(422);
    expect(requestLoad.inFlight).toBe(base);
    // Refused before any route (no keys), and a route that fails: counted out all the same.
    expect((await t.app.request('/api/v1/setting')).status).toBe(401);
    expect((await t.call('GET', '/no-such-route')).status).toBe(404);
    expect(requestLoad.inFlight).toBe(base);
  });

  it(`is under load from ${BUSY_AT} requests at once, and for ${BUSY_WINDOW_MS} ms after the count last reached it`, () => {
    const base = requestLoad.inFlight;
    const below = Math.max(0, BUSY_AT - 1 - base);
    const quiet = performance.now() + 10 * BUSY_WINDOW_MS;
    for (let i = 0; i < below; i++) requestLoad.started();
    try {
      if (base + below < BUSY_AT) expect(underLoad(quiet)).toBe(false);
      const before = performance.now();
      requestLoad.started();
      expect(underLoad()).toBe(true);
      requestLoad.ended();
      // One answer given: still under load while the next requests are on their way.
      expect(underLoad(before + BUSY_WINDOW_MS - 1)).toBe(true);
      if (base + below < BUSY_AT) expect(underLoad(performance.now() + BUSY_WINDOW_MS + 1)).toBe(false);
    } finally {
      for (let i = 0; i < below; i++) requestLoad.ended();
    }
    expect(requestLoad.inFlight).toBe(base);
  });
});
