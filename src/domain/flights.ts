// Airport pickups that follow the flight (issue 42, decision 58): the flight number read as airlines write it, the
// airports a pickup can be at, when a flight is checked, where its pickup moves to, and the words every page uses.
// The server's flight watcher (src/server/flights) asks these; the pages show what they say.
import { ukLocalToInstant, ukPartsAt } from './ukTime';
import type { Settings } from './settings';

export { flightText, parseFlightNumber } from './flightNumbers';

// ---------------------------------------------------------------------------------------------------------------
// The airports.

export interface Airport { iata: string; icao: string; name: string }

/** UK airports with scheduled flights, and the words a pickup address names each by. */
const AIRPORTS: readonly (Airport & { words: RegExp })[] = [
  { iata: 'LHR', icao: 'EGLL', name: 'Heathrow', words: /heathrow|\blhr\b/i },
  { iata: 'LGW', icao: 'EGKK', name: 'Gatwick', words: /gatwick|\blgw\b/i },
  { iata: 'STN', icao: 'EGSS', name: 'Stansted', words: /stansted|\bstn\b/i },
  { iata: 'LTN', icao: 'EGGW', name: 'Luton', words: /luton airport|london luton/i },
  // Before London City: "George Best Belfast City Airport" is Belfast's.
  { iata: 'BHD', icao: 'EGAC', name: 'Belfast City', words: /george best|belfast city airport/i },
  { iata: 'LCY', icao: 'EGLC', name: 'London City', words: /london city airport|\blcy\b/i },
  { iata: 'SEN', icao: 'EGMC', name: 'Southend', words: /southend airport/i },
  { iata: 'MAN', icao: 'EGCC', name: 'Manchester', words: /manchester airport/i },
  { iata: 'BHX', icao: 'EGBB', name: 'Birmingham', words: /birmingham airport/i },
  { iata: 'BRS', icao: 'EGGD', name: 'Bristol', words: /bristol airport/i },
  { iata: 'EMA', icao: 'EGNX', name: 'East Midlands', words: /east midlands airport/i },
  { iata: 'LBA', icao: 'EGNM', name: 'Leeds Bradford', words: /leeds bradford airport/i },
  { iata: 'LPL', icao: 'EGGP', name: 'Liverpool', words: /liverpool john lennon|liverpool airport/i },
  { iata: 'NCL', icao: 'EGNT', name: 'Newcastle', words: /newcastle airport/i },
  { iata: 'SOU', icao: 'EGHI', name: 'Southampton', words: /southampton airport/i },
  { iata: 'CWL', icao: 'EGFF', name: 'Cardiff', words: /cardiff airport/i },
  { iata: 'EDI', icao: 'EGPH', name: 'Edinburgh', words: /edinburgh airport/i },
  { iata: 'GLA', icao: 'EGPF', name: 'Glasgow', words: /glasgow airport/i },
  { iata: 'ABZ', icao: 'EGPD', name: 'Aberdeen', words: /aberdeen airport/i },
  { iata: 'BFS', icao: 'EGAA', name: 'Belfast International', words: /belfast international/i },
];

/** The airport a pickup address is at, or null (a pickup elsewhere, or an airport not in the list). */
export function airportOf(address: string | null | undefined): Airport | null {
  if (!address) return null;
  const found = AIRPORTS.find((a) => a.words.test(address));
  return found ? { iata: found.iata, icao: found.icao, name: found.name } : null;
}

export const airportByCode = (code: string): Airport | null => {
  const found = AIRPORTS.find((a) => a.iata === code || a.icao === code);
  return found ? { iata: found.iata, icao: found.icao, name: found.name } : null;
};

/** A flight from another UK airport (ICAO EG..., the Crown Dependencies among them): a domestic arrival, no passport control. */
export const isDomesticOrigin = (icao: string | null | undefined) => /^EG[A-Z]{2}$/.test((icao ?? '').toUpperCase());

// ---------------------------------------------------------------------------------------------------------------
// What the flight status service says, and what follows from it.

export const FLIGHT_STATUSES = ['scheduled', 'delayed', 'landed', 'diverted', 'cancelled'] as const;
export type FlightStatus = typeof FLIGHT_STATUSES[number];

export const FLIGHT_STATUS_LABELS: Record<FlightStatus, string> = {
  scheduled: 'On time', delayed: 'Delayed', landed: 'Landed', diverted: 'Diverted', cancelled: 'Cancelled',
};

/** A flight as the service saw it (instants as ISO strings). */
export interface FlightState {
  status: FlightStatus;
  origin: string | null;
  scheduledIn: string;
  estimatedIn: string | null;
  actualIn: string | null;
  terminal: string | null;
}

/** A flight at least this late is called delayed (the usual industry measure). */
export const DELAYED_AFTER_MINUTES = 15;

/** The status from the times, when the service gives no cancelled or diverted: landed, delayed or on time. */
export function statusFromTimes(t: { scheduledIn: string; estimatedIn: string | null; actualIn: string | null }): FlightStatus {
  if (t.actualIn) return 'landed';
  const late = t.estimatedIn ? (Date.parse(t.estimatedIn) - Date.parse(t.scheduledIn)) / 60_000 : 0;
  return late >= DELAYED_AFTER_MINUTES ? 'delayed' : 'scheduled';
}

/** When the flight lands or landed, best known: actual, else estimated, else scheduled. */
export const landingOf = (f: Pick<FlightState, 'scheduledIn' | 'estimatedIn' | 'actualIn'>) => new Date(f.actualIn ?? f.estimatedIn ?? f.scheduledIn);

/** The flight settings with their defaults (the console's Flights group). */
export interface FlightSettings {
  /** Minutes between checks, and within two hours of landing. */
  checkMinutes: number; nearMinutes: number;
  /** Minutes from landing to arrivals: a domestic flight, an international one. */
  arrivalsDomestic: number; arrivalsInternational: number;
  /** A pickup may move earlier than booked (an early landing). */
  earlierAllowed: boolean;
  /** A move of at least this many minutes is told to the driver, the office and the passenger. */
  tellMinutes: number;
  /** Calls to the provider allowed per minute and per day (its plan). */
  callsPerMinute: number; callsPerDay: number;
}

export const FLIGHT_SETTING_NAMES = {
  checkMinutes: 'FLIGHT_CHECK_MINUTES', nearMinutes: 'FLIGHT_CHECK_NEAR_MINUTES', arrivalsDomestic: 'FLIGHT_ARRIVALS_DOMESTIC_MINUTES',
  arrivalsInternational: 'FLIGHT_ARRIVALS_INTERNATIONAL_MINUTES', earlierAllowed: 'FLIGHT_PICKUP_EARLIER', tellMinutes: 'FLIGHT_TELL_MINUTES',
  callsPerMinute: 'FLIGHT_CALLS_PER_MINUTE', callsPerDay: 'FLIGHT_CALLS_PER_DAY',
} as const;

export const DEFAULT_FLIGHT_SETTINGS: FlightSettings = {
  checkMinutes: 15, nearMinutes: 5, arrivalsDomestic: 15, arrivalsInternational: 30, earlierAllowed: false, tellMinutes: 15,
  callsPerMinute: 10, callsPerDay: 1000,
};

/** The flight settings from the operator's settings: a whole number in range, else the default. */
export function flightSettings(settings: Settings): FlightSettings {
  const whole = (key: keyof FlightSettings, min: number) => {
    const raw = settings[FLIGHT_SETTING_NAMES[key]]?.trim();
    const n = Number(raw);
    return raw && Number.isInteger(n) && n >= min && n <= 100_000 ? n : DEFAULT_FLIGHT_SETTINGS[key] as number;
  };
  return {
    checkMinutes: whole('checkMinutes', 1), nearMinutes: whole('nearMinutes', 1), arrivalsDomestic: whole('arrivalsDomestic', 0),
    arrivalsInternational: whole('arrivalsInternational', 0), earlierAllowed: settings[FLIGHT_SETTING_NAMES.earlierAllowed]?.trim() === 'yes',
    tellMinutes: whole('tellMinutes', 1), callsPerMinute: whole('callsPerMinute', 1), callsPerDay: whole('callsPerDay', 1),
  };
}

/** A flight the service does not know is asked about until this long after it was expected to land. */
export const GIVE_UP_AFTER_MINUTES = 60;

/** After failed calls, the next is this many minutes later: nearMinutes doubled at each failure, at most an hour. */
export const retryMinutes = (failures: number, s: Pick<FlightSettings, 'nearMinutes'>) =>
  Math.min(60, s.nearMinutes * 2 ** Math.max(0, failures - 1));

/** The calendar date `days` after `date` (YYYY-MM-DD). */
export function dayAfter(date: string, days = 1): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whether every flight landing in the UK on `date` departs within a provider's horizon of `days` from now. */
export const withinHorizon = (date: string, now: Date, days: number) => ukLocalToInstant(dayAfter(date), 0, 0).getTime() - now.getTime() <= days * 86_400_000;

/** Checks start this long before the landing (the first look at booking aside). */
export const WATCH_FROM_HOURS = 4;
/** Checks come every `nearMinutes` from this long before the landing. */
export const NEAR_HOURS = 2;

/**
 * When a flight is checked next, or null when nothing it says can change any more (landed, cancelled, diverted).
 * Far from the landing: at WATCH_FROM_HOURS before it; then every checkMinutes; within NEAR_HOURS (and after the
 * landing time while it has not landed) every nearMinutes.
 */
export function nextCheckAt(now: Date, flight: Pick<FlightState, 'status' | 'scheduledIn' | 'estimatedIn' | 'actualIn'> | null,
  expectedLanding: Date, s: FlightSettings): Date | null {
  if (flight && (flight.status === 'landed' || flight.status === 'cancelled' || flight.status === 'diverted')) return null;
  const landing = flight ? landingOf(flight) : expectedLanding;
  const toLanding = landing.getTime() - now.getTime();
  // A flight the service does not know is given up an hour after it was expected: asking on would only spend calls.
  if (!flight && toLanding < -GIVE_UP_AFTER_MINUTES * 60_000) return null;
  if (toLanding > WATCH_FROM_HOURS * 3_600_000) return new Date(landing.getTime() - WATCH_FROM_HOURS * 3_600_000);
  const minutes = toLanding <= NEAR_HOURS * 3_600_000 ? s.nearMinutes : s.checkMinutes;
  return new Date(now.getTime() + minutes * 60_000);
}

/**
 * Where the pickup stands once the flight is known: landing plus the time to reach arrivals (domestic or
 * international), never earlier than booked unless the office allows it. A cancelled or diverted flight leaves the
 * pickup where it was (the office decides).
 */
export function followedPickup(booked: Date, flight: FlightState, s: FlightSettings): Date {
  if (flight.status === 'cancelled' || flight.status === 'diverted') return booked;
  const arrivals = isDomesticOrigin(flight.origin) ? s.arrivalsDomestic : s.arrivalsInternational;
  const ready = new Date(landingOf(flight).getTime() + arrivals * 60_000);
  return s.earlierAllowed ? ready : new Date(Math.max(ready.getTime(), booked.getTime()));
}

/** Whether a move from what was last told is big enough to tell again (at least tellMinutes either way). */
export const worthTelling = (told: Date, now: Date, s: FlightSettings) => Math.abs(now.getTime() - told.getTime()) >= s.tellMinutes * 60_000;

const hhmm = (d: Date) => {
  const p = ukPartsAt(d);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
};

/** A flight in the pages' words: "BA 283 delayed: lands 08:10 (due 07:15)", "BA 283 landed 08:05". */
export function flightWords(ident: string, f: FlightState): string {
  const due = hhmm(new Date(f.scheduledIn));
  switch (f.status) {
    case 'landed': return `${ident} landed at ${hhmm(new Date(f.actualIn!))}`;
    case 'cancelled': return `${ident} is cancelled`;
    case 'diverted': return `${ident} is diverted to another airport`;
    case 'delayed': return `${ident} delayed: lands ${hhmm(landingOf(f))} (due ${due})`;
    default: return `${ident} on time: lands ${hhmm(landingOf(f))}`;
  }
}

/** What a page shows when the service has not answered since a time: "Flight status unavailable since 06:40". */
export const unavailableWords = (since: Date) => `Flight status unavailable since ${hhmm(since)}`;

/** The time of day in the UK, "08:10", of an instant (ISO). */
export const ukClock = (iso: string) => hhmm(new Date(iso));

/**
 * A flight as a booking shows it everywhere (the board, the driver's job, the passenger's page, the console's
 * booking): the flight's words, where the pickup stands now and the booked time beside it.
 */
export interface BookingFlight {
  number: string;
  status: FlightStatus | null;
  /** "BA 283 delayed: lands 08:10 (due 07:15)"; null before the first answer. */
  words: string | null;
  terminal: string | null;
  /** The pickup as it stands (ISO) and as booked (ISO); moved when they differ. */
  pickup_at: string; booked_at: string; moved: boolean;
  /** "Pickup moved to 08:40 (booked 07:15)"; null when not moved. */
  moved_words: string | null;
  /** "Flight status unavailable since 06:40", while the service does not answer. */
  unavailable: string | null;
  /** The flight does not land at this airport on the pickup's date (as the service says). */
  not_found: string | null;
}

export function movedWords(pickupAt: Date, bookedAt: Date): string | null {
  return pickupAt.getTime() === bookedAt.getTime() ? null : `Pickup moved to ${hhmm(pickupAt)} (booked ${hhmm(bookedAt)})`;
}

/** "BA 238 does not land at Heathrow on 12 Dec: check the number". */
export function notFoundWords(ident: string, airport: Airport, date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)));
  return `${ident} does not land at ${airport.name} on ${day}: check the number`;
}

/** A pickup whose flight is looked up: at an airport the site knows (SPEC's field shows for any airport or terminal). */
export const needsFlightCheck = (pickup: string | null | undefined) => airportOf(pickup) !== null;

/** What the look-up at booking says on the details step (GET /flights/check). */
export interface FlightCheck {
  /** The number as stored ("BA 283"); null when the text is not a flight (a train, a ferry). */
  number: string | null;
  /** Whether the service answered. */
  checked: boolean;
  /** "BA 238 does not land at Heathrow on 12 Dec: check the number": shown on the field, the booking goes on. */
  warning: string | null;
  /** "BA 283 on time: lands 07:05". */
  words: string | null;
  terminal: string | null;
}
