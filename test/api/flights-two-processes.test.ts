// Issue 42 §3 (decision 58): however many server processes share the database, a flight is asked once per interval.
// Two "processes" run the watcher at the same moment, again and again: on PostgreSQL (npm run test:pg) each with its
// own pool of connections to the same database, as two processes have; on PGlite (one database in this process) both
// on the one database. They link the bookings, claim the flights due (a lease, FOR UPDATE SKIP LOCKED) and ask the
// local test flight service; the calls are counted by a wrapper around the service and by test_flights.calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookFlight as bookFlightFor } from './flightHelpers';
import { TEST_SITE_URL, testApp, closeSecond, secondProcessDb } from './setup';
import type { Db } from '../../src/server/db/index';
import { loadSettings } from '../../src/server/deps';
import { setSetting } from '../../src/server/operator/operator';
import { testFlightService } from '../../src/server/flightStatus/testService';
import type { FlightStatusService } from '../../src/server/flightStatus/service';
import { linkOne, readLinks, watchFlights, type WatcherDeps } from '../../src/server/flights/watcher';
import { ukLocalToInstant } from '../../src/domain/ukTime';

const POSTGRES = process.env.API_TEST_DATABASE_URL;

let t: Awaited<ReturnType<typeof testApp>>;
/** The second process's database: a pool of its own on the same PostgreSQL database (schema); on PGlite the same one. */
let second: Db;
beforeAll(async () => {
  t = await testApp();
  second = await secondProcessDb(t.db);
});
afterAll(async () => {
  await closeSecond(second, t.db);
  await t.db.close();
});

const at = (date: string, hhmm: string) => ukLocalToInstant(date, Number(hhmm.slice(0, 2)), Number(hhmm.slice(3)));
const script = (number: string, body: Record<string, unknown>) => t.app.request(`/test-flights/flights/${number}`, {
  method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
});

const bookFlight = (date: string, flight: string) => bookFlightFor(t, date, flight);

/** The calls each process made, by flight. */
const calls: { process: string; ident: string; at: string }[] = [];
/** The local test flight service on a process's own database, each lookup counted. */
function countedService(db: Db, process: string): FlightStatusService {
  const inner = testFlightService(db);
  return {
    ...inner,
    lookup(ident, date, airport, now) {
      calls.push({ process, ident, at: now.toISOString() });
      return inner.lookup(ident, date, airport, now);
    },
  };
}
const processOf = (db: Db, name: string): WatcherDeps => ({
  db, service: countedService(db, name), settings: () => loadSettings(db), siteUrl: TEST_SITE_URL, now: () => t.clock.now,
});
const callsBy = (key: 'ident' | 'process') => calls.reduce<Record<string, number>>((c, x) => ({ ...c, [x[key]]: (c[x[key]] ?? 0) + 1 }), {});
const scriptedCalls = async () => Object.fromEntries((await t.db.query<{ ident: string; calls: number }>(
  "SELECT ident, calls FROM test_flights WHERE ident <> '*' ORDER BY ident")).map((r) => [r.ident, r.calls]));
const pickupOf = async (id: number) => (await t.db.query<{ pickup_at: Date }>('SELECT pickup_at FROM bookings WHERE id = $1', [id]))[0].pickup_at.toISOString();

describe(`two server processes on one database (${POSTGRES ? 'PostgreSQL: two pools' : 'PGlite: one database'})`, () => {
  it('make one call per flight per interval, however often they run together', async () => {
    const DAY = '2030-10-04';
    // Many calls would be allowed: only the leases keep it to one a flight.
    await setSetting(t.db, 'FLIGHT_CALLS_PER_MINUTE', '1000');
    if (POSTGRES) {
      // Two sessions of their own, not one connection shared.
      expect(second.kind).toBe('postgres');
      const pid = async (db: Db) => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0].pid;
      expect(await pid(second)).not.toBe(await pid(t.db));
    }
    // BA 117 lands 07:40 (55 minutes late), BA 119 at 06:45 (on time): from 04:00 both are next asked at 04:15.
    expect((await script('BA117', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55 })).status).toBe(200);
    expect((await script('BA119', { date: DAY, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'on_time' })).status).toBe(200);
    const first = await bookFlight(DAY, 'BA117');
    const again = await bookFlight(DAY, 'BA 117');
    const other = await bookFlight(DAY, 'BA119');

    const one = processOf(t.db, 'one');
    const two = processOf(second, 'two');
    const together = async (hhmm: string, times: number) => {
      t.clock.now = at(DAY, hhmm);
      for (let i = 0; i < times; i++) await Promise.all([watchFlights(one), watchFlights(two)]);
    };

    // The first interval: one call for each flight, whichever process made it, however many rounds at the same time.
    await together('04:00', 5);
    expect(callsBy('ident')).toEqual({ 'BA 117': 1, 'BA 119': 1 });
    expect(await scriptedCalls()).toEqual({ 'BA 117': 1, 'BA 119': 1 });
    expect(await t.db.query('SELECT ident FROM flights ORDER BY ident')).toEqual([{ ident: 'BA 117' }, { ident: 'BA 119' }]);
    const [due] = await t.db.query<{ next: Date[] }>('SELECT array_agg(DISTINCT next_check_at) AS next FROM flights');
    expect(due.next.map((d) => new Date(d).toISOString())).toEqual([at(DAY, '04:15').toISOString()]);
    // Both bookings on BA 117 follow it: landing 07:40, 30 minutes to arrivals.
    expect(await pickupOf(first.id)).toBe(at(DAY, '08:10').toISOString());
    expect(await pickupOf(again.id)).toBe(at(DAY, '08:10').toISOString());
    expect(await pickupOf(other.id)).toBe(at(DAY, '07:15').toISOString());

    // Still within the interval: no more calls.
    await together('04:10', 3);
    expect(calls).toHaveLength(2);

    // Past the next check: one more call for each flight, then none again at that time.
    await together('04:16', 5);
    expect(callsBy('ident')).toEqual({ 'BA 117': 2, 'BA 119': 2 });
    expect(await scriptedCalls()).toEqual({ 'BA 117': 2, 'BA 119': 2 });
    expect(calls.filter((c) => c.at === at(DAY, '04:16').toISOString())).toHaveLength(2);
    // Everything said once: each booking's flight on its timeline (the second answer was the same), the passengers'
    // e-mail of the new time.
    const said = await t.db.query<{ booking_id: number; action: string }>(
      "SELECT booking_id, action FROM audit_log WHERE action LIKE 'Flight%' AND booking_id = ANY($1::int[]) ORDER BY booking_id, id", [[first.id, again.id, other.id]]);
    expect(said.map((e) => [e.booking_id, e.action])).toEqual([
      [first.id, 'Flight: BA 117 delayed: lands 07:40 (due 06:45)'], [again.id, 'Flight: BA 117 delayed: lands 07:40 (due 06:45)'],
      [other.id, 'Flight: BA 119 on time: lands 06:45'],
    ]);
    const moved = await t.db.query<{ booking_id: number }>(
      "SELECT booking_id FROM outbound_emails WHERE kind = 'pickup_moved' AND booking_id = ANY($1::int[]) ORDER BY booking_id", [[first.id, again.id, other.id]]);
    expect(moved.map((m) => m.booking_id)).toEqual([first.id, again.id]);
  });

  it('links a booking once: a process whose read of it is stale changes nothing another already linked and told', async () => {
    const DAY2 = '2030-11-06';
    expect((await script('BA121', { date: DAY2, airport: 'LHR', from: 'KJFK', scheduled: '06:45', outcome: 'delayed', minutes: 55 })).status).toBe(200);
    const b = await bookFlight(DAY2, 'BA121');
    t.clock.now = at(DAY2, '04:00');
    // Process B reads the new booking, unlinked; then stalls (a busy pool) while process A links it, asks the service,
    // moves the pickup and tells everyone.
    const staleRead = (await readLinks(second, t.clock.now)).filter((r) => r.id === b.id);
    expect(staleRead).toHaveLength(1);
    expect(staleRead[0].flight_id).toBeNull();
    await watchFlights(processOf(t.db, 'one'));
    expect(await pickupOf(b.id)).toBe(at(DAY2, '08:10').toISOString());
    // B goes on from its read: the booking, locked and read again, is linked already.
    expect(await linkOne(second, { service: { provider: 'test', name: 'test' }, siteUrl: TEST_SITE_URL, now: t.clock.now, settings: await loadSettings(second) }, staleRead[0])).toBe(false);
    expect(await pickupOf(b.id)).toBe(at(DAY2, '08:10').toISOString());
    const told = await t.db.query("SELECT 1 FROM outbound_emails WHERE kind = 'pickup_moved' AND booking_id = $1", [b.id]);
    expect(told).toHaveLength(1);
  });
});
