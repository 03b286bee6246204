// The local test flight service (issue 42 §1): FLIGHT_STATUS=test, the default where no AeroAPI key is set, as the
// card test gateway is for cards. Its flights are rows a test or a demo scripts (PUT /test-flights/flights/:number,
// mounted only while it is the service in use): on time, delayed or early by N minutes, diverted, cancelled, unknown;
// the number '*' scripts the service itself (down, nonsense, slow). A flight lands at its estimated time: asked after
// it, the service says it landed. The rows live in the database, so every server process sees the same flights.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { enums, integer, nullable, object, optional, pattern, size, string } from 'superstruct';
import type { Db } from '../db/index';
import { validate, readJson } from '../http/body';
import { DomainError } from '../errors';
import { answerError } from '../http/answers';
import {
  airportByCode, parseFlightNumber, flightText, statusFromTimes, type Airport, type FlightState,
} from '../../domain/flights';
import { ukLocalToInstant } from '../../domain/ukTime';
import type { FlightAnswer, FlightStatusService } from './service';

export const TEST_FLIGHTS_PATH = '/test-flights';
/** Scripts kept at most (a demo or a test needs a handful). */
export const MAX_TEST_FLIGHTS = 500;
export const TEST_OUTCOMES = ['on_time', 'delayed', 'early', 'diverted', 'cancelled', 'unknown'] as const;
export const SERVICE_FAULTS = ['down', 'nonsense', 'slow', 'working'] as const;

interface ScriptRow {
  ident: string; airport: string; origin: string; scheduled_time: string; outcome: string; minutes: number; terminal: string | null;
}

/** The test service: lookups read the scripted rows; each counts as a call (the tests count them). */
export function testFlightService(db: Db, options: { slowMs?: number } = {}): FlightStatusService {
  return {
    name: 'the local test flight service (scripted flights)',
    provider: 'test',
    horizonDays: 365,
    async lookup(ident, date, airport, now): Promise<FlightAnswer> {
      const [fault] = await db.query<{ outcome: string }>("UPDATE test_flights SET calls = calls + 1 WHERE ident = '*' RETURNING outcome");
      if (fault?.outcome === 'down') throw new Error('the test flight service is down (scripted)');
      if (fault?.outcome === 'nonsense') return { found: true, flight: { status: 'landed?', scheduledIn: 'soon' } } as never;
      if (fault?.outcome === 'slow') await new Promise((resolve) => { setTimeout(resolve, options.slowMs ?? 60_000); });
      const [row] = await db.query<ScriptRow>(
        `UPDATE test_flights SET calls = calls + 1
          WHERE id = (SELECT id FROM test_flights WHERE ident = $1 AND (flight_date = $2::date OR flight_date IS NULL)
                       ORDER BY flight_date NULLS LAST LIMIT 1)
          RETURNING ident, airport, origin, scheduled_time, outcome, minutes, terminal`, [ident, date]);
      if (!row || row.outcome === 'unknown' || row.airport !== airport.iata) return { found: false };
      return { found: true, flight: scriptedFlight(row, date, now) };
    },
  };
}

/** A scripted flight as the service sees it at `now`. */
export function scriptedFlight(row: ScriptRow, date: string, now: Date): FlightState {
  const [h, m] = row.scheduled_time.split(':').map(Number);
  const scheduled = ukLocalToInstant(date, h, m);
  const shift = row.outcome === 'delayed' ? row.minutes : row.outcome === 'early' ? -row.minutes : 0;
  const estimated = new Date(scheduled.getTime() + shift * 60_000);
  const base = { origin: row.origin || null, scheduledIn: scheduled.toISOString(), terminal: row.terminal };
  if (row.outcome === 'cancelled' || row.outcome === 'diverted') {
    return { ...base, status: row.outcome, estimatedIn: null, actualIn: null };
  }
  const actualIn = now.getTime() >= estimated.getTime() ? estimated.toISOString() : null;
  const times = { scheduledIn: base.scheduledIn, estimatedIn: estimated.toISOString(), actualIn };
  return { ...base, ...times, status: statusFromTimes(times) };
}

const Script = object({
  /** A date (YYYY-MM-DD, UK); none: every day. */
  date: optional(nullable(pattern(string(), /^\d{4}-\d{2}-\d{2}$/))),
  /** The UK airport it lands at (LHR, EGLL). */
  airport: size(string(), 3, 4),
  /** Where it comes from: a UK airport's code, or any airport's four-letter ICAO code (EGPH, KJFK). */
  from: size(string(), 3, 4),
  /** Scheduled landing, UK time. */
  scheduled: pattern(string(), /^([01]\d|2[0-3]):[0-5]\d$/),
  outcome: enums(TEST_OUTCOMES),
  minutes: optional(size(integer(), 0, 24 * 60)),
  terminal: optional(nullable(size(string(), 0, 10))),
});

const ServiceScript = object({ state: enums(SERVICE_FAULTS) });

/** Scripts a flight, or the service itself; the same flight and date scripted again replaces the first. */
export async function scriptFlight(db: Db, number: string, body: unknown): Promise<{ number: string }> {
  if (number === '*') {
    const { state } = validate(body, ServiceScript);
    await db.query("DELETE FROM test_flights WHERE ident = '*'");
    if (state !== 'working') await db.query("INSERT INTO test_flights (ident, outcome) VALUES ('*', $1)", [state]);
    return { number: '*' };
  }
  const flight = parseFlightNumber(number);
  if (!flight) throw new DomainError('invalid', `"${number}" is not a flight number (like BA283)`, 'number');
  const s = validate(body, Script);
  const airport = airportByCode(s.airport.toUpperCase());
  if (!airport) throw new DomainError('invalid', `airport: ${s.airport} is not a UK airport this site knows`, 'airport');
  const from = s.from.toUpperCase();
  const origin = airportByCode(from)?.icao ?? (/^[A-Z]{4}$/.test(from) ? from : null);
  if (!origin) throw new DomainError('invalid', 'from: a UK airport (EDI) or any airport\'s ICAO code (KJFK)', 'from');
  const ident = flightText(flight);
  await db.transaction(async (tx) => {
    const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM test_flights');
    if (n >= MAX_TEST_FLIGHTS) throw new DomainError('conflict', `The test flight service holds ${MAX_TEST_FLIGHTS} flights at most: DELETE /test-flights/flights first.`);
    await tx.query("DELETE FROM test_flights WHERE ident = $1 AND coalesce(flight_date, '0001-01-01'::date) = coalesce($2::date, '0001-01-01'::date)",
      [ident, s.date ?? null]);
    await tx.query(
      `INSERT INTO test_flights (ident, flight_date, airport, origin, scheduled_time, outcome, minutes, terminal)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [ident, s.date ?? null, airport.iata, origin, s.scheduled, s.outcome, s.minutes ?? 0, s.terminal ?? null]);
  });
  return { number: ident };
}

/** The scripting door: mounted at TEST_FLIGHTS_PATH only while the test service is the one in use. */
export function testFlightsApp(db: Db): Hono {
  const app = new Hono();
  app.onError(answerError);
  // A script is a few hundred bytes: anything larger is no script.
  app.use('*', bodyLimit({ maxSize: 4 * 1024, onError: (c) => c.json({ success: false, message: 'A flight script is at most 4 kB.' }, 413) }));
  app.get('/flights', async (c) => c.json({
    flights: await db.query(`SELECT ident AS number, flight_date::text AS date, airport, origin AS from, scheduled_time AS scheduled,
                                    outcome, minutes, terminal, calls FROM test_flights ORDER BY ident, flight_date NULLS FIRST`),
  }));
  app.put('/flights/:number', async (c) => c.json({ success: true, ...await scriptFlight(db, c.req.param('number'), await readJson(c)) }));
  app.delete('/flights', async (c) => { await db.query('DELETE FROM test_flights'); return c.json({ success: true }); });
  return app;
}

export type { Airport };

/**
 * The demo's flights (a server that is not for customers, on the test service): a few daily arrivals that show each
 * thing a flight can do, scripted once when none is. Numbers the tests never use.
 */
export const DEMO_FLIGHTS: { number: string; body: Record<string, unknown> }[] = [
  { number: 'BA295', body: { airport: 'LHR', from: 'KORD', scheduled: '06:50', outcome: 'delayed', minutes: 55, terminal: '5' } },
  { number: 'BA1445', body: { airport: 'LHR', from: 'EDI', scheduled: '07:25', outcome: 'on_time', terminal: '5' } },
  { number: 'VS26', body: { airport: 'LHR', from: 'KJFK', scheduled: '06:20', outcome: 'early', minutes: 20, terminal: '3' } },
  { number: 'EZY8034', body: { airport: 'LGW', from: 'LFPG', scheduled: '09:10', outcome: 'on_time', terminal: 'North' } },
  { number: 'AA106', body: { airport: 'LHR', from: 'KJFK', scheduled: '07:05', outcome: 'cancelled', terminal: '3' } },
  { number: 'EI158', body: { airport: 'LHR', from: 'EIDW', scheduled: '08:40', outcome: 'diverted', terminal: '2' } },
];

export async function seedDemoFlights(db: Db): Promise<boolean> {
  const [any] = await db.query('SELECT 1 FROM test_flights LIMIT 1');
  if (any) return false;
  for (const f of DEMO_FLIGHTS) await scriptFlight(db, f.number, f.body);
  return true;
}
