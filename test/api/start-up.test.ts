// What makes `npm start` quick (decision 31): a migrated database is checked with one read, a new data folder is a
// copy of the prepared demo database with the demo bookings dated from today, and the server runs compiled.
import { previousMonth } from '../../src/domain/accounts';
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/pglite';
import { migrate } from '../../src/server/db/migrate';
import { ensureTemplate, readTemplate } from '../../src/server/db/pgliteTemplate';
import type { Db } from '../../src/server/db/index';
import { loadConfig } from '../../src/server/config';
import { openRuntime } from '../../src/server/runtime';
import { copyDemoImage, demoImageDir, ensureDemoImage } from '../../src/server/operator/demoImage';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { ukToday } from '../../src/domain/ukTime';
import { isZombie, processStartToken } from '../../src/server/dataLock';
// @ts-expect-error a plain JavaScript module of the build scripts
import { compileServer, compiledServerIsStale } from '../../scripts/compile-server.mjs';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'start-up-'));
beforeAll(async () => { expect(await ensureTemplate()).toBe(true); }, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The database's calls, counted by kind. */
function counted(db: Db) {
  const calls = { query: 0, exec: 0, transaction: 0 };
  const wrapped: Db = {
    ...db,
    kind: db.kind,
    query: (sql, params, opts) => { calls.query++; return db.query(sql, params, opts); },
    exec: (sql) => { calls.exec++; return db.exec(sql); },
    transaction: (fn) => { calls.transaction++; return db.transaction(fn); },
  };
  return { db: wrapped, calls };
}

describe('migrations at start', () => {
  it('find an up-to-date database with two reads, and write nothing', async () => {
    const template = readTemplate();
    expect(template).not.toBeNull();
    const db = await openPglite(undefined, { image: template! });
    try {
      const { db: watched, calls } = counted(db);
      expect(await migrate(watched)).toEqual([]);
      expect(calls).toEqual({ query: 2, exec: 0, transaction: 0 });
    } finally {
      await db.close();
    }
  }, 30_000);
});

describe('the prepared demo database', () => {
  beforeAll(async () => { expect(await ensureDemoImage()).toBe(true); }, 60_000);

  it('is kept in node_modules/.cache under a name that changes with the migrations and the seed', () => {
    expect(demoImageDir()).toMatch(/node_modules\/\.cache\/uk-booking\/demo-[0-9a-f]{16}$/);
    expect(existsSync(path.join(demoImageDir(), 'PG_VERSION'))).toBe(true);
  });

  it('is copied into a new or empty folder only, never over a database', () => {
    const fresh = path.join(tmp, 'copy-new');
    expect(copyDemoImage(fresh)).toBe(true);
    expect(existsSync(path.join(fresh, 'PG_VERSION'))).toBe(true);
    const empty = path.join(tmp, 'copy-empty');
    mkdirSync(empty);
    expect(copyDemoImage(empty)).toBe(true);
    const holding = path.join(tmp, 'copy-holding');
    mkdirSync(holding);
    writeFileSync(path.join(holding, 'PG_VERSION'), 'mine');
    expect(copyDemoImage(holding)).toBe(false);
    expect(existsSync(path.join(holding, 'base'))).toBe(false);
  });

  const bookingsOf = (db: Db) => db.query<{ day: string }>(
    `SELECT to_char(b.pick_up_date, 'YYYY-MM-DD') AS day FROM bookings b JOIN passengers p ON p.id = b.passenger_id
     WHERE p.email = $1 ORDER BY b.pick_up_date`, [DEMO_CORPORATE.email]);
  const daysFromToday = (day: string) => Math.round((Date.parse(day) - Date.parse(ukToday())) / 86_400_000);
  // The demo's four, and its journey on account of the 10th of last month (issue 44), in date order.
  const demoDays = () => [-30, -12, 6, 14, daysFromToday(`${previousMonth(ukToday()).start.slice(0, 8)}10`)].sort((a, b) => a - b);

  it('starts a new data folder at the full password cost, with the demo bookings dated from today, once', async () => {
    const config = loadConfig({ DATA_DIR: path.join(tmp, 'runtime-prepared') });
    const first = await openRuntime(config);
    try {
      expect(first.log).toEqual(['Started from the prepared demo database (Albion Executive Cars).']);
      expect((await bookingsOf(first.db)).map((b) => daysFromToday(b.day))).toEqual(demoDays());
      const [{ hash }] = await first.db.query<{ hash: string }>('SELECT password_hash AS hash FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
      expect(hash).toMatch(/^scrypt\$131072\$/); // the demo password hashed at the default cost, 2^17
    } finally {
      await first.db.close();
    }
    const second = await openRuntime(config);
    try {
      expect(second.log).toEqual([]);
      expect(await bookingsOf(second.db)).toHaveLength(5);
    } finally {
      await second.db.close();
    }
  }, 30_000);

  it('is not used at another password cost: that database is seeded at start', async () => {
    const runtime = await openRuntime(loadConfig({ DATA_DIR: path.join(tmp, 'runtime-cost-10'), PASSWORD_HASH_COST: '10' }));
    try {
      expect(runtime.log).toContain('Seeded the demo operator (Albion Executive Cars).');
      expect((await bookingsOf(runtime.db)).map((b) => daysFromToday(b.day))).toEqual(demoDays());
    } finally {
      await runtime.db.close();
    }
  }, 30_000);
});

describe('the compiled server', () => {
  // Inside the project, where the packages it leaves out are found, as they are for build/server.
  const out = path.join(process.cwd(), 'build', `test-server-${process.pid}`);
  beforeAll(async () => {
    expect(await ensureDemoImage()).toBe(true);
    await compileServer(out);
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is built from the site\'s sources alone: the browser tests\' admin door is compiled only when the tests ask', () => {
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { withTests: boolean; inputs: string[] };
    expect(manifest.inputs).toContain('src/server/main.ts');
    expect(manifest.inputs.filter((f) => f.startsWith('test/'))).toEqual([]);
    expect(readdirSync(out)).not.toContain('e2e-server.mjs');
    // The tests' server needs its own entry: a build made for `npm start` is stale for them.
    expect(compiledServerIsStale(out, { withTests: true })).toBe(true);
  });

  it('is compiled again only when a file it was built from is newer, or it is missing', () => {
    expect(compiledServerIsStale(out)).toBe(false);
    utimesSync(path.join(out, 'main.mjs'), new Date(0), new Date(0));
    expect(compiledServerIsStale(out)).toBe(true);
    expect(compiledServerIsStale(path.join(tmp, 'never-compiled'))).toBe(true);
  });

  /** A port nothing listens on now (the system's choice, so two files never pick the same). */
  async function freePort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  /** The compiled server started with `env`: until it is ready (then stopped) or it exits by itself. */
  async function run(env: Record<string, string>, whileReady: (port: number, output: string) => Promise<void> = async () => {}) {
    const port = Number(env.PORT ?? await freePort());
    const child = spawn(process.execPath, [path.join(out, 'main.mjs')], {
      env: { ...process.env, SKIP_SPA_BUILD: '1', PASSWORD_HASH_COST: '10', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stderr!.on('data', (d) => { errors += d; });
    try {
      const code = await new Promise<number | null>((resolve) => {
        child.stdout!.on('data', (d) => { output += d; if (output.includes('Booking site ready')) resolve(null); });
        child.once('exit', (c) => resolve(c));
      });
      if (code === null) await whileReady(port, output);
      return { code, output, errors };
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }
  /** Every path under dir that its group or others may use. */
  function readableByOthers(dir: string): string[] {
    const found: string[] = [];
    const visit = (p: string) => {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) return;
      if (st.mode & 0o077) found.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
    };
    visit(dir);
    return found;
  }
  const askSettings = (url: string) => fetch(`${url}/api/v1/setting`, { headers: { 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' } });

  it('lets `npm run admin` work while it runs on the embedded database, through its door, which goes when it stops', async () => {
    const dataDir = path.join(tmp, 'admin-while-running');
    const admin = (...args: string[]) => new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      child.once('exit', (code) => resolve({ code, out, err }));
    });
    const started = await run({ DATA_DIR: dataDir }, async (port) => {
      expect(existsSync(path.join(dataDir, 'admin-door.json'))).toBe(true);
      const listed = await admin('bookings');
      expect([listed.code, listed.err]).toEqual([0, '']);
      expect(listed.out).toMatch(/BK-[A-Z2-9]{8}/);
      // A change made through the door is what the running site answers at once.
      expect((await admin('set-setting', 'GRACE_TIME', '75')).code).toBe(0);
      const settings = await (await askSettings(`http://127.0.0.1:${port}`)).json() as { setting_name: string; setting_value: string }[];
      expect(settings.find((x) => x.setting_name === 'GRACE_TIME')?.setting_value).toBe('75');
      expect(await admin('launch-rockets')).toMatchObject({ code: 2, err: expect.stringContaining('Unknown command') });
    });
    expect(started.code).toBeNull();
    expect(existsSync(path.join(dataDir, 'admin-door.json'))).toBe(false);
  }, 60_000);

  it('starts and answers, finding the files beside its sources (migrations, the demo database)', async () => {
    await compileServer(out);
    const dataDir = path.join(tmp, 'compiled-data');
    const started = await run({ DATA_DIR: dataDir, NODE_ENV: 'production', CARD_GATEWAY: 'test', PASSWORD_HASH_COST: '' }, async (port) => {
      expect((await askSettings(`http://127.0.0.1:${port}`)).status).toBe(200);
      // Issue 24: what the running server has made (database, lock, secret) is its user's alone.
      expect(readableByOthers(dataDir)).toEqual([]);
      expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(true);
    });
    expect(started.code).toBeNull();
    // Production: the migrated template and the reference data alone, never the demo's sign-ins (issue 39).
    expect(started.output).toContain('no staff, passengers or bookings');
    // HOST unset: every interface, and the address to open is localhost.
    expect(started.output).toMatch(/^Listening on every interface \((\[::\]|0\.0\.0\.0)\), port \d+$/m);
    expect(started.output).toMatch(/^Booking site ready on http:\/\/localhost:\d+ /m);
  }, 30_000);

  it('listens on HOST alone when it is set, and says so (issue 24)', async () => {
    const started = await run({ DATA_DIR: path.join(tmp, 'host-data'), HOST: '127.0.0.1' }, async (port) => {
      expect((await askSettings(`http://127.0.0.1:${port}`)).status).toBe(200);
    });
    expect(started.code).toBeNull();
    expect(started.output).toContain('Seeded the demo operator (Albion Executive Cars).'); // not production: the demo
    const port = /Listening on 127\.0\.0\.1:(\d+)$/m.exec(started.output)?.[1];
    expect(port).toBeTruthy();
    expect(started.output).toContain(`Booking site ready on http://127.0.0.1:${port} `);
  }, 30_000);

  it('takes the data folder over from a zombie: a server killed with its parent that no one reaped (issue 24)', async () => {
    const dir = path.join(tmp, 'zombie-data');
    mkdirSync(dir, { recursive: true });
    const parent = spawn('sh', ['-c', '(sleep 0.3) & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(String((await once(parent.stdout!, 'data'))[0]).trim());
      await expect.poll(() => isZombie(zombie), { timeout: 10_000 }).toBe(true);
      writeFileSync(path.join(dir, 'server.pid'), `${zombie}\n${processStartToken(zombie)}\n`);
      const started = await run({ DATA_DIR: dir });
      expect(started.errors).toBe('');
      expect(started.code).toBeNull();
    } finally {
      parent.kill('SIGKILL');
    }
  }, 30_000);

  it('refuses to start in one line on stderr and exit code 1, never a stack trace (issue 24)', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const takenPort = (taken.address() as net.AddressInfo).port;
    const closedPort = await freePort();
    const owner = spawn('sleep', ['30'], { stdio: 'ignore' });
    await once(owner, 'spawn');
    const lockedDir = path.join(tmp, 'locked-data');
    mkdirSync(lockedDir, { recursive: true });
    writeFileSync(path.join(lockedDir, 'server.pid'), `${owner.pid}\n${processStartToken(owner.pid!)}\n`);
    const data = (name: string) => path.join(tmp, `refused-${name}`);
    const cases: [string, Record<string, string>, RegExp][] = [
      ['a port in use', { DATA_DIR: data('port'), PORT: String(takenPort) }, new RegExp(`port ${takenPort} is already in use by another program: stop it, or set PORT`)],
      ['an address not of this machine', { DATA_DIR: data('host'), HOST: '192.0.2.1' }, /HOST "192\.0\.2\.1" is not an address of this machine/],
      ['a data folder another server has', { DATA_DIR: lockedDir }, new RegExp(`is in use by process ${owner.pid}\\. Stop it first, or set DATA_DIR`)],
      ['production without Stripe keys', { DATA_DIR: data('stripe'), NODE_ENV: 'production' }, /NODE_ENV is production but no Stripe keys are set/],
      ['some Stripe keys but not all', { DATA_DIR: data('keys'), STRIPE_SECRET_KEY: 'sk_test_1' }, /missing: STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET/],
      ['a PORT that is not a port', { DATA_DIR: data('nan'), PORT: 'eighty' }, /PORT must be a whole number from 1 to 65535, not "eighty"/],
      ['a database that cannot be reached', { DATA_DIR: data('pg'), DATABASE_URL: `postgres://booking:secret-pw@127.0.0.1:${closedPort}/booking` },
        new RegExp(`could not open the database, PostgreSQL at 127\\.0\\.0\\.1:${closedPort} \\(DATABASE_URL\\)`)],
    ];
    try {
      for (const [what, env, reason] of cases) {
        const refused = await run(env);
        expect(refused.code, what).toBe(1);
        const lines = refused.errors.split('\n').filter(Boolean);
        expect(lines, what).toHaveLength(1);
        expect(lines[0], what).toMatch(/^Cannot start the booking site: /);
        expect(lines[0], what).toMatch(reason);
        expect(lines[0], what).not.toContain('secret-pw');
      }
      // The folder another server has is left as it was.
      expect(readFileSync(path.join(lockedDir, 'server.pid'), 'utf8').split('\n')[0]).toBe(String(owner.pid));
    } finally {
      owner.kill('SIGKILL');
      taken.close();
    }
  }, 60_000);
});
