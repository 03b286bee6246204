// What makes `npm start` quick (decision 31): a migrated database is checked with one read, a new data folder is a
// copy of the prepared demo database with the demo bookings dated from today, and the server runs compiled.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('starts a new data folder at the full password cost, with the demo bookings dated from today, once', async () => {
    const config = loadConfig({ DATA_DIR: path.join(tmp, 'runtime-prepared') });
    const first = await openRuntime(config);
    try {
      expect(first.log).toEqual(['Started from the prepared demo database (Albion Executive Cars).']);
      expect((await bookingsOf(first.db)).map((b) => daysFromToday(b.day))).toEqual([-30, -12, 6, 14]);
      const [{ hash }] = await first.db.query<{ hash: string }>('SELECT password_hash AS hash FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
      expect(hash).toMatch(/^scrypt\$131072\$/); // the demo password hashed at the default cost, 2^17
    } finally {
      await first.db.close();
    }
    const second = await openRuntime(config);
    try {
      expect(second.log).toEqual([]);
      expect(await bookingsOf(second.db)).toHaveLength(4);
    } finally {
      await second.db.close();
    }
  }, 30_000);

  it('is not used at another password cost: that database is seeded at start', async () => {
    const runtime = await openRuntime(loadConfig({ DATA_DIR: path.join(tmp, 'runtime-cost-10'), PASSWORD_HASH_COST: '10' }));
    try {
      expect(runtime.log).toContain('Seeded the demo operator (Albion Executive Cars).');
      expect((await bookingsOf(runtime.db)).map((b) => daysFromToday(b.day))).toEqual([-30, -12, 6, 14]);
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

  it('is compiled again only when a file it was built from is newer, or it is missing', () => {
    expect(compiledServerIsStale(out)).toBe(false);
    utimesSync(path.join(out, 'main.mjs'), new Date(0), new Date(0));
    expect(compiledServerIsStale(out)).toBe(true);
    expect(compiledServerIsStale(path.join(tmp, 'never-compiled'))).toBe(true);
  });

  it('starts and answers, finding the files beside its sources (migrations, the demo database)', async () => {
    await compileServer(out);
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [path.join(out, 'main.mjs')], {
      env: { ...process.env, PORT: String(port), DATA_DIR: path.join(tmp, 'compiled-data'), SKIP_SPA_BUILD: '1', NODE_ENV: 'production', CARD_GATEWAY: 'test' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d) => { output += d; if (output.includes('Booking site ready')) resolve(); });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
      });
      expect(output).toContain('Started from the prepared demo database');
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/setting`, { headers: { 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' } });
      expect(res.status).toBe(200);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 30_000);
});
