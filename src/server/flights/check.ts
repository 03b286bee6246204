// The look-up at booking (issue 42 §2): the details step asks whether the flight typed lands at the pickup's airport on
// the pickup's date. A flight that does not is flagged ("BA 238 does not land at Heathrow on 12 Dec: check the
// number") and the booking goes on; the terminal is given when known. An answer of the last few minutes is reused
// (one flight, one row: ./watcher.ts); a new call takes only half the provider's allowance, so visitors' look-ups can
// never use up what the bookings' own checks need. The service down, slow or over its allowance says nothing.
import type { Db } from '../db/index';
import {
  airportOf, flightSettings, flightText, flightWords, needsFlightCheck, notFoundWords, parseFlightNumber, type FlightCheck,
} from '../../domain/flights';
import { isCalendarDate, ukToday } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import { checkedAnswer, withDeadline, type FlightStatusService } from './service';
import { takeCall } from './allowance';

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
  const horizon = new Date(deps.now.getTime() + deps.service.horizonDays * 86_400_000);
  if (q.date > ukToday(horizon)) return none;
  const s = flightSettings(deps.settings);
  // What a check of the last few minutes said (the watcher's or another visitor's).
  const [known] = await deps.db.query<{ found: boolean | null; status: string | null }>(
    `SELECT found, status FROM flights WHERE ident = $1 AND flight_date = $2 AND airport = $3 AND unavailable_since IS NULL
        AND checked_at > $4::timestamptz - make_interval(mins => $5)`, [ident, q.date, airport.iata, deps.now.toISOString(), s.nearMinutes]);
  let answer;
  if (known && known.found === false) {
    answer = { found: false as const };
  } else {
    if (!await takeCall(deps.db, deps.service.provider, { perMinute: s.callsPerMinute, perDay: s.callsPerDay }, deps.now, CHECK_SHARE)) return none;
    try {
      answer = checkedAnswer(await withDeadline(deps.service.lookup(ident, q.date, airport, deps.now), deps.timeoutMs ?? 5_000));
    } catch {
      return none;
    }
  }
  if (answer.found === null) return none;
  if (!answer.found) return { ...none, number: ident, checked: true, warning: notFoundWords(ident, airport, q.date) };
  return { ...none, number: ident, checked: true, words: flightWords(ident, answer.flight), terminal: answer.flight.terminal };
}
