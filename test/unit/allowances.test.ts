// Issue 28: the allowances are the numbers the README promises (its "Allowances" table), written here as numbers,
// so a changed limit fails here until the README and this promise change with it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, allowMessage, parseLimits, returnAllowance, takeAllowance, withAllowance, type Limits } from '../../src/server/limits';
import { DomainError } from '../../src/server/errors';
import { LIMITS as SIGN_IN } from '../../src/server/auth/throttle';

const PROMISED: Record<string, { max: number; minutes: number }> = {
  accountCreations: { max: 5, minutes: 60 },
  accountLookups: { max: 10, minutes: 60 },
  contactMessages: { max: 5, minutes: 60 },
  quoteRequests: { max: 5, minutes: 60 },
  bookings: { max: 10, minutes: 60 },
  confirmationsToAddress: { max: 3, minutes: 60 },
  messagesToAddress: { max: 10, minutes: 60 },
  bookingLookups: { max: 10, minutes: 60 },
  linksPerBooking: { max: 3, minutes: 60 },
  bookingChanges: { max: 20, minutes: 60 },
  driverCodes: { max: 10, minutes: 60 },
  driverCodesPerMobile: { max: 5, minutes: 60 },
  cardFailures: { max: 5, minutes: 60 },
  cardFailuresPerBooking: { max: 3, minutes: 24 * 60 },
};

const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
/** The README's allowance rows: the allowance's words by its RATE_LIMITS name. */
const rows = Object.fromEntries([...readme.matchAll(/^\| [^|]+ \| ([^|]+) \| `(\w+)` \|$/gm)].map((m) => [m[2], m[1].trim()]));

describe('the allowances', () => {
  it('are the numbers the README promises, each named in its table', () => {
    expect(Object.keys(rows).sort()).toEqual(Object.keys(PROMISED).sort());
    for (const [name, promise] of Object.entries(PROMISED)) {
      expect(rows[name], name).toMatch(new RegExp(`^${promise.max} (an hour|per)`));
      expect({ max: DEFAULT_LIMITS[name as keyof typeof DEFAULT_LIMITS].max, minutes: DEFAULT_LIMITS[name as keyof typeof DEFAULT_LIMITS].windowMinutes }, name)
        .toEqual(promise);
    }
  });

  it('tell a person what happened and what to do, naming the field the refusal is about', async () => {
    // A copy of the module of its own: a mutation run tries what a module builds as it loads on the tests that load it.
    const copy = `?copy=${Math.random().toString(36).slice(2)}`;
    const { DEFAULT_LIMITS: fresh }: typeof import('../../src/server/limits') = await import(/* @vite-ignore */ `../../src/server/limits.ts${copy}`);
    const told = Object.fromEntries(Object.entries(fresh as Limits).map(([name, l]) => [name, [l.field ?? null, l.message ?? null]]));
    expect(told).toEqual({
      accountCreations: ['registrationData.email', 'Too many accounts were created from your network in the last hour. Please book as a guest, try again later or call us.'],
      accountLookups: ['email', 'Too many e-mail addresses were looked up from your network. Please try again in an hour or call us.'],
      contactMessages: [null, 'Too many messages were sent from your network in the last hour. Please try again later or call us.'],
      quoteRequests: [null, 'Too many quote requests were sent from your network in the last hour. Please try again later or call us.'],
      bookings: ['registrationData.email', 'Too many bookings were made from your network in the last hour. Please call us to book, or sign in.'],
      confirmationsToAddress: ['registrationData.email', 'Too many bookings were confirmed to this e-mail address in the last hour. Please call us to book.'],
      messagesToAddress: ['registrationData.email', 'Too many messages were sent to this e-mail address in the last hour. Please call us, or try again later.'],
      bookingLookups: ['reference', 'Too many bookings were looked up from your network in the last hour. Please try again later or call us.'],
      linksPerBooking: ['reference', 'The link to this booking was asked for several times in the last hour. Please check your e-mail, or try again later.'],
      bookingChanges: ['passenger_name', 'This booking was changed many times in the last hour. Please call us to make more changes.'],
      driverCodes: ['mobile', 'Too many sign-in codes were asked for from your network in the last hour. Please try again later or call the office.'],
      driverCodesPerMobile: ['mobile', 'Several codes were sent to this number in the last hour. Please use the last one, or try again later.'],
      // The card page's words name the office's phone and offer Pay in Car as the settings say (api/card-abuse).
      cardFailures: ['paymentMethodId', null],
      cardFailuresPerBooking: ['paymentMethodId', null],
    });
  });

  it('count password checks 10 per e-mail and address, 50 per address, 100 per e-mail, as the README says', () => {
    expect(readme).toContain('| password checks (below) | 10 per e-mail and address, 50 per address, 100 per e-mail, each per 15 minutes | (fixed) |');
    expect(SIGN_IN).toEqual({ pair: 10, client: 50, account: 100 });
  });
});

describe('RATE_LIMITS, the operator\'s own numbers (README "Configuration")', () => {
  it('keeps every default when unset or empty, and changes only the max of the limits named', () => {
    expect(parseLimits(undefined)).toEqual(DEFAULT_LIMITS);
    expect(parseLimits(' , ')).toEqual(DEFAULT_LIMITS);
    const mine = parseLimits(' bookings = 50 ,contactMessages=20');
    expect(mine.bookings).toEqual({ ...DEFAULT_LIMITS.bookings, max: 50 });
    expect(mine.contactMessages).toEqual({ ...DEFAULT_LIMITS.contactMessages, max: 20 });
    expect(mine.quoteRequests).toEqual(DEFAULT_LIMITS.quoteRequests);
  });

  it('refuses a name that is not a limit, saying which are, and a max that is not a whole number of at least 1', () => {
    expect(() => parseLimits('booking=50')).toThrow(`RATE_LIMITS: "booking" is not a limit; known: ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    for (const bad of ['0', '-3', '2.5', 'many', '']) {
      expect(() => parseLimits(`bookings=${bad}`), bad).toThrow(`RATE_LIMITS: bookings must be a whole number of at least 1, not "${bad}"`);
    }
    expect(parseLimits('bookings=1').bookings.max).toBe(1);
  });
});

describe('counting an allowance (decision 35)', () => {
  /** A database that records each statement and answers the counting one with the rows it is told to count. */
  function fakeDb(counted: (rows: { name: string; key: string }[]) => { name: string; key: string }[], secondsLeft?: number) {
    const calls: { sql: string; params: unknown[] }[] = [];
    return {
      calls,
      async query(sql: string, params: unknown[] = []) {
        calls.push({ sql, params });
        if (sql.includes('INSERT INTO rate_limits')) {
          return counted(JSON.parse(params[0] as string)).map((r) => ({ ...r, window_started: `window of ${r.key}` }));
        }
        if (sql.includes('UPDATE rate_limits')) return [];
        return secondsLeft === undefined ? [] : [{ seconds: secondsLeft }];
      },
    };
  }
  const refusal = async (p: Promise<unknown>) => p.then(() => null, (e: DomainError) => [e.kind, e.message, e.field, e.retryAfterSeconds]);

  it('counts each key once, in one fixed order (limit, then key), so two requests never wait for each other in a circle', async () => {
    const db = fakeDb((rows) => rows);
    // The keys' own order is not the limits' (an IPv6 address sorts after an e-mail): the limit comes first.
    await takeAllowance(db as any, DEFAULT_LIMITS, [
      { limit: 'confirmationsToAddress', key: 'b@example.com' }, { limit: 'bookings', key: 'fe80::9' },
      { limit: 'confirmationsToAddress', key: 'a@example.com' }, { limit: 'bookings', key: 'fe80::1' },
      { limit: 'bookings', key: 'fe80::9' },
    ]);
    expect(db.calls).toHaveLength(1);
    expect(JSON.parse(db.calls[0].params[0] as string).map((r: any) => `${r.name} ${r.key} ${r.max_used}/${r.window_minutes}`)).toEqual([
      'bookings fe80::1 10/60', 'bookings fe80::9 10/60', 'confirmationsToAddress a@example.com 3/60', 'confirmationsToAddress b@example.com 3/60',
    ]);
  });

  it('asks nothing of the database when nothing is counted', async () => {
    const db = fakeDb((rows) => rows);
    await takeAllowance(db as any, DEFAULT_LIMITS, []);
    expect(db.calls).toEqual([]);
  });

  it('refuses with the first used-up limit\'s message and field, retrying when its window ends, or after a whole window', async () => {
    const uses = [{ limit: 'bookings' as const, key: '192.0.2.1' }, { limit: 'confirmationsToAddress' as const, key: 'a@example.com' }];
    const onlyBookings = (rows: { name: string; key: string }[]) => rows.filter((r) => r.name === 'bookings');
    expect(await refusal(takeAllowance(fakeDb(onlyBookings, 125) as any, DEFAULT_LIMITS, uses)))
      .toEqual(['tooMany', DEFAULT_LIMITS.confirmationsToAddress.message, 'registrationData.email', 125]);
    expect(await refusal(takeAllowance(fakeDb(onlyBookings) as any, DEFAULT_LIMITS, uses)))
      .toEqual(['tooMany', DEFAULT_LIMITS.confirmationsToAddress.message, 'registrationData.email', 3600]);
    expect(await refusal(takeAllowance(fakeDb(onlyBookings, 0) as any, DEFAULT_LIMITS, uses, (name) => `No more: ${name}`)))
      .toEqual(['tooMany', 'No more: confirmationsToAddress', 'registrationData.email', 1]);
    // The card allowances' words come from their caller: counting one without them is a mistake in the code.
    const card = [{ limit: 'cardFailures' as const, key: '192.0.2.1' }];
    await expect(takeAllowance(fakeDb(() => []) as any, DEFAULT_LIMITS, card)).rejects.toThrow('The cardFailures allowance has no words of its own');
    expect(await refusal(takeAllowance(fakeDb(() => [], 60) as any, DEFAULT_LIMITS, card, () => 'Declined too often.')))
      .toEqual(['tooMany', 'Declined too often.', 'paymentMethodId', 60]);
  });
});

describe('giving back what was not spent (issue 39)', () => {
  function fakeDb(countedNames: string[] | 'all') {
    const calls: { sql: string; params: unknown[] }[] = [];
    return {
      calls,
      given: () => calls.filter((c) => c.sql.includes('UPDATE rate_limits')).map((c) => JSON.parse(c.params[0] as string)),
      async query(sql: string, params: unknown[] = []) {
        calls.push({ sql, params });
        if (sql.includes('INSERT INTO rate_limits')) {
          return (JSON.parse(params[0] as string) as { name: string; key: string }[])
            .filter((r) => countedNames === 'all' || countedNames.includes(r.name)).map((r) => ({ name: r.name, key: r.key, window_started: `w-${r.key}` }));
        }
        return [];
      },
    };
  }
  const uses = [{ limit: 'bookings' as const, key: '192.0.2.1' }, { limit: 'confirmationsToAddress' as const, key: 'a@example.com' }];

  it('a refused request gives back, in one statement, the keys it counted, each in the window it was counted in', async () => {
    const db = fakeDb(['bookings']);
    await expect(takeAllowance(db as any, DEFAULT_LIMITS, uses)).rejects.toBeInstanceOf(DomainError);
    expect(db.given()).toEqual([[{ name: 'bookings', key: '192.0.2.1', window_started: 'w-192.0.2.1' }]]);
    const given = db.calls.find((c) => c.sql.includes('UPDATE rate_limits'))!.sql.replace(/\s+/g, ' ');
    expect(given).toContain('SET used = greatest(r.used - 1, 0)');
    expect(given).toContain('r.name = t.name AND r.key = t.key AND r.window_started = t.window_started');
  });

  it('a counted request gets back what it took, and nothing taken asks nothing of the database', async () => {
    const db = fakeDb('all');
    const taken = await takeAllowance(db as any, DEFAULT_LIMITS, uses);
    expect(taken.uses.map((u) => u.key)).toEqual(['192.0.2.1', 'a@example.com']);
    expect(db.given()).toEqual([]);
    await returnAllowance(db as any, taken);
    expect(db.given()).toEqual([taken.uses]);
    const none = fakeDb('all');
    await returnAllowance(none as any, { uses: [] });
    expect(none.calls).toEqual([]);
  });

  it('a refusal names the field of the caller\'s form when the use says so', async () => {
    const db = fakeDb([]);
    const err = await takeAllowance(db as any, DEFAULT_LIMITS, [{ limit: 'messagesToAddress', key: 'a@example.com', field: 'email' }]).catch((e) => e);
    expect([err.kind, err.field, err.message]).toEqual(['tooMany', 'email', DEFAULT_LIMITS.messagesToAddress.message]);
    const plain = await takeAllowance(fakeDb([]) as any, DEFAULT_LIMITS, [{ limit: 'messagesToAddress', key: 'a@example.com' }]).catch((e) => e);
    expect(plain.field).toBe('registrationData.email');
    // The field of the use that was refused, not of another use with the same limit or the same key.
    const mixed = await takeAllowance(fakeDb(['bookings', 'confirmationsToAddress']) as any, DEFAULT_LIMITS, [
      { limit: 'bookings', key: 'a@example.com', field: 'not-this' }, { limit: 'confirmationsToAddress', key: 'z@example.com', field: 'nor-this' },
      { limit: 'messagesToAddress', key: 'z@example.com' },
    ]).catch((e) => e);
    expect([mixed.kind, mixed.field]).toEqual(['tooMany', 'registrationData.email']);
  });

  it('withAllowance gives back when the work throws or did nothing new, and keeps it when the work was done', async () => {
    const failed = fakeDb('all');
    await expect(withAllowance(failed as any, DEFAULT_LIMITS, uses, async () => { throw new Error('no'); })).rejects.toThrow('no');
    expect(failed.given()).toHaveLength(1);
    const replay = fakeDb('all');
    expect(await withAllowance(replay as any, DEFAULT_LIMITS, uses, async () => ({ done: false, value: 'first' }))).toBe('first');
    expect(replay.given()).toHaveLength(1);
    const done = fakeDb('all');
    expect(await withAllowance(done as any, DEFAULT_LIMITS, uses, async () => ({ done: true, value: 7 }))).toBe(7);
    expect(done.given()).toEqual([]);
  });

  it('allowMessage says whether one more message to an address is within its allowance, by the address\'s mailbox', async () => {
    const room = fakeDb('all');
    expect(await allowMessage(room as any, DEFAULT_LIMITS, ' Mia@Example.COM ')).toBe(true);
    expect(JSON.parse(room.calls[0].params[0] as string)).toEqual([{ name: 'messagesToAddress', key: 'mia@example.com', max_used: 10, window_minutes: 60 }]);
    expect(await allowMessage(fakeDb([]) as any, DEFAULT_LIMITS, 'mia@example.com')).toBe(false);
    const broken = { query: async () => { throw new Error('database down'); } };
    await expect(allowMessage(broken as any, DEFAULT_LIMITS, 'mia@example.com')).rejects.toThrow('database down');
    const busy = { query: async () => { throw new DomainError('busy', 'The server is busy.'); } };
    await expect(allowMessage(busy as any, DEFAULT_LIMITS, 'mia@example.com')).rejects.toThrow('The server is busy.');
  });
});
