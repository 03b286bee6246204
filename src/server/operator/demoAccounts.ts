// The README's demo sign-ins in a database that serves customers (issue 39, decision 47). A production server
// refuses to start while any of the README's demo passwords signs in a member of staff or the demo corporate
// passenger, and `npm run admin -- remove-demo-accounts` stops them. Each stored hash is tried against the demo
// passwords once in its life (a full scrypt each): one that holds none of them is remembered (migration 018), so a
// start usually hashes nothing.
import type { Queryable } from '../db/index';
import { verifyPassword } from '../auth/passwords';
import { DEMO_STAFF } from './seed';
import { DEMO_CORPORATE } from './seedCorporate';

/** Every password README gives: the demo staff's and the demo passenger's. */
export const DEMO_PASSWORDS: readonly string[] = [...DEMO_STAFF.map((s) => s.password), DEMO_CORPORATE.password];

export interface DemoSignIn { who: 'staff' | 'passenger'; id: number; email: string; hash: string }

/** Whether a stored hash is that of one of README's demo passwords (the hash's own cost; one at a time per hash). */
async function holdsDemoPassword(hash: string): Promise<boolean> {
  const checks = await Promise.all(DEMO_PASSWORDS.map((p) => verifyPassword(p, hash, 0)));
  return checks.some((c) => c.ok);
}

/**
 * Who a README demo password signs in: active staff, and the demo passenger's account (the one passenger README
 * names). Hashes tried before and found clean are not tried again.
 */
export async function findDemoSignIns(db: Queryable): Promise<DemoSignIn[]> {
  const rows = await db.query<DemoSignIn>(
    `SELECT who, id, email, hash FROM (
       SELECT 'staff' AS who, id, email, password_hash AS hash FROM staff WHERE active
       UNION ALL
       SELECT 'passenger', id, email, password_hash FROM passengers WHERE lower(email) = lower($1) AND password_hash IS NOT NULL
     ) accounts
     WHERE NOT EXISTS (SELECT 1 FROM demo_password_checks d WHERE d.password_hash = accounts.hash)
     ORDER BY who DESC, email`, [DEMO_CORPORATE.email]);
  const found: DemoSignIn[] = [];
  // One account after another: the hashing queue takes a few at once, and a start has nothing else to do meanwhile.
  for (const row of rows) {
    if (await holdsDemoPassword(row.hash)) found.push(row);
    else await db.query('INSERT INTO demo_password_checks (password_hash) VALUES ($1) ON CONFLICT DO NOTHING', [row.hash]);
  }
  return found;
}

/** Why a production server will not start, and what fixes it, in one line; null when no demo password signs in. */
export function demoSignInRefusal(found: DemoSignIn[]): string | null {
  if (!found.length) return null;
  const who = found.map((f) => `${f.email} (${f.who === 'staff' ? 'staff' : 'the demo corporate passenger'})`).join(', ');
  return `NODE_ENV is production but a demo password from README still signs in ${who}. `
    + 'Run npm run admin -- remove-demo-accounts to stop them signing in, or give a member of staff a new password with '
    + 'npm run admin -- add-staff --email <e-mail> --name <name> --role <role> (the first administrator: --role admin).';
}

/**
 * Stops every demo sign-in: such a member of staff is removed (as remove-staff: their sessions end), the demo
 * passenger's account loses its password and tokens (its bookings stay, as records). Each only while its hash is
 * still the one found, in one statement.
 */
export async function removeDemoSignIns(db: Queryable): Promise<DemoSignIn[]> {
  const removed: DemoSignIn[] = [];
  for (const f of await findDemoSignIns(db)) {
    const rows = f.who === 'staff'
      ? await db.query(
        `WITH gone AS (UPDATE staff SET active = false WHERE id = $1 AND password_hash = $2 RETURNING id),
              ended AS (UPDATE staff_sessions SET revoked_at = now() WHERE staff_id IN (SELECT id FROM gone) AND revoked_at IS NULL)
         SELECT id FROM gone`, [f.id, f.hash])
      : await db.query(
        `WITH gone AS (UPDATE passengers SET password_hash = NULL WHERE id = $1 AND password_hash = $2 RETURNING id),
              ended AS (UPDATE passenger_tokens SET revoked_at = now() WHERE passenger_id IN (SELECT id FROM gone) AND revoked_at IS NULL)
         SELECT id FROM gone`, [f.id, f.hash]);
    if (rows.length) removed.push(f);
  }
  return removed;
}
