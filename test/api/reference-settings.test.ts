// A page needs only the settings (its security policy, the settings it carries): they are read on their own when
// the rest of the reference data (rates, places, banned addresses) is not loaded, and taken from it when it is.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index';
import { openTestDb } from './setup';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';
import { reference, referenceDataChanged, referenceSettings } from '../../src/server/reference/referenceData';
import { setSetting } from '../../src/server/operator/operator';

let db: Db;
const reads: string[] = [];
/** The database with its reads written down. */
let watched: Db;
beforeAll(async () => {
  db = await openTestDb();
  await migrate(db);
  await seedIfEmpty(db, 10);
  watched = { ...db, kind: db.kind, query: (sql, params, opts) => { reads.push(sql); return db.query(sql, params, opts); } };
}, 30_000);
afterAll(() => db.close());

it('reads the settings table alone for a page, then keeps what it read', async () => {
  referenceDataChanged();
  reads.length = 0;
  expect((await referenceSettings(watched)).Company_Name).toBe('Albion Executive Cars');
  expect(reads).toEqual(['SELECT setting_name, setting_value FROM settings']);
  await referenceSettings(watched);
  expect(reads).toHaveLength(1);
});

it('takes the settings from the reference data when that is loaded, with no read of its own', async () => {
  referenceDataChanged();
  await reference(watched);
  reads.length = 0;
  expect((await referenceSettings(watched)).CURRENCY).toBe('£');
  expect(reads).toEqual([]);
});

it('shows a change made in this process at once', async () => {
  await referenceSettings(watched);
  await db.transaction((tx) => setSetting(tx, 'Company_Name', 'Renamed Cars'));
  expect((await referenceSettings(watched)).Company_Name).toBe('Renamed Cars');
});
