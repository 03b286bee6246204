// Ending a connection cleanly when we answer before the client has sent its whole request body.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'hono';

/** How long a connection we are closing keeps reading what the client still sends (see closeConnection). */
export const LINGER_MS = 5000;

/** Node's request under @hono/node-server; undefined under `app.request` in tests. */
function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/** True when we answer before the client has finished sending its request body. */
export function bodyStillArriving(c: Context): boolean {
  const incoming = nodeRequest(c);
  return incoming !== undefined && !incoming.complete;
}

/**
 * Ends the connection after this answer, cleanly. An answer sent before the
 * body has arrived (413, 401, 503) leaves the rest of the body on the wire: on
 * a kept-alive connection the server would have to read it all before the
 * client's next request, and if it gave up and closed the socket instead, that
 * next request was lost. `Connection: close` tells the client to send its next
 * request on a new connection; then we close our side but keep reading (and
 * discarding) what the client still sends, for up to LINGER_MS, so closing
 * with unread data does not reset the connection before the client has read
 * our answer.
 */
export function closeConnection(c: Context): void {
  c.header('Connection', 'close');
  const socket = nodeRequest(c)?.socket;
  if (socket) lingerOnClose(socket);
}

const lingering = new WeakSet<Socket>();

function lingerOnClose(socket: Socket): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node's HTTP server calls destroySoon() once a `Connection: close` answer is
  // written; this socket's own version half-closes instead and waits for the client.
  const s = socket as Socket & { destroySoon?: () => void };
  let closing = false;
  s.destroySoon = () => {
    if (closing || s.destroyed) return;
    closing = true;
    s.end();
    const timer = setTimeout(() => s.destroy(), LINGER_MS);
    timer.unref();
    s.once('close', () => clearTimeout(timer));
  };
}
