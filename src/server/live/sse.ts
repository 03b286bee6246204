// A live answer as Server-Sent Events (issue 41 §5): `subscribe` starts sending and answers how to stop; a comment
// every 20 s keeps proxies from closing a quiet stream; the viewer going away stops it. Each event is JSON. A stream
// ends after about 5 minutes (a timer, whether or not the viewer reads) and the page opens another, so a session or
// link that ended meanwhile is asked again; a viewer that stops reading is dropped once a few events wait for it.
// Streams are counted in this process: so many per booking's link or member of staff, so many per client address (an
// office's dispatchers share one), so many in all (429 beyond, decision 57).
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { DomainError } from '../errors';

export const KEEP_ALIVE_MS = 20_000;
export const STREAM_MS = 5 * 60_000;
/** Events written but not yet taken by a viewer: beyond this the viewer is not reading, and the stream ends. */
export const MAX_WAITING_EVENTS = 32;

export interface StreamLimits { perOwner: number; perAddress: number; total: number }
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perOwner: 5, perAddress: 100, total: 5_000 };
export const TOO_MANY_STREAMS = 'Too many live pages are open from your connection. Close some and reload this one.';

const open = new Map<string, number>();
let openTotal = 0;
/** Streams open now in this process (for tests and the benchmark). */
export const openStreams = () => openTotal;

export function liveStream(
  c: Context, subscribe: (send: (event: string, data: unknown) => void) => Promise<() => void>,
  opts: { owner: string; address: string; limits?: StreamLimits },
) {
  const limits = opts.limits ?? DEFAULT_STREAM_LIMITS;
  const counters: [string, number][] = [[`owner ${opts.owner}`, limits.perOwner], [`address ${opts.address}`, limits.perAddress]];
  if (openTotal >= limits.total || counters.some(([k, max]) => (open.get(k) ?? 0) >= max)) {
    throw new DomainError('tooMany', TOO_MANY_STREAMS, undefined, 30);
  }
  for (const [k] of counters) open.set(k, (open.get(k) ?? 0) + 1);
  openTotal++;
  let counted = true;
  const release = () => {
    if (!counted) return;
    counted = false;
    openTotal--;
    for (const [k] of counters) {
      const left = (open.get(k) ?? 1) - 1;
      if (left > 0) open.set(k, left);
      else open.delete(k);
    }
  };
  // No buffering by a proxy in front (nginx): each event goes out as it is written.
  c.header('X-Accel-Buffering', 'no');
  const answer = streamSSE(c, async (stream) => {
    let ended = false;
    let stop: () => void = () => {};
    let waiting = 0;
    const finish = () => {
      if (ended) return;
      ended = true;
      stop();
      release();
      void stream.abort();
    };
    stream.onAbort(finish);
    // Spread by a fifth, so pages opened together do not all come back together.
    const life = setTimeout(finish, STREAM_MS * (0.9 + Math.random() * 0.2));
    const write = (text: () => Promise<void>) => {
      if (ended) return;
      if (++waiting > MAX_WAITING_EVENTS) { finish(); return; }
      void text().catch(finish).finally(() => { waiting--; });
    };
    try {
      stop = await subscribe((event, data) => write(() => stream.writeSSE({ event, data: JSON.stringify(data) })));
      if (ended) stop();
      while (!ended) {
        await stream.sleep(KEEP_ALIVE_MS);
        write(() => stream.write(': still here\n\n').then(() => {}));
      }
    } finally {
      clearTimeout(life);
      finish();
    }
  });
  // What a live page is sent (where the car is) is kept by no cache: streamSSE's own header says only no-cache.
  answer.headers.set('Cache-Control', 'no-store');
  return answer;
}
