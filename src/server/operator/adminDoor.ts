// `npm run admin` while the site runs on the embedded database (issue 26 part 3). PGlite lets one process open its
// folder, so the command asks the running server to run it, in the server's own process (its caches are then up to
// date at once). When the server has started it writes DATA_DIR/admin-door.json, its user's alone (0600): its pid,
// its port and a random secret. A call must come over loopback, carry that secret, say nothing of a proxy and send
// JSON; the file goes when the server stops. With PostgreSQL there is no door: the command opens the database itself.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { Db } from '../db/index';
import { runAdmin, UsageError } from './adminCommands';

export const DOOR_FILE = 'admin-door.json';
export const DOOR_PATH = '/__admin__/run';
const SECRET_HEADER = 'x-admin-secret';

export interface Door { pid: number; port: number; secret: string }

/** A new secret for this start of the server. */
export const newDoorSecret = () => randomBytes(32).toString('hex');

/** Writes the door file (aside, then renamed: the command never reads half of it); returns its removal. */
export function openDoor(dataDir: string, door: Door): () => void {
  const file = path.join(dataDir, DOOR_FILE);
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(door), { mode: 0o600 });
  renameSync(partial, file);
  return () => {
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as Door).secret === door.secret) rmSync(file, { force: true });
    } catch { /* already gone */ }
  };
}

/** The door of the server that has the folder open, or null when there is none (or it is unreadable). */
export function readDoor(dataDir: string): Door | null {
  try {
    const d = JSON.parse(readFileSync(path.join(dataDir, DOOR_FILE), 'utf8')) as Partial<Door>;
    return Number.isInteger(d.pid) && Number.isInteger(d.port) && typeof d.secret === 'string' && d.secret ? d as Door : null;
  } catch {
    return null;
  }
}

/** Whether the request came over loopback, by the socket itself (never a header a proxy or a client could set). */
export function cameOverLoopback(c: Context): boolean {
  const address = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress;
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * Whether a proxy had a hand in the request. A proxy on this machine also connects over loopback, so any header one
 * adds (X-Forwarded-*, X-Real-IP, Forwarded, Via) shuts the door, whatever the proxy is and whatever it adds.
 */
export function relayed(c: Context): boolean {
  return Object.keys(c.req.header()).some((name) => RELAY_HEADER.test(name));
}
const RELAY_HEADER = /^(x-forwarded-.+|x-real-ip|forwarded|via)$/i;
const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;

/** The door: POST {args} with the secret, over loopback; the command's output, or its usage error (422). */
export function adminDoorApp(db: Db, secret: string, afterRun: () => void = () => {}, hashCost?: number) {
  const expected = Buffer.from(secret);
  const allowed = (c: Context) => {
    const given = Buffer.from(c.req.header(SECRET_HEADER) ?? '');
    return cameOverLoopback(c) && !relayed(c) && given.length === expected.length && timingSafeEqual(given, expected);
  };
  return new Hono().post(DOOR_PATH, async (c) => {
    if (!allowed(c)) return c.json({ message: 'Forbidden' }, 403);
    // The command sends JSON; a form or text body is no call of it (a page cannot send JSON to another origin unasked).
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) return c.json({ message: 'Send the arguments as JSON, with Content-Type: application/json.' }, 415);
    const body = await c.req.json<{ args?: unknown }>().catch(() => ({ args: undefined }));
    const args = body.args;
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return c.json({ message: 'args must be a list of words' }, 422);
    try {
      const output = await runAdmin(db, args, hashCost);
      afterRun();
      return c.json({ output });
    } catch (err) {
      if (err instanceof UsageError || (err as Error).name === 'TypeError') return c.json({ message: (err as Error).message }, 422);
      console.error('Admin command failed:', err);
      return c.json({ message: (err as Error).message }, 500);
    }
  });
}

/** Runs a command through the server's door: its output, or why it failed and the exit code to end with. */
export async function runThroughDoor(door: Door, args: string[]): Promise<{ ok: true; output: string } | { ok: false; message: string; exitCode: number }> {
  const res = await fetch(`http://127.0.0.1:${door.port}${DOOR_PATH}`, {
    method: 'POST', headers: { 'content-type': 'application/json', [SECRET_HEADER]: door.secret }, body: JSON.stringify({ args }),
  });
  const body = await res.json().catch(() => ({})) as { output?: string; message?: string };
  if (res.ok && typeof body.output === 'string') return { ok: true, output: body.output };
  return { ok: false, message: body.message ?? `The server answered ${res.status}.`, exitCode: res.status === 422 ? 2 : 1 };
}
