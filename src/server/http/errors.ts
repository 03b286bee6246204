// Turning bad input into clear answers: 400 for unreadable JSON, 422 naming
// the field for a body that breaks a schema, never a 500.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'hono';
import { StructError, create, type Struct } from 'superstruct';
import { BookingForm } from '../../domain/schemas';
import { fastBookingForm } from './fastForms';

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503, message: string, readonly field?: string,
    /** Extra response headers, e.g. Retry-After on a 503. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

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

/** Deeper than any request of this API: a booking is 4 levels. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another, counted before it is parsed: what
 * reads a parsed value recursively (the request hash of an Idempotency-Key, superstruct) would overflow the stack on
 * thousands of levels. Brackets inside strings do not count.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) { if (++depth > max) return true; }
    else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return false;
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new HttpError(400, 'The request body is empty; send JSON.');
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new HttpError(400, `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

/** Checks and fills defaults; a failure names the field, e.g. "bookingForm.pickup". */
export function validate<T, S>(value: unknown, struct: Struct<T, S>, prefix = ''): T {
  // The booking form's common case is checked without superstruct (fastForms.ts); anything else goes through it.
  if (struct === (BookingForm as unknown)) {
    const quick = fastBookingForm(value);
    if (quick) return quick as T;
  }
  try {
    return create(value, struct);
  } catch (err) {
    if (err instanceof StructError) {
      const field = [prefix, ...err.path.map(String)].filter(Boolean).join('.');
      throw new HttpError(422, describeFailure(field, err), field || undefined);
    }
    // superstruct itself can trip over hostile values (an object whose toString is not a function).
    throw new HttpError(422, `${prefix || 'body'}: a value has the wrong type`, prefix || undefined);
  }
}

function describeFailure(field: string, err: StructError): string {
  if (err.value === undefined && err.type !== 'never') return `${field || 'body'} is required`;
  if (err.type === 'never') return `${field} is not a known field`;
  const detail = err.message.replace(/^At path: [^ ]+ -- /, '');
  return field ? `${field}: ${detail}` : detail;
}

export async function readBody<T, S>(c: Context, struct: Struct<T, S>): Promise<T> {
  return validate(await readJson(c), struct);
}
