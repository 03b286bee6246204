// Issue 40, decision 65: bookings made at the same moment share one statement (bookings/bookingBatch.ts), and each is
// written, answered, mailed and counted exactly as if it had come alone. The database below holds every booking's
// statement at a gate, so the process's writing places fill up and what comes next waits, as under load; no test
// here depends on the machine's speed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/server/db/index';
import { DEFAULT_LIMITS, type Limits } from '../../src/server/limits';
import { loadBooking } from '../../src/server/bookings/queries';
import { bookingWriter, refusedByDatabase, WRITING, BATCH } from '../../src/server/bookings/bookingBatch';
import { hashKey } from '../../src/server/bookings/manageKeys';
import { ACCOUNT_EXISTS } from '../../src/domain/messages';
import { PADDINGTON_TO_HEATHROW, seededTestDb, testApp } from './setup';

/** The database, with every booking's statement held while `holding`; `statements` holds how many bookings each carried. */
function gated(inner: Db) {
  const gate = { holding: false, held: [] as (() => void)[], statements: [] as number[], loseNextBatchAnswer: false };
  const query: Queryable['query'] = async (sql, params, opts) => {
    const bookings = sql.split('INSERT INTO bookings').length - 1;
    if (bookings) {
      gate.statements.push(bookings);
      if (gate.holding) await new Promise<void>((resolve) => gate.held.push(resolve));
    }
    const rows = await inner.query<never>(sql, params, opts);
    // The statement ran and committed, and its answer never came back (a connection lost at that moment).
    if (bookings > 1 && gate.loseNextBatchAnswer) {
      gate.loseNextBatchAnswer = false;
      throw new Error('Connection terminated unexpectedly');
    }
    return rows;
  };
  const db: Db = {
    kind: inner.kind, query, exec: (sql) => inner.exec(sql), transaction: (fn) => inner.transaction(fn), admit: () => inner.admit(),
    listen: (channel, onPayload, onReconnect) => inner.listen(channel, onPayload, onReconnect), close: () => inner.close(),
  };
  return { db, gate };
}

const limits: Limits = Object.fromEntries(Object.entries(DEFAULT_LIMITS).map(([name, l]) => [name, { ...l, max: l.max * 1000 }])) as Limits;
let inner: Db;
let g: ReturnType<typeof gated>;
let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  inner = await seededTestDb();
  g = gated(inner);
  t = await testApp({ db: g.db, limits: { ...limits, bookings: { ...limits.bookings, max: 2 } } });
});
afterAll(async () => { await inner.close(); });

let saloon: unknown;
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', PADDINGTON_TO_HEATHROW);
  saloon = body.price_details.find((p: any) => p.vehicle_type === 'Saloon');
});
const STOPS = [
  { street_name: 'Euston Station, Euston Road, London', number: '', postcode: 'NW1 2RT' },
  { street_name: 'Kings Cross Station, London', number: '1', postcode: 'N1C 4AP' },
];
let n = 0;
/** A pay-in-car booking's request; `stops` adds two; a new client's account with `account`. */
function request(email: string, opts: { stops?: boolean; account?: boolean } = {}) {
  const bookingForm = { ...PADDINGTON_TO_HEATHROW, ...(opts.stops ? { stops: STOPS } : {}) };
  return {
    selectedVehicleData: saloon, selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null, payment_method: 'car',
    selected_passenger: opts.account ? 'new_client' : 'guest_login',
    registrationData: {
      firstName: 'Bea', surname: `Batch ${++n}`, number: '+44 791 123 456', email,
      ...(opts.account ? { password: 'Batch-Pass-2026', privacyAccepted: true, termsAccepted: true } : {}),
    },
  };
}
type Answer = Awaited<ReturnType<typeof t.call>>;
const book = (body: unknown, client: string, key: string): Promise<Answer> =>
  t.call('POST', '/booking', body, { 'X-Forwarded-For': client, 'Idempotency-Key': key });

async function until(what: string, done: () => boolean) {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 60_000) throw new Error(`Still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Fills every writing place of the process with a held booking, then sends `next` while those are held; once all of
 * `next` wait for a statement, lets everything go. Answers `next`'s answers, and the bookings each statement carried
 * from then on.
 */
async function whileBusy(next: (() => Promise<Answer>)[]): Promise<{ answers: Answer[]; statements: number[] }> {
  const writer = bookingWriter(g.db);
  const places = WRITING[g.db.kind];
  g.gate.holding = true;
  const from = g.gate.statements.length;
  const busy = Array.from({ length: places }, () => book(request(`busy${++n}@example.com`), `198.51.100.${n}`, `busy-${n}`));
  let answers: Promise<Answer>[] = [];
  try {
    await until('the writing places to fill', () => g.gate.held.length === places);
    answers = next.map((send) => send());
    await until('the next bookings to wait', () => writer.waiting === next.length);
  } finally {
    g.gate.holding = false;
    for (const release of g.gate.held.splice(0)) release();
  }
  for (const b of await Promise.all(busy)) expect(b.status).toBe(200);
  return { answers: await Promise.all(answers), statements: g.gate.statements.slice(from + places) };
}

function withoutKey<T extends { manage_key?: string }>(data: T): Omit<T, 'manage_key'> {
  const { manage_key: _key, ...rest } = data;
  return rest;
}

describe('bookings made at the same moment', () => {
  it('are written in one statement, each answered, mailed and counted as if it had come alone', async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `together${i}@example.com`);
    const { answers, statements } = await whileBusy(emails.map((email, i) => () => book(request(email), `203.0.113.${i + 1}`, `together-${i}`)));
    expect(statements).toEqual([6]);
    const ids = new Set<number>();
    for (const [i, a] of answers.entries()) {
      expect(a.status).toBe(200);
      const data = a.body.data;
      ids.add(data.booking.id);
      // What it answered is what was written for it: its own passenger, details and number.
      expect(withoutKey(data)).toEqual(await loadBooking(inner, data.booking.id));
      expect(data.passengerDetails.passenger_email).toBe(emails[i]);
      // Its manage key, its confirmation to its own address and the office's notice, once each.
      const [key] = await inner.query<{ n: number }>('SELECT count(*)::int AS n FROM booking_keys WHERE booking_id = $1 AND key_hash = $2',
        [data.booking.id, hashKey(data.manage_key)]);
      expect(key.n).toBe(1);
      const mail = await inner.query<{ kind: string; to_address: string }>(
        'SELECT kind, to_address FROM outbound_emails WHERE booking_id = $1 ORDER BY kind', [data.booking.id]);
      expect(mail.map((m) => m.kind)).toEqual(['booking_confirmation', 'new_booking_notice']);
      expect(mail[0].to_address).toBe(emails[i]);
      // Its own address's allowance, counted once.
      const [used] = await inner.query<{ used: number }>("SELECT used FROM rate_limits WHERE name = 'bookings' AND key = $1", [`203.0.113.${i + 1}`]);
      expect(used.used).toBe(1);
    }
    expect(ids.size).toBe(6);
  });

  it('share a statement only with bookings of the same parts, each with its own stops', async () => {
    const { answers, statements } = await whileBusy([0, 1, 2, 3].map((i) => () =>
      book(request(`parts${i}@example.com`, { stops: i % 2 === 0 }), `203.0.113.${20 + i}`, `parts-${i}`)));
    expect(statements.sort()).toEqual([2, 2]);
    for (const [i, a] of answers.entries()) {
      expect(a.status).toBe(200);
      const read = await loadBooking(inner, a.body.data.booking.id);
      expect(read!.bookingStops.map((s) => s.stop_address)).toEqual(i % 2 === 0 ? STOPS.map((s) => s.street_name) : []);
      expect(withoutKey(a.body.data)).toEqual(read);
    }
  });

  it(`carry ${BATCH} bookings a statement at most`, async () => {
    const { answers, statements } = await whileBusy(Array.from({ length: BATCH + 1 }, (_, i) => () =>
      book(request(`many${i}@example.com`), `203.0.113.${40 + i}`, `many-${i}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(BATCH + 1).fill(200));
    expect(statements).toEqual([BATCH, 1]);
  });

  it('count one address\'s bookings together: as many as fit are written in one statement', async () => {
    // The address may make 2 bookings an hour here: 2 at once fit in what is left, in one statement.
    const { answers, statements } = await whileBusy([0, 1].map((i) => () => book(request(`fit${i}@example.com`), '192.0.2.10', `fit-${i}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(statements).toEqual([2]);
    const [used] = await inner.query<{ used: number }>("SELECT used FROM rate_limits WHERE name = 'bookings' AND key = '192.0.2.10'");
    expect(used.used).toBe(2);
  });

  it('one more than fits: nothing of the statement is written, then each alone, and only the one too many is refused', async () => {
    const before = await inner.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    const { answers, statements } = await whileBusy([0, 1, 2].map((i) => () => book(request(`over${i}@example.com`), '192.0.2.20', `over-${i}`)));
    expect(statements).toEqual([3, 1, 1, 1]);
    // The one that reached the writer last (each request's checks take their own time) is the one too many.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
    expect(answers.find((a) => a.status === 429)!.body.message).toBe(DEFAULT_LIMITS.bookings.message);
    const [used] = await inner.query<{ used: number }>("SELECT used FROM rate_limits WHERE name = 'bookings' AND key = '192.0.2.20'");
    expect(used.used).toBe(2);
    const [after] = await inner.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    expect(after.n).toBe(before[0].n + 2 + WRITING[g.db.kind]);
  });

  it('two new accounts for one e-mail: the statement fails, and alone the later one is told the account exists', async () => {
    const { answers, statements } = await whileBusy([
      () => book(request('twin@example.com', { account: true }), '203.0.113.60', 'twin-1'),
      () => book(request('other@example.com', { account: true }), '203.0.113.61', 'twin-2'),
      () => book(request('twin@example.com', { account: true }), '203.0.113.62', 'twin-3'),
    ]);
    expect(statements).toEqual([3, 1, 1, 1]);
    // Whichever of the two reached the writer first (each password is hashed first, in its own time) has the account.
    const twins = [answers[0], answers[2]];
    expect(twins.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers[1].status).toBe(200);
    expect(twins.find((a) => a.status === 422)!.body).toMatchObject({ message: ACCOUNT_EXISTS, field: 'registrationData.email' });
    const accounts = await inner.query<{ n: number }>("SELECT count(*)::int AS n FROM passengers WHERE email = 'twin@example.com' AND password_hash IS NOT NULL");
    expect(accounts[0].n).toBe(1);
  });

  it('never put one Idempotency-Key twice in a statement: the repeat answers the first booking', async () => {
    const body = request('repeat@example.com');
    const { answers, statements } = await whileBusy([
      () => book(body, '203.0.113.70', 'repeat-1'),
      () => book(body, '203.0.113.70', 'repeat-1'),
      () => book(request('beside@example.com'), '203.0.113.71', 'repeat-2'),
    ]);
    expect(statements).toEqual([2, 1]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1].body.data.booking.id).toBe(answers[0].body.data.booking.id);
    const rows = await inner.query<{ n: number }>("SELECT count(*)::int AS n FROM bookings WHERE idempotency_key = 'repeat-1'");
    expect(rows[0].n).toBe(1);
  });

  it('a statement whose answer was lost is never written again: each of its bookings is told of the failure', async () => {
    const [before] = await inner.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    g.gate.loseNextBatchAnswer = true;
    // No Idempotency-Key: written again, each would be a second booking.
    const { answers, statements } = await whileBusy([0, 1, 2].map((i) => () =>
      t.call('POST', '/booking', request(`lost${i}@example.com`), { 'X-Forwarded-For': `203.0.113.${80 + i}` })));
    expect(statements).toEqual([3]);
    expect(answers.map((a) => a.status)).toEqual([500, 500, 500]);
    const [after] = await inner.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    expect(after.n).toBe(before.n + WRITING[g.db.kind] + 3);
  });
});

describe('a failed statement is written again booking by booking only when the database refused it', () => {
  it('reads the database\'s own refusals (a SQLSTATE) apart from a lost connection', () => {
    expect(refusedByDatabase({ code: '23505' })).toBe(true);
    expect(refusedByDatabase({ code: 'P0429' })).toBe(true);
    expect(refusedByDatabase({ code: '40P01' })).toBe(true);
    expect(refusedByDatabase({ code: '08006' })).toBe(false);
    expect(refusedByDatabase({ code: 'ECONNRESET' })).toBe(false);
    expect(refusedByDatabase({ code: '2350' })).toBe(false);
    expect(refusedByDatabase({ code: 23505 })).toBe(false);
    expect(refusedByDatabase(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(refusedByDatabase(null)).toBe(false);
  });
});
