// Issue 39 item 1: demo data only where it is asked for (decision 47). A production server (NODE_ENV=production) on a
// new data folder or a new PostgreSQL database has the reference data but no demo staff, passenger or bookings; its
// first administrator comes from `npm run admin -- add-staff`; and it refuses to start while a README demo password
// still signs anyone in. `npm start` without NODE_ENV=production keeps the demo (test/api/start-up.test.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDb, type Db } from '../../src/server/db/index';
import { ensureTemplate } from '../../src/server/db/pgliteTemplate';
import { estimateDistance } from '../../src/server/geo/distance';
import { hashing } from '../../src/server/auth/passwords';
import { runAdmin } from '../../src/server/operator/adminCommands';
import { DEMO_PASSWORDS, demoSignInRefusal, findDemoSignIns, removeDemoSignIns } from '../../src/server/operator/demoAccounts';
import { ensureDemoImage } from '../../src/server/operator/demoImage';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { PRODUCTION_SEED, openRuntime } from '../../src/server/runtime';
import { KEYS, TEST_SECURITY, localCards, seededTestDb } from './setup';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'demo-data-'));
beforeAll(async () => { expect(await ensureTemplate()).toBe(true); }, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const [ADMIN, METRO] = DEMO_STAFF;
const PRODUCTION = { NODE_ENV: 'production', CARD_GATEWAY: 'test' };
const NEW_ADMIN = { email: 'first.admin@example.co.uk', password: 'Our-own-admin-2026' };

/** What a database holds of the demo's people and of the reference data. */
async function contents(db: Db) {
  const [row] = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*)::int FROM staff) AS staff, (SELECT count(*)::int FROM passengers) AS passengers,
            (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM companies) AS companies,
            (SELECT count(*)::int FROM vehicle_rates) AS rates, (SELECT count(*)::int FROM addresses) AS places,
            (SELECT count(*)::int FROM settings) AS settings`);
  return row;
}

/** A staff sign-in and a corporate sign-in against this database: their statuses. */
async function signIns(db: Db, staff: { email: string; password: string }) {
  const app = createApp({
    db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
    now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(db),
  });
  const post = (p: string, body: unknown) => app.request(`/api/v1${p}`, { method: 'POST', headers: { ...KEYS, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return {
    staff: (await post('/operator/session', staff)).status,
    passenger: (await post('/check-passenger-login', { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password })).status,
  };
}

/** `npm run admin -- ...` as a person runs it, with this environment. */
function admin(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `npm start`'s server (its sources) with `env`: until it is ready (then `whileReady`, then stopped) or it exits by itself. */
async function serve(env: Record<string, string>, whileReady: (url: string) => Promise<void> = async () => {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, SKIP_SPA_BUILD: '1', HOST: '127.0.0.1', ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr!.on('data', (d) => { errors += d; });
  try {
    const code = await new Promise<number | null>((resolve) => {
      child.stdout!.on('data', (d) => { output += d; if (output.includes('Booking site ready')) resolve(null); });
      child.once('exit', (c) => resolve(c));
    });
    if (code === null) await whileReady(`http://127.0.0.1:${port}`);
    return { code, output, errors };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const staffSignIn = (url: string, who: { email: string; password: string }) => fetch(`${url}/api/v1/operator/session`, {
  method: 'POST', headers: { ...KEYS, 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key', 'Content-Type': 'application/json' },
  body: JSON.stringify(who),
});

describe('a production start on a new data folder', () => {
  it('starts from the migrated template with the reference data alone: no demo staff, passenger or bookings', async () => {
    const config = loadConfig({ ...PRODUCTION, DATA_DIR: path.join(tmp, 'production'), PASSWORD_HASH_COST: '10' });
    const runtime = await openRuntime(config);
    try {
      expect(runtime.log).toEqual([PRODUCTION_SEED]);
      expect(await contents(runtime.db)).toMatchObject({ staff: 0, passengers: 0, bookings: 0, companies: 3, rates: 14 });
      expect((await contents(runtime.db)).places).toBeGreaterThan(40);
      expect(await signIns(runtime.db, ADMIN)).toEqual({ staff: 401, passenger: 401 });
      // The first administrator, as README's deployment steps add one; then the site has staff, and still no demo.
      expect(await runAdmin(runtime.db, ['add-staff', '--email', NEW_ADMIN.email, '--name', 'First Admin', '--role', 'admin', '--password', NEW_ADMIN.password], 10))
        .toBe(`Staff ${NEW_ADMIN.email} (admin) can sign in at /operator`);
      expect((await signIns(runtime.db, NEW_ADMIN)).staff).toBe(200);
    } finally {
      await runtime.db.close();
    }
    // A second start finds its database and seeds nothing again.
    const again = await openRuntime(config);
    try {
      expect(again.log).toEqual([]);
      expect(await contents(again.db)).toMatchObject({ staff: 1, passengers: 0, companies: 3 });
    } finally {
      await again.db.close();
    }
  }, 60_000);

  it('gets its first administrator from `npm run admin -- add-staff`, who signs in with a __Host- Secure cookie; the demo admin does not', async () => {
    const env = { ...PRODUCTION, DATA_DIR: path.join(tmp, 'first-admin'), PASSWORD_HASH_COST: '10' };
    const added = await admin(env, 'add-staff', '--email', NEW_ADMIN.email, '--name', 'First Admin', '--role', 'admin', '--password', NEW_ADMIN.password);
    expect([added.code, added.out.trim()]).toEqual([0, `Staff ${NEW_ADMIN.email} (admin) can sign in at /operator`]);
    expect(added.err).toContain('no staff, passengers or bookings');
    const started = await serve(env, async (url) => {
      const mine = await staffSignIn(url, NEW_ADMIN);
      expect(mine.status).toBe(200);
      expect(mine.headers.get('set-cookie')).toMatch(/^__Host-operator_session=[\w-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
      expect((await staffSignIn(url, ADMIN)).status).toBe(401);
    });
    expect([started.code, started.errors]).toEqual([null, '']);
  }, 120_000);
});

describe('a production server with a demo password', () => {
  beforeAll(async () => { expect(await ensureDemoImage()).toBe(true); }, 120_000);

  it('refuses to start, naming who and the fix, until `npm run admin -- remove-demo-accounts` has stopped them', async () => {
    const dataDir = path.join(tmp, 'was-a-demo');
    // The demo, as `npm start` made it without NODE_ENV (the prepared demo database, at the full password cost).
    const demo = await openRuntime(loadConfig({ DATA_DIR: dataDir }));
    expect(demo.log).toContain('Started from the prepared demo database (Albion Executive Cars).');
    await demo.db.close();
    const env = { ...PRODUCTION, DATA_DIR: dataDir };
    const refused = await serve(env);
    expect(refused.code).toBe(1);
    expect(refused.errors.split('\n').filter(Boolean)).toEqual([
      `Cannot start the booking site: NODE_ENV is production but a demo password from README still signs in ${METRO.email} (staff), `
      + `${ADMIN.email} (staff), ${DEMO_CORPORATE.email} (the demo corporate passenger). Run npm run admin -- remove-demo-accounts to stop them `
      + 'signing in, or give a member of staff a new password with npm run admin -- add-staff --email <e-mail> --name <name> --role <role> '
      + '(the first administrator: --role admin).',
    ]);
    const removed = await admin(env, 'remove-demo-accounts');
    expect([removed.code, removed.out.trim().split('\n')]).toEqual([0, [
      `${METRO.email} (staff) can no longer sign in`, `${ADMIN.email} (staff) can no longer sign in`,
      `${DEMO_CORPORATE.email} (the demo corporate passenger) can no longer sign in; its bookings stay`,
    ]]);
    const started = await serve(env, async (url) => {
      expect((await staffSignIn(url, ADMIN)).status).toBe(401);
    });
    expect([started.code, started.errors]).toEqual([null, '']);
  }, 180_000);

  it('finds a README password whoever has it, tries each other hash once in its life, and removes only what it found', async () => {
    const db = await seededTestDb();
    try {
      // The demo passenger's password given to a new member of staff is a demo password too.
      await runAdmin(db, ['add-staff', '--email', 'night@example.co.uk', '--name', 'Sam Lee', '--role', 'dispatcher', '--password', DEMO_CORPORATE.password], 10);
      await runAdmin(db, ['add-staff', '--email', NEW_ADMIN.email, '--name', 'First Admin', '--role', 'admin', '--password', NEW_ADMIN.password], 10);
      // A passenger who is not the demo's, with a demo password, is none of README's business.
      await db.query("INSERT INTO passengers (name, email, password_hash) SELECT 'Other', 'other@example.co.uk', password_hash FROM staff WHERE email = $1", [ADMIN.email]);
      const found = await findDemoSignIns(db);
      expect(found.map((f) => [f.who, f.email])).toEqual([
        ['staff', METRO.email], ['staff', 'night@example.co.uk'], ['staff', ADMIN.email], ['passenger', DEMO_CORPORATE.email],
      ]);
      expect(demoSignInRefusal(found)).toMatch(/^NODE_ENV is production but a demo password from README still signs in dispatch@/);
      expect(demoSignInRefusal([])).toBeNull();
      // The clean hash (the new administrator's) is remembered: the next look tries only the demo ones again.
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM demo_password_checks');
      expect(n).toBe(1);
      const before = hashing.started;
      await findDemoSignIns(db);
      expect(hashing.started - before).toBe(4 * DEMO_PASSWORDS.length);
      // A removed member of staff is no longer looked at; a new password is a new hash, tried again.
      await runAdmin(db, ['remove-staff', '--email', METRO.email]);
      await runAdmin(db, ['add-staff', '--email', 'night@example.co.uk', '--name', 'Sam Lee', '--role', 'dispatcher', '--password', 'Sams-own-password'], 10);
      expect((await findDemoSignIns(db)).map((f) => f.email)).toEqual([ADMIN.email, DEMO_CORPORATE.email]);
      const cookie = await signIns(db, ADMIN);
      expect(cookie).toEqual({ staff: 200, passenger: 200 });
      expect((await removeDemoSignIns(db)).map((f) => f.email)).toEqual([ADMIN.email, DEMO_CORPORATE.email]);
      expect(await signIns(db, ADMIN)).toEqual({ staff: 401, passenger: 401 });
      expect(await findDemoSignIns(db)).toEqual([]);
      expect(await runAdmin(db, ['remove-demo-accounts'])).toBe('No one signs in with a demo password from README.');
      // The others keep signing in, and the demo passenger's bookings stay (five, one of them on account: issue 44).
      expect((await signIns(db, NEW_ADMIN)).staff).toBe(200);
      expect((await db.query('SELECT 1 FROM bookings b JOIN passengers p ON p.id = b.passenger_id WHERE p.email = $1', [DEMO_CORPORATE.email])).length).toBe(5);
    } finally {
      await db.close();
    }
  }, 60_000);
});

// On PostgreSQL (npm run test:pg): a new, empty database, as a deployment's first start finds it.
describe.runIf(process.env.API_TEST_DATABASE_URL)('a production start on a new PostgreSQL database', () => {
  let n = 0;
  /** A new, empty schema on the test server, as the DATABASE_URL of a new database. */
  async function newDatabase(): Promise<string> {
    const url = process.env.API_TEST_DATABASE_URL!;
    const schema = `demo_${process.pid}_${Date.now()}_${++n}`;
    const server = await openDb({ databaseUrl: url });
    await server.exec(`CREATE SCHEMA ${schema}`);
    await server.close();
    return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }

  it('has the reference data alone, and its first administrator comes from `npm run admin -- add-staff`', async () => {
    const env = { ...PRODUCTION, DATA_DIR: path.join(tmp, 'pg-production'), DATABASE_URL: await newDatabase(), PASSWORD_HASH_COST: '10' };
    const added = await admin(env, 'add-staff', '--email', NEW_ADMIN.email, '--name', 'First Admin', '--role', 'admin', '--password', NEW_ADMIN.password);
    expect([added.code, added.out.trim()]).toEqual([0, `Staff ${NEW_ADMIN.email} (admin) can sign in at /operator`]);
    const runtime = await openRuntime(loadConfig(env));
    try {
      expect(runtime.log).toEqual([]);
      expect(await contents(runtime.db)).toMatchObject({ staff: 1, passengers: 0, bookings: 0, companies: 3, rates: 14 });
      expect(await signIns(runtime.db, ADMIN)).toEqual({ staff: 401, passenger: 401 });
      expect((await signIns(runtime.db, NEW_ADMIN)).staff).toBe(200);
      expect(await findDemoSignIns(runtime.db)).toEqual([]);
    } finally {
      await runtime.db.close();
    }
  }, 60_000);

  it('refuses a database the demo was seeded into', async () => {
    const url = await newDatabase();
    const demo = await openRuntime(loadConfig({ DATA_DIR: path.join(tmp, 'pg-demo'), DATABASE_URL: url, PASSWORD_HASH_COST: '10' }));
    try {
      expect(demo.log).toContain('Seeded the demo operator (Albion Executive Cars).');
    } finally {
      await demo.db.close();
    }
    const refused = await serve({ ...PRODUCTION, DATA_DIR: path.join(tmp, 'pg-demo'), DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.errors).toMatch(/^Cannot start the booking site: NODE_ENV is production but a demo password from README still signs in dispatch@metrocars\.london \(staff\), ops@/);
  }, 120_000);
});
