// Browser tests switch the operator's settings on a running server through the
// same admin module as `npm run admin` (PGlite allows only one process, so the
// command itself cannot run beside the server), and ask the server to fail a
// call for real (the generated paths' provider failures, test/paths): the next
// matching request has its connection dropped, gets the given status and
// message or answer, or is answered late (when the test releases it). Mounted only when the server is started with
// E2E_ADMIN_TOKEN, and every call must carry that token.
import { Hono, type Context } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Db } from '../../src/server/db/index';
import { runAdmin } from '../../src/server/operator/adminCommands';

/** One request to fail: by method and API path (e.g. POST /api/v1/check-email). */
export interface Fault {
  method: string;
  path: string;
  /**
   * 'drop': the connection closes with no answer (the browser's fetch fails); 'status': an error answer (with
   * `field`, the field it names); 'delay': the call is answered as usual when the test releases it (`{ release }`)
   * or at the latest `ms` later, so a person can act while it is on its way however slow the machine is; 'answer':
   * `body` is the answer, with `status` (200 by default), as a provider's answer the demo data never gives.
   */
  kind: 'drop' | 'status' | 'delay' | 'answer';
  body?: unknown;
  field?: string;
  ms?: number;
  status?: number;
  message?: string;
  /** How many matching requests fail (default 1). Chromium sends a request again, on another open connection, when
   * a reused connection closes with no answer, so a dropped call needs several to reach the page as a failure. */
  times?: number;
}

export function e2eAdminApp(db: Db, token: string) {
  const expected = Buffer.from(token);
  const allowed = (c: Context) => {
    const given = Buffer.from(c.req.header('x-e2e-admin-token') ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const faults: Fault[] = [];
  /** Calls answered late, waiting for their release. */
  const held = new Set<{ method: string; path: string; go: () => void }>();
  const same = (a: { method: string; path: string }, b: { method: string; path: string }) =>
    a.method === b.method && a.path.toLowerCase() === b.path.toLowerCase();
  return new Hono()
    .use('*', async (c, next) => {
      const call = { method: c.req.method, path: c.req.path };
      const at = faults.findIndex((f) => same(f, call));
      if (at < 0) return next();
      const fault = faults[at];
      fault.times = (fault.times ?? 1) - 1;
      if (fault.times <= 0) faults.splice(at, 1);
      if (fault.kind === 'delay') {
        await new Promise<void>((resolve) => {
          const wait = { ...call, go: () => { clearTimeout(timer); held.delete(wait); resolve(); } };
          const timer = setTimeout(wait.go, fault.ms ?? 1000);
          held.add(wait);
        });
        return next();
      }
      if (fault.kind === 'answer') return c.json(fault.body as object, (fault.status ?? 200) as 200);
      if (fault.kind === 'status') {
        return c.json({ success: false, message: fault.message ?? 'Internal error', ...(fault.field ? { field: fault.field } : {}) }, (fault.status ?? 500) as 500);
      }
      (c.env as { incoming?: IncomingMessage }).incoming?.socket.destroy();
      return new Response(null, { status: 444 });
    })
    .post('/__e2e__/admin', async (c) => {
      if (!allowed(c)) return c.json({ message: 'Forbidden' }, 403);
      const { args } = await c.req.json<{ args: string[] }>();
      try {
        return c.json({ output: await runAdmin(db, args) });
      } catch (err) {
        return c.json({ message: (err as Error).message }, 422);
      }
    })
    .post('/__e2e__/fault', async (c) => {
      if (!allowed(c)) return c.json({ message: 'Forbidden' }, 403);
      const body = await c.req.json<Fault | { clear: true } | { release: { method: string; path: string } | 'all' } | { count: { method: string; path: string } }>();
      // How many calls for this method and path are held now.
      if ('count' in body) return c.json({ held: [...held].filter((w) => same(w, body.count)).length });
      // A hold is not a failure: it waits for its call, which may still be on its way, until released.
      if ('clear' in body) faults.splice(0, faults.length, ...faults.filter((f) => f.kind === 'delay'));
      else if ('release' in body) {
        // The calls held for this method and path go on now, and one that has not arrived yet will not wait.
        const matches = (x: { method: string; path: string }) => body.release === 'all' || same(x, body.release);
        for (const wait of [...held]) if (matches(wait)) wait.go();
        for (let i = faults.length - 1; i >= 0; i--) if (faults[i].kind === 'delay' && matches(faults[i])) faults.splice(i, 1);
      } else faults.push(body);
      return c.json({ pending: faults.length, held: held.size });
    });
}
