// The demo seed runs once, even when two servers start on one database at the same moment.
import { expect, it } from 'vitest';
import { openTestDb } from './setup';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';

it('seeds an empty database once when two starts race for it', async () => {
  const db = await openTestDb();
  try {
    await migrate(db);
    const results = await Promise.all([seedIfEmpty(db, 10), seedIfEmpty(db, 10)]);
    expect(results.sort()).toEqual([false, true]);
    const [{ companies, accounts }] = await db.query<{ companies: number; accounts: number }>(
      `SELECT (SELECT count(*)::int FROM companies) AS companies,
              (SELECT count(*)::int FROM passengers WHERE password_hash IS NOT NULL) AS accounts`);
    expect({ companies, accounts }).toEqual({ companies: 3, accounts: 1 });
    expect(await seedIfEmpty(db, 10)).toBe(false);
  } finally {
    await db.close();
  }
});
