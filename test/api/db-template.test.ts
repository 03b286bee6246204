// A new embedded database starts from the migrated template (src/server/db/pgliteTemplate.ts) instead of initdb;
// a data folder that already holds a database is opened as it is.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/db/pglite';
import { ensureTemplate, templateFile } from '../../src/server/db/pgliteTemplate';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';
import { TEST_SECURITY } from './setup';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'db-template-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const versions = async (db: Awaited<ReturnType<typeof openPglite>>) =>
  (await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);

describe('the database template', () => {
  beforeAll(async () => { expect(await ensureTemplate()).toBe(true); }, 60_000);

  it('is named after the PGlite version and the migrations, and kept in node_modules/.cache', () => {
    expect(templateFile()).toMatch(/node_modules\/\.cache\/uk-booking\/pglite-[0-9a-f]{16}\.tar\.gz$/);
    expect(existsSync(templateFile())).toBe(true);
  });

  it('gives a new data folder every migration, so the start applies none, and seeds as initdb would', async () => {
    const db = await openPglite(path.join(tmp, 'new'));
    try {
      const before = await versions(db);
      expect(before.length).toBeGreaterThan(5);
      expect(await migrate(db)).toEqual([]);
      expect(await seedIfEmpty(db, TEST_SECURITY.passwordHashCost)).toBe(true);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM companies'))[0].n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
  }, 30_000);

  it('never replaces a database a folder already holds', async () => {
    const dir = path.join(tmp, 'kept');
    const first = await openPglite(dir);
    await first.exec('CREATE TABLE kept_here (x int); INSERT INTO kept_here VALUES (42);');
    await first.close();
    const again = await openPglite(dir);
    try {
      expect(await again.query('SELECT x FROM kept_here')).toEqual([{ x: 42 }]);
    } finally {
      await again.close();
    }
  }, 30_000);
});
