// FlightAware AeroAPI (issue 42 §1): GET /flights/{ident} with the key in x-apikey, as its documentation gives it
// (https://www.flightaware.com/aeroapi/portal/documentation). FlightAware publishes no Node package for it, so this is
// the REST call itself; AEROAPI_URL points it at a local stand-in in the tests. Of the flights of that number it
// answers (AeroAPI knows them from ten days back to two days ahead, by their departure), the one that lands at the
// pickup's airport on the pickup's UK date is the booking's.
import { dayAfter, statusFromTimes, type FlightState } from '../../domain/flights';
import { ukPartsAt, ukLocalToInstant } from '../../domain/ukTime';
import type { FlightAnswer, FlightStatusService } from './service';

export const AEROAPI_URL = 'https://aeroapi.flightaware.com/aeroapi';
/** A call not answered in this long is abandoned (the watcher stops waiting at 10 s). */
export const AEROAPI_TIMEOUT_MS = 10_000;
/** AeroAPI's /flights/{ident} looks two days ahead. */
export const AEROAPI_HORIZON_DAYS = 2;

interface AeroAirport { code?: string | null; code_icao?: string | null; code_iata?: string | null }
interface AeroFlight {
  origin?: AeroAirport | null; destination?: AeroAirport | null;
  scheduled_in?: string | null; estimated_in?: string | null; actual_in?: string | null;
  cancelled?: boolean; diverted?: boolean; terminal_destination?: string | null;
}

/** What AeroAPI says of one flight, in our terms. */
export function fromAero(f: AeroFlight): FlightState | null {
  if (!f.scheduled_in) return null;
  const times = { scheduledIn: f.scheduled_in, estimatedIn: f.estimated_in ?? null, actualIn: f.actual_in ?? null };
  const status = f.cancelled ? 'cancelled' : f.diverted ? 'diverted' : statusFromTimes(times);
  return { status, origin: f.origin?.code_icao ?? f.origin?.code ?? null, ...times, terminal: f.terminal_destination ?? null };
}

export function aeroApiFlights(key: string, baseUrl = AEROAPI_URL): FlightStatusService {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: `FlightAware AeroAPI${baseUrl === AEROAPI_URL ? '' : ` at ${base}`}`,
    provider: 'aeroapi',
    horizonDays: AEROAPI_HORIZON_DAYS,
    async lookup(ident, date, airport, now): Promise<FlightAnswer> {
      // Departures from the day before (a night flight) to the end of the day it lands, by UK midnights (a day with a
      // clock change has 23 or 25 hours).
      const start = ukLocalToInstant(dayAfter(date, -1), 0, 0);
      // AeroAPI refuses an end more than two days ahead: no flight landing that day departs later than now anyway.
      const end = new Date(Math.min(ukLocalToInstant(dayAfter(date, 1), 0, 0).getTime(), now.getTime() + AEROAPI_HORIZON_DAYS * 86_400_000));
      const url = `${base}/flights/${encodeURIComponent(ident.replace(/\s+/g, ''))}?ident_type=designator`
        + `&start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(end.toISOString())}`;
      // Stopped when the watcher stops waiting; never redirected (the key would go with it).
      const res = await fetch(url, { headers: { 'x-apikey': key, Accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(AEROAPI_TIMEOUT_MS) });
      if (res.status === 404) return { found: false };
      if (!res.ok) throw new Error(`AeroAPI answered ${res.status}`);
      const body = await res.json() as { flights?: AeroFlight[] };
      if (!Array.isArray(body?.flights)) throw new Error('AeroAPI answered without a list of flights');
      const here = body.flights.filter((f) => {
        const d = f.destination;
        return (d?.code_icao === airport.icao || d?.code_iata === airport.iata || d?.code === airport.icao)
          && typeof f.scheduled_in === 'string' && ukPartsAt(new Date(f.scheduled_in)).date === date;
      });
      const flight = here.map(fromAero).find((f): f is FlightState => f !== null);
      return flight ? { found: true, flight } : { found: false };
    },
  };
}
