// Once per run (and test project, vitest.config.ts): the demo database, migrated and seeded as `npm start` seeds it, dumped to a file, so each API test
// file starts its own in-memory PGlite from that image instead of creating a cluster (initdb is most of the 4 s a
// fresh PGlite takes). PostgreSQL runs (API_TEST_DATABASE_URL) do not need it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, dumpPglite } from '../../src/server/db/pglite';
import { readTemplate } from '../../src/server/db/pgliteTemplate';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';
import { TEST_SECURITY } from './setup';

declare module 'vitest' {
  export interface ProvidedContext { seededPglite: string | null }
}

export default async function setup(project: TestProject) {
  if (process.env.API_TEST_DATABASE_URL) {
    project.provide('seededPglite', null);
    return undefined;
  }
  // From the migrated template when npm install built it (initdb otherwise); this setup runs once per test project.
  const db = await openPglite(undefined, { image: readTemplate() ?? undefined });
  await migrate(db);
  await seedIfEmpty(db, TEST_SECURITY.passwordHashCost);
  const image = await dumpPglite(db);
  await db.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seeded-pglite-'));
  const file = path.join(dir, 'seeded.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('seededPglite', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
