// When the embedded database's line is full, a new API request is answered at
// once with 503, Retry-After and a clear message, and served again once the
// line moves. (PGlite only: with PostgreSQL the pool queues by itself.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/db/index';
import { migrate } from '../../src/server/db/migrate';
import { seedIfEmpty } from '../../src/server/operator/seed';
import { createApp } from '../../src/server/app';
import { estimateDistance } from '../../src/server/geo/distance';
import { HEATHROW_TO_TRAFALGAR, KEYS, TEST_SECURITY, localCards } from './setup';

const LIMIT = 3;
let db: Db;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  db = await openDb({ queueLimit: LIMIT });
  await migrate(db);
  await seedIfEmpty(db, 10);
  app = createApp({
    db, distance: estimateDistance, mail: { kick: () => {} }, apiKeys: { public: KEYS['API-PUBLIC-KEY'], secret: KEYS['API-SECRET-KEY'] },
    now: () => new Date(), siteUrl: 'http://localhost:8080', security: TEST_SECURITY, cards: localCards(db),
  });
});
afterAll(async () => { await db.close(); });

const price = () => app.request('/api/v1/calculate-distance-price', {
  method: 'POST', headers: { ...KEYS, 'Content-Type': 'application/json' }, body: JSON.stringify(HEATHROW_TO_TRAFALGAR),
});

describe('a full database line', () => {
  it('answers 503 with Retry-After until the line moves, then serves again', async () => {
    expect((await price()).status).toBe(200);

    let release: (() => void) | undefined;
    const holding = db.transaction(() => new Promise<void>((resolve) => { release = resolve; }));
    while (!release) await new Promise((resolve) => setImmediate(resolve)); // it has the database now
    const waiting = Array.from({ length: LIMIT }, (_, i) => db.query<{ n: number }>('SELECT $1::int AS n', [i]));

    const busy = await price();
    expect(busy.status).toBe(503);
    const retryAfter = Number(busy.headers.get('Retry-After'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
    const body = await busy.json();
    expect(body).toMatchObject({ success: false });
    expect(body.message).toMatch(/busy.*try again/i);
    expect(body.error).toBe(body.message);

    release!();
    await holding;
    expect((await Promise.all(waiting)).map((rows) => rows[0].n)).toEqual([0, 1, 2]);
    expect((await price()).status).toBe(200);
  });
});
