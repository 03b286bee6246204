// A provider's allowance (issue 42 §1): calls per minute and per day as its plan allows, counted in the database so
// every process sharing it counts against the same allowance. A call is taken in one transaction, both buckets or
// neither; over either, no call is made. `share` keeps part of the allowance for the bookings' own checks: the details
// step's look-ups (anyone on the site can ask for them) may use only that share, so they can never use it all up.
import type { Queryable, Db } from '../db/index';

const minuteBucket = (now: Date) => `m:${now.toISOString().slice(0, 16)}`;
const dayBucket = (now: Date) => `d:${now.toISOString().slice(0, 10)}`;

class OverAllowance extends Error {}

async function take(tx: Queryable, provider: string, bucket: string, limit: number): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO provider_calls (provider, bucket, calls) SELECT $1, $2, 1 WHERE $3::int >= 1
       ON CONFLICT (provider, bucket) DO UPDATE SET calls = provider_calls.calls + 1 WHERE provider_calls.calls < $3::int
     RETURNING calls`, [provider, bucket, limit]);
  return rows.length === 1;
}

/** Takes one call of the allowance; false when the minute's or the day's is used up (nothing is taken then). */
export async function takeCall(db: Db, provider: string, limits: { perMinute: number; perDay: number }, now: Date, share = 1): Promise<boolean> {
  const perMinute = Math.floor(limits.perMinute * share);
  const perDay = Math.floor(limits.perDay * share);
  try {
    await db.transaction(async (tx) => {
      if (!await take(tx, provider, minuteBucket(now), perMinute)) throw new OverAllowance();
      if (!await take(tx, provider, dayBucket(now), perDay)) throw new OverAllowance();
    });
    return true;
  } catch (err) {
    if (err instanceof OverAllowance) return false;
    throw err;
  }
}

/** Calls counted so far this minute and today (the README's check, the tests). */
export async function callsMade(db: Queryable, provider: string, now: Date): Promise<{ minute: number; day: number }> {
  const rows = await db.query<{ bucket: string; calls: number }>('SELECT bucket, calls FROM provider_calls WHERE provider = $1 AND bucket IN ($2, $3)',
    [provider, minuteBucket(now), dayBucket(now)]);
  const of = (b: string) => rows.find((r) => r.bucket === b)?.calls ?? 0;
  return { minute: of(minuteBucket(now)), day: of(dayBucket(now)) };
}
