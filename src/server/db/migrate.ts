// Numbered SQL files in ./migrations, applied once each, in order, at start.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Db } from './types';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function migrate(db: Db): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  // One read on the usual start, where every file is already applied; what is missing is checked again under the lock.
  const known = await appliedVersions(db);
  const pending = files.filter((f) => !known.has(f.replace(/\.sql$/, '')));
  if (!pending.length) return [];
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: string[] = [];
  for (const file of pending) {
    const version = file.replace(/\.sql$/, '');
    const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
    // The lock makes concurrent starts against one PostgreSQL server take turns.
    const done = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(724001)');
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (rows.length) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (done) applied.push(version);
  }
  return applied;
}

/** The versions recorded as applied; none before the first migration made the table. */
async function appliedVersions(db: Db): Promise<Set<string>> {
  const [{ present }] = await db.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  if (!present) return new Set();
  return new Set((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
}

/** Migration files hold plain DDL: statements end with a semicolon at the end of a line. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
