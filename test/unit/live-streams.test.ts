// Issue 41 §5, decision 57: a live page's stream (src/server/live/sse.ts) is counted per link or member of staff, per
// client address and in all, each refused with 429 beyond its limit and given back when the stream ends; a viewer
// that stops reading is dropped.
import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { DomainError } from '../../src/server/errors';
import { MAX_WAITING_EVENTS, TOO_MANY_STREAMS, liveStream, openStreams, type StreamLimits } from '../../src/server/live/sse';

let run = 0;
const opened: Response[] = [];
afterEach(async () => { for (const res of opened.splice(0)) await res.body?.cancel().catch(() => {}); });

/** An app whose streams send `burst` events at once, counted under `limits`, by owner and address from the path. */
function app(limits: StreamLimits, burst = 1) {
  const a = new Hono();
  a.get('/live/:owner/:address', (c) => liveStream(c, async (send) => {
    for (let i = 0; i < burst; i++) send('job', { i });
    return () => {};
  }, { owner: `${run}-${c.req.param('owner')}`, address: `${run}-${c.req.param('address')}`, limits }));
  a.onError((err, c) => (err instanceof DomainError && err.kind === 'tooMany'
    ? c.json({ message: err.message }, 429, { 'Retry-After': String(err.retryAfterSeconds) }) : c.json({ message: String(err) }, 500)));
  return a;
}
async function open(a: Hono, owner: string, address: string) {
  const res = await a.request(`/live/${owner}/${address}`);
  if (res.status === 200) opened.push(res);
  return res;
}
async function refusal(a: Hono, owner: string, address: string) {
  const res = await open(a, owner, address);
  return [res.status, res.status === 429 ? (await res.json()).message : null];
}
/** Ends a stream as a viewer going away does, and waits until the server has let it go. */
async function close(res: Response) {
  const before = openStreams();
  await res.body!.cancel();
  await expect.poll(() => openStreams()).toBe(before - 1);
}

describe('live streams', () => {
  it('answer as a stream nobody caches or buffers, counted in this process', async () => {
    run++;
    expect(TOO_MANY_STREAMS).toBe('Too many live pages are open from your connection. Close some and reload this one.');
    const base = openStreams();
    expect(Number.isInteger(base) && base >= 0).toBe(true);
    const res = await open(app({ perOwner: 5, perAddress: 5, total: openStreams() + 5 }), 'a', 'x');
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control'), res.headers.get('x-accel-buffering')])
      .toEqual([200, expect.stringMatching(/^text\/event-stream/), 'no-store', 'no']);
    expect(openStreams()).toBe(base + 1);
    await close(res);
    // Given back once, however it ended.
    await new Promise((r) => setTimeout(r, 50));
    expect(openStreams()).toBe(base);
  });

  it('keep a viewer that reads, however many events it is sent over time', async () => {
    run++;
    const base = openStreams();
    let send: (event: string, data: unknown) => void = () => {};
    const a = new Hono();
    a.get('/live', (c) => liveStream(c, async (s) => { send = s; return () => {}; }, { owner: `${run}-reader`, address: `${run}-x`, limits: { perOwner: 5, perAddress: 5, total: base + 5 } }));
    const res = await a.request('/live');
    opened.push(res);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (n: number) => {
      while ((text.match(/^event: job$/gm) ?? []).length < n) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the stream ended');
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await expect.poll(() => send.length).toBe(2);
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < MAX_WAITING_EVENTS - 2; i++) send('job', { round, i });
      await until(round * (MAX_WAITING_EVENTS - 2));
    }
    expect(openStreams()).toBe(base + 1);
    await reader.cancel();
    await expect.poll(() => openStreams()).toBe(base);
  });

  it('stop what they watch when the viewer went away while it was being set up', async () => {
    run++;
    const base = openStreams();
    let ready!: () => void;
    let stopped = 0;
    const a = new Hono();
    a.get('/live', (c) => liveStream(c, async () => { await new Promise<void>((r) => { ready = r; }); return () => { stopped++; }; },
      { owner: `${run}-early`, address: `${run}-x`, limits: { perOwner: 5, perAddress: 5, total: base + 5 } }));
    const res = await a.request('/live');
    await expect.poll(() => typeof ready).toBe('function');
    await res.body!.cancel();
    await expect.poll(() => openStreams()).toBe(base);
    ready();
    await expect.poll(() => stopped).toBe(1);
  });

  it('are counted per owner, given back when one ends', async () => {
    run++;
    const a = app({ perOwner: 2, perAddress: 10, total: openStreams() + 10 });
    const first = await open(a, 'jane', 'x');
    await open(a, 'jane', 'y');
    expect(await refusal(a, 'jane', 'z')).toEqual([429, TOO_MANY_STREAMS]);
    // Another owner is counted apart.
    expect((await open(a, 'john', 'z')).status).toBe(200);
    await close(first);
    expect((await open(a, 'jane', 'z')).status).toBe(200);
    expect(await refusal(a, 'jane', 'w')).toEqual([429, TOO_MANY_STREAMS]);
  });

  it('are counted per client address, and in all', async () => {
    run++;
    const base = openStreams();
    const a = app({ perOwner: 10, perAddress: 2, total: base + 3 });
    const first = await open(a, 'o1', 'office');
    await open(a, 'o2', 'office');
    expect(await refusal(a, 'o3', 'office')).toEqual([429, TOO_MANY_STREAMS]);
    await open(a, 'o3', 'home');
    expect(openStreams()).toBe(base + 3);
    // The third in all is the last: a new owner at a new address is refused too.
    expect(await refusal(a, 'o4', 'cafe')).toEqual([429, TOO_MANY_STREAMS]);
    await close(first);
    expect(openStreams()).toBe(base + 2);
    expect((await open(a, 'o4', 'office')).status).toBe(200);
  });

  it('end, and are given back, when the viewer does not read what is sent', async () => {
    run++;
    const base = openStreams();
    const a = app({ perOwner: 5, perAddress: 5, total: base + 5 }, MAX_WAITING_EVENTS + 8);
    const res = await a.request('/live/slow/x');
    expect(res.status).toBe(200);
    await expect.poll(() => openStreams(), { timeout: 5_000 }).toBe(base);
    // What was written before it ended can still be read, then the stream is over.
    const reader = res.body!.getReader();
    let done = false;
    for (let i = 0; i < 200 && !done; i++) done = (await reader.read()).done;
    expect(done).toBe(true);
  });

  it('send up to the limit of waiting events to a viewer that reads', async () => {
    run++;
    const base = openStreams();
    const res = await open(app({ perOwner: 5, perAddress: 5, total: base + 5 }, MAX_WAITING_EVENTS), 'fast', 'x');
    expect(res.status).toBe(200);
    expect(openStreams()).toBe(base + 1);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/^event: job$/gm) ?? []).length < MAX_WAITING_EVENTS) text += decoder.decode((await reader.read()).value, { stream: true });
    expect(openStreams()).toBe(base + 1);
    await reader.cancel();
    await expect.poll(() => openStreams()).toBe(base);
  });
});
