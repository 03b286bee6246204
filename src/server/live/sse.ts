// A live answer as Server-Sent Events (issue 41 §5): `subscribe` starts sending and answers how to stop; a comment
// every 20 s keeps proxies from closing a quiet stream; the viewer going away stops it. Each event is JSON. A stream
// ends after 5 minutes and the page opens another, so a session or link that ended meanwhile is asked again.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

export const KEEP_ALIVE_MS = 20_000;
export const STREAM_MS = 5 * 60_000;

export function liveStream(c: Context, subscribe: (send: (event: string, data: unknown) => void) => Promise<() => void>) {
  c.header('Cache-Control', 'no-store');
  // No buffering by a proxy in front (nginx): each event goes out as it is written.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    let sending = Promise.resolve();
    const send = (event: string, data: unknown) => {
      sending = sending.then(() => (stream.aborted ? undefined : stream.writeSSE({ event, data: JSON.stringify(data) }))).catch(() => {});
    };
    const stop = await subscribe(send);
    let ended = false;
    stream.onAbort(() => { ended = true; stop(); });
    const until = Date.now() + STREAM_MS;
    while (!ended && !stream.aborted && Date.now() < until) {
      await stream.sleep(KEEP_ALIVE_MS);
      if (!ended && !stream.aborted) await sending.then(() => stream.write(': still here\n\n')).catch(() => {});
    }
    stop();
  });
}
