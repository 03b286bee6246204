// Issue 43 §4 (decision 60): the retention job run by two server processes at once does each row once. On
// PostgreSQL (npm run test:pg) each "process" has its own pool of connections to the same database, as two processes
// have; on PGlite (one database in this process) both run on the one database. Batches are small, so each process
// takes many, one transaction each (FOR UPDATE SKIP LOCKED among the rows not yet done).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, closeSecond, secondProcessDb } from './setup';
import { book, journeyAt, type TestApp } from './privacyHelpers';
import type { Db } from '../../src/server/db/index';
import { loadSettings } from '../../src/server/deps';
import { removeExpiredPersonalData } from '../../src/server/privacy/job';
import { REMOVED_BECAUSE } from '../../src/server/privacy/anonymise';

const POSTGRES = process.env.API_TEST_DATABASE_URL;

let t: TestApp;
let second: Db;
beforeAll(async () => {
  t = await testApp();
  second = await secondProcessDb(t.db);
});
afterAll(async () => {
  await closeSecond(second, t.db);
  await t.db.close();
});

describe(`the retention job on two processes at once (${POSTGRES ? 'PostgreSQL: two pools' : 'PGlite: one database'})`, () => {
  it('anonymises every booking past its time exactly once, whichever process takes it', async () => {
    for (let i = 0; i < 10; i++) {
      const b = await book(t, { first: 'Twofold', last: `Passenger${i}`, email: `twofold.${i}.${process.pid}@example.com`, phone: '07700 900777' }, { date: '2030-10-01' });
      await journeyAt(t.db, b.id, new Date('2030-10-01T08:00:00Z'), 'completed');
    }
    const [{ due }] = await t.db.query<{ due: number }>('SELECT count(*)::int AS due FROM bookings WHERE personal_data_removed_at IS NULL');
    expect(due).toBeGreaterThan(10);
    const now = new Date('2045-01-01T00:00:00Z');
    const settings = await loadSettings(t.db);
    const runs = await Promise.all([
      removeExpiredPersonalData(t.db, settings, now, 3), removeExpiredPersonalData(second, settings, now, 3),
      removeExpiredPersonalData(second, settings, now, 3), removeExpiredPersonalData(t.db, settings, now, 3),
    ]);
    expect(runs.reduce((n, r) => n + r.bookings, 0)).toBe(due);
    const timeline = await t.db.query<{ booking_id: number; n: number }>(
      'SELECT booking_id, count(*)::int AS n FROM audit_log WHERE action = $1 GROUP BY booking_id', [REMOVED_BECAUSE.retention]);
    expect(timeline).toHaveLength(due);
    expect(timeline.every((r) => r.n === 1)).toBe(true);
    const [{ left }] = await t.db.query<{ left: number }>('SELECT count(*)::int AS left FROM bookings WHERE personal_data_removed_at IS NULL');
    expect(left).toBe(0);
    // And again, at once: nothing is left to take.
    const again = await Promise.all([removeExpiredPersonalData(t.db, settings, now, 3), removeExpiredPersonalData(second, settings, now, 3)]);
    expect(again).toEqual([{ bookings: 0, passengers: 0, invoices: 0, entries: 0 }, { bookings: 0, passengers: 0, invoices: 0, entries: 0 }]);
  });
});
