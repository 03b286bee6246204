// Over a real socket: an answer given before the request body has all arrived
// (413 for a body over the limit, 401 without the keys) must not cost the
// client its next request. The server says `Connection: close`, finishes the
// answer, closes its side cleanly and keeps reading what the client still
// sends; a keep-alive client's next request goes on a new connection and is
// answered. Ordinary answers keep the connection open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { HEATHROW_TO_TRAFALGAR, KEYS, testApp } from './setup';
import { MAX_BODY_BYTES } from '../../src/server/app';

let t: Awaited<ReturnType<typeof testApp>>;
let server: ReturnType<typeof serve>;
let port: number;

beforeAll(async () => {
  t = await testApp();
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  (server as http.Server).closeAllConnections?.();
  await new Promise((resolve) => server.close(resolve));
  await t.db.close();
});

const PRICE_PATH = '/api/v1/calculate-distance-price';
const priceBody = JSON.stringify(HEATHROW_TO_TRAFALGAR);
const keyLines = Object.entries(KEYS).map(([k, v]) => `${k}: ${v}\r\n`).join('');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawResponse { status: number; headers: Record<string, string>; body: string }

/** A minimal HTTP/1.1 client on one TCP connection, so the test sees exactly what the server does with it. */
class RawConnection {
  readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  ended = false;
  error: Error | null = null;

  constructor() {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (d) => { this.buffer = Buffer.concat([this.buffer, d]); this.wake(); });
    this.socket.on('end', () => { this.ended = true; this.wake(); });
    this.socket.on('error', (err) => { this.error = err; this.wake(); });
    this.socket.on('close', () => { this.ended = true; this.wake(); });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => this.socket.write(data, () => resolve()));
  }

  /** The next complete response, or an error when the connection ends without one. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const head = this.buffer.indexOf('\r\n\r\n');
      if (head >= 0) {
        const [statusLine, ...lines] = this.buffer.subarray(0, head).toString('latin1').split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => {
          const i = l.indexOf(':');
          return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()];
        }));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= head + 4 + length) {
          const body = this.buffer.subarray(head + 4, head + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(head + 4 + length);
          return { status: Number(statusLine.split(' ')[1]), headers, body };
        }
      }
      if (this.ended || this.error) {
        throw new Error(`the connection ended without an answer${this.error ? ` (${this.error.message})` : ''}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves when the server has closed its side (or the connection is gone). */
  async closedByServer(): Promise<void> {
    while (!this.ended && !this.error) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close() {
    this.socket.destroy();
  }
}

/** A keep-alive client: the same connection for the next request unless the answer said `Connection: close`. */
async function nextConnection(conn: RawConnection, answer: RawResponse): Promise<RawConnection> {
  if (answer.headers.connection?.toLowerCase() !== 'close') return conn;
  await conn.closedByServer();
  conn.socket.end();
  return new RawConnection();
}

const priceRequest = () => `POST ${PRICE_PATH} HTTP/1.1\r\nHost: test\r\n${keyLines}Content-Type: application/json\r\n`
  + `Content-Length: ${Buffer.byteLength(priceBody)}\r\n\r\n${priceBody}`;

describe('a body over the limit on a keep-alive connection', () => {
  it('is answered 413 with Connection: close, and a slow uploader\'s next request is answered', async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES * 2, 'x');
    const first = new RawConnection();
    await first.write(`POST ${PRICE_PATH} HTTP/1.1\r\nHost: test\r\n${keyLines}Content-Type: application/json\r\n`
      + `Content-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`);
    await first.write(body.subarray(0, 16 * 1024));
    const tooBig = await first.response();
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body)).toMatchObject({ success: false });
    expect(tooBig.headers.connection?.toLowerCase()).toBe('close');
    // The rest of the upload comes later, as over a slow link (longer than
    // @hono/node-server waits to drain an unread body before dropping the socket).
    await sleep(800);
    await first.write(body.subarray(16 * 1024));
    const conn = await nextConnection(first, tooBig);
    await conn.write(priceRequest());
    const next = await conn.response();
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body).price_details.length).toBeGreaterThan(0);
    conn.close();
    first.close();
  });

  it('closes cleanly: the whole 413 arrives, then the server\'s end of the connection', async () => {
    const body = Buffer.alloc(MAX_BODY_BYTES * 3, 'x');
    const conn = new RawConnection();
    // The whole oversized request in one go, and the client's end, as curl or a form post would.
    await conn.write(Buffer.concat([Buffer.from(`POST ${PRICE_PATH} HTTP/1.1\r\nHost: test\r\n${keyLines}`
      + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`), body]));
    const answer = await conn.response();
    expect(answer.status).toBe(413);
    expect(answer.headers.connection?.toLowerCase()).toBe('close');
    await conn.closedByServer();
    expect(conn.ended).toBe(true);
    expect(conn.error).toBeNull();
    conn.close();
  });

  it('answers an unauthenticated upload before its body arrives with Connection: close, and the next request works', async () => {
    const conn = new RawConnection();
    await conn.write(`POST ${PRICE_PATH} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n{"a":`);
    const denied = await conn.response();
    expect(denied.status).toBe(401);
    expect(denied.headers.connection?.toLowerCase()).toBe('close');
    await sleep(800);
    await conn.write(Buffer.alloc(50000 - 5, ' '));
    const again = await nextConnection(conn, denied);
    await again.write(priceRequest());
    expect((await again.response()).status).toBe(200);
    again.close();
    conn.close();
  });

  it('keeps the connection for ordinary answers', async () => {
    const conn = new RawConnection();
    for (let i = 0; i < 3; i++) {
      await conn.write(priceRequest());
      const res = await conn.response();
      expect(res.status).toBe(200);
      expect(res.headers.connection?.toLowerCase()).not.toBe('close');
    }
    conn.close();
  });
});

describe('node\'s own keep-alive agent', () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  afterAll(() => agent.destroy());

  function post(body: Buffer | string, extra: Record<string, string> = {}, chunked = false) {
    return new Promise<{ status: number; connection?: string; text: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1', port, path: PRICE_PATH, method: 'POST', agent,
        headers: { ...KEYS, 'Content-Type': 'application/json', ...(chunked ? {} : { 'Content-Length': Buffer.byteLength(body) }), ...extra },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
      });
      req.on('error', reject);
      if (chunked) {
        // Several chunks, so the server sees Transfer-Encoding: chunked and no length.
        const bytes = Buffer.from(body);
        for (let i = 0; i < bytes.length; i += 32 * 1024) req.write(bytes.subarray(i, i + 32 * 1024));
        req.end();
      } else {
        req.end(body);
      }
    });
  }

  it('gets its next answer after a 413, with a length or chunked', async () => {
    for (const chunked of [false, true]) {
      const tooBig = await post(Buffer.alloc(MAX_BODY_BYTES + 1024, 'x'), {}, chunked);
      expect(tooBig.status, `chunked: ${chunked}`).toBe(413);
      expect(tooBig.connection, `chunked: ${chunked}`).toBe('close');
      const next = await post(priceBody);
      expect(next.status).toBe(200);
      expect(JSON.parse(next.text).price_details.length).toBeGreaterThan(0);
    }
  });
});

describe('a body that is not JSON, over a real socket (issue 24)', () => {
  it('is a 415 whether it has a length or comes in chunks, and the next request is answered', async () => {
    const url = `http://127.0.0.1:${port}${PRICE_PATH}`;
    // What a form on another site sends, and a script's fetch that forgot the type (text/plain).
    const form = await fetch(url, { method: 'POST', headers: KEYS, body: new URLSearchParams({ pickup: 'x' }) });
    expect(form.status).toBe(415);
    const untyped = await fetch(url, { method: 'POST', headers: KEYS, body: priceBody });
    expect(untyped.status).toBe(415);
    const chunks = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(priceBody)); c.close(); } });
    const chunked = await fetch(url, { method: 'POST', headers: { ...KEYS, 'Content-Type': 'text/plain' }, body: chunks, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(415);
    const json = await fetch(url, { method: 'POST', headers: { ...KEYS, 'Content-Type': 'application/json' }, body: priceBody });
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('no-store');
  });
});
