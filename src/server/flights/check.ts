// The look-up at booking (issue 42 §2): the details step asks whether the flight typed lands at the pickup's airport on
// the pickup's date. A flight that does not is flagged ("BA 238 does not land at Heathrow on 12 Dec: check the
// number") and the booking goes on; the terminal is given when known. An answer of the last few minutes is reused
// (one flight, one row: ./watcher.ts); a new call takes only half the provider's allowance, so visitors' look-ups can
// never use up what the bookings' own checks need. The service down, slow or over its allowance says nothing.
import type { Db } from '../db/index';
import {
  airportOf, flightSettings, flightText, flightWords, needsFlightCheck, notFoundWords, parseFlightNumber, withinHorizon, type FlightCheck,
} from '../../domain/flights';
import { isCalendarDate, ukToday } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import { checkedAnswer, withDeadline, type FlightAnswer, type FlightStatusService } from '../flightStatus/service';
import { FLIGHT_COLUMNS, stateOf, type FlightRow } from './follow';
import { takeCall } from '../flightStatus/allowance';

/** The share of the allowance the details step's look-ups may use. */
export const CHECK_SHARE = 0.5;

export async function checkFlightAtBooking(
  deps: { db: Db; service: FlightStatusService | null; now: Date; settings: Settings; timeoutMs?: number },
  q: { number: string; date: string; pickup: string },
): Promise<FlightCheck> {
  const number = parseFlightNumber(q.number);
  const airport = airportOf(q.pickup);
  const none: FlightCheck = { number: number ? flightText(number) : null, checked: false, warning: null, words: null, terminal: null };
  if (!deps.service || !number || !airport || !needsFlightCheck(q.pickup) || !isCalendarDate(q.date) || q.date < ukToday(deps.now)) return none;
  const ident = flightText(number);
  if (!withinHorizon(q.date, deps.now, deps.service.horizonDays)) return none;
  const s = flightSettings(deps.settings);
  // What a check of the last few minutes said (the watcher's or another visitor's): no call.
  const [known] = await deps.db.query<FlightRow>(
    `SELECT ${FLIGHT_COLUMNS} FROM flights WHERE ident = $1 AND flight_date = $2 AND airport = $3 AND unavailable_since IS NULL
        AND found IS NOT NULL AND checked_at > $4::timestamptz - make_interval(mins => $5)`,
    [ident, q.date, airport.iata, deps.now.toISOString(), s.nearMinutes]);
  let answer: FlightAnswer;
  if (known) {
    const state = stateOf(known);
    answer = state ? { found: true, flight: state } : { found: false };
  } else {
    if (!await takeCall(deps.db, deps.service.provider, { perMinute: s.callsPerMinute, perDay: s.callsPerDay }, deps.now, CHECK_SHARE)) return none;
    try {
      answer = checkedAnswer(await withDeadline(deps.service.lookup(ident, q.date, airport, deps.now), deps.timeoutMs ?? 5_000));
    } catch {
      return none;
    }
    if (answer.found !== null) await remember(deps.db, ident, q.date, airport.iata, answer, deps.now);
  }
  if (answer.found === null) return none;
  if (!answer.found) return { ...none, number: ident, checked: true, warning: notFoundWords(ident, airport, q.date) };
  return { ...none, number: ident, checked: true, words: flightWords(ident, answer.flight), terminal: answer.flight.terminal };
}

/**
 * Keeps what the service said as the flight's row, for the next visitor and for the watcher: a new row, or one no
 * booking follows yet. A flight the watcher follows is only the watcher's to change (what it stores is what its
 * bookings have been moved to: news stored here would never reach them).
 */
async function remember(db: Db, ident: string, date: string, airport: string, answer: FlightAnswer, now: Date) {
  const f = answer.found ? answer.flight : null;
  await db.query(
    `INSERT INTO flights (ident, flight_date, airport, checked_at, found, status, origin, scheduled_in, estimated_in, actual_in, terminal)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (ident, flight_date, airport) DO UPDATE SET checked_at = excluded.checked_at, found = excluded.found, status = excluded.status,
       origin = excluded.origin, scheduled_in = excluded.scheduled_in, estimated_in = excluded.estimated_in, actual_in = excluded.actual_in,
       terminal = excluded.terminal
     WHERE (flights.checked_at IS NULL OR flights.checked_at < excluded.checked_at)
       AND NOT EXISTS (SELECT 1 FROM booking_flights bf WHERE bf.flight_id = flights.id)`,
    [ident, date, airport, now.toISOString(), answer.found, f?.status ?? null, f?.origin ?? null, f?.scheduledIn ?? null, f?.estimatedIn ?? null,
      f?.actualIn ?? null, f?.terminal ?? null]);
}
