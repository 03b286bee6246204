// Issue 42: the flight watcher's own timing. A flight beyond the service's horizon is not asked about until the day
// as the horizon reaches its day; a background watcher makes its first round within 5 s of starting, whatever its
// interval; a lookup that fails is logged with when it will be tried again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, testApp } from './setup';
import { bookFlight as bookFlightFor } from './flightHelpers';
import { setSetting } from '../../src/server/operator/operator';
import { loadSettings } from '../../src/server/deps';
import { testFlightService } from '../../src/server/flightStatus/testService';
import { FlightWatcher, watchFlights, type WatcherDeps } from '../../src/server/flights/watcher';
import { ukLocalToInstant } from '../../src/domain/ukTime';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'FLIGHT_CALLS_PER_MINUTE', '1000');
});
afterAll(async () => { await t.db.close(); });

const watcher = (over: Partial<WatcherDeps> = {}): WatcherDeps => ({
  db: t.db, service: testFlightService(t.db), settings: () => loadSettings(t.db), siteUrl: TEST_SITE_URL, now: () => new Date(), ...over,
});
const bookFlight = (date: string, flight: string) => bookFlightFor(t, date, flight);
const flightRow = async (ident: string) => (await t.db.query<{ next_check_at: Date; found: boolean | null; checked_at: Date | null }>(
  'SELECT next_check_at, found, checked_at FROM flights WHERE ident = $1', [ident]))[0];
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('the flight watcher', () => {
  it('does not ask about a flight beyond the service\'s horizon, and asks again as the horizon reaches its day', async () => {
    const date = inDays(20);
    await bookFlight(date, 'VS 3');
    await watchFlights(watcher({ service: { ...testFlightService(t.db), horizonDays: 3 } }));
    const f = await flightRow('VS 3');
    expect(f.found).toBeNull();
    expect(f.next_check_at.toISOString()).toBe(new Date(ukLocalToInstant(date, 0, 0).getTime() - 2 * 86_400_000).toISOString());
  });

  it('logs a lookup that failed with when it is tried again', async () => {
    await bookFlight(inDays(2), 'DL 1');
    const lines: string[] = [];
    const down = { ...testFlightService(t.db), lookup: async () => { throw new Error('provider away'); } };
    const tally = await watchFlights(watcher({ service: down, log: (line) => lines.push(line) }));
    expect(tally.failed).toBeGreaterThanOrEqual(1);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^Flight DL 1 \\(${inDays(2)}, LHR\\) not checked: provider away; trying again in \\d+ min$`)));
  });

  it('makes its first round within 5 s of starting, however long its interval', async () => {
    let rounds = 0;
    const w = new FlightWatcher(watcher({ settings: async () => { rounds++; return loadSettings(t.db); } }));
    w.start(3_600_000);
    try {
      await expect.poll(() => rounds, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(1);
    } finally {
      await w.stop();
    }
  });
});
