// Browser tests switch the operator's settings on a running server through the
// same admin module as `npm run admin` (PGlite allows only one process, so the
// command itself cannot run beside the server). Mounted only when the server
// is started with E2E_ADMIN_TOKEN, and every call must carry that token.
import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index';
import { runAdmin } from './admin';

export function e2eAdminApp(db: Db, token: string) {
  const expected = Buffer.from(token);
  return new Hono().post('/__e2e__/admin', async (c) => {
    const given = Buffer.from(c.req.header('x-e2e-admin-token') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return c.json({ message: 'Forbidden' }, 403);
    const { args } = await c.req.json<{ args: string[] }>();
    try {
      return c.json({ output: await runAdmin(db, args) });
    } catch (err) {
      return c.json({ message: (err as Error).message }, 422);
    }
  });
}
