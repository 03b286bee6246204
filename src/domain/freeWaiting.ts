// What a fare includes (issue 27): free waiting time, by settings. A driver waits FREE_WAITING_AIRPORT_MINUTES
// (default 45) after the flight lands at an airport pickup, FREE_WAITING_MINUTES (default 15) after the pickup time
// elsewhere. A booking keeps the minutes it was made with (the quotation, the confirmation and the manage page say
// the same), so a later change of the settings does not change a booking already made.
import type { Settings } from './settings';

export const DEFAULT_FREE_WAITING_AIRPORT_MINUTES = 45;
export const DEFAULT_FREE_WAITING_MINUTES = 15;
/** The most free waiting a setting gives (10 hours); the console refuses more. */
export const MAX_FREE_WAITING_MINUTES = 600;

function minutesSetting(settings: Settings, key: string, fallback: number): number {
  const raw = settings[key]?.trim();
  const n = Number(raw);
  return raw && Number.isInteger(n) && n >= 0 && n <= MAX_FREE_WAITING_MINUTES ? n : fallback;
}

export const freeWaitingAirport = (settings: Settings) =>
  minutesSetting(settings, 'FREE_WAITING_AIRPORT_MINUTES', DEFAULT_FREE_WAITING_AIRPORT_MINUTES);
export const freeWaitingElsewhere = (settings: Settings) =>
  minutesSetting(settings, 'FREE_WAITING_MINUTES', DEFAULT_FREE_WAITING_MINUTES);

/** The free waiting a booking is made with: by whether its pickup is an airport. */
export const freeWaitingFor = (settings: Settings, airportPickup: boolean) =>
  (airportPickup ? freeWaitingAirport(settings) : freeWaitingElsewhere(settings));

const minutesText = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

/** One booking's free waiting, in words: "45 minutes after the flight lands", "15 minutes after the pickup time". */
export function freeWaitingText(minutes: number, airportPickup: boolean): string {
  if (minutes <= 0) return 'No free waiting time';
  return `${minutesText(minutes)} of free waiting ${airportPickup ? 'after the flight lands' : 'after the pickup time'}`;
}

/** The rule before a trip is chosen (the quotation): both cases. */
export function freeWaitingRule(settings: Settings): string {
  const airport = freeWaitingAirport(settings);
  const elsewhere = freeWaitingElsewhere(settings);
  return `Free waiting: ${minutesText(airport)} after landing at airports, ${minutesText(elsewhere)} elsewhere.`;
}
