// The hour that does not happen in the UK (issue 27): when the clocks go forward, 01:00-01:59 on the last Sunday of
// March. The forms and the server refuse such a time with these words rather than moving it an hour on. (The hour
// that happens twice, in October, is taken as its second occurrence: ukTime.ts ukLocalToInstant.) Its own module, so
// the first page, which needs ukTime.ts, does not carry it.
import { isCalendarDate, ukLocalToInstant, ukPartsAt } from './ukTime';

/**
 * Whether a UK wall-clock time does not happen: the hour skipped when the clocks go forward (01:00-01:59 on the last
 * Sunday of March). Such a time is refused with these words rather than silently moved an hour on (issue 27).
 */
export function ukTimeSkipped(date: string, hour24: number, minute: number): boolean {
  if (!isCalendarDate(date)) return false;
  const shown = ukPartsAt(ukLocalToInstant(date, hour24, minute));
  return shown.date !== date || shown.hour !== hour24 || shown.minute !== minute;
}

export const SKIPPED_HOUR_MESSAGE =
  'The clocks go forward at 1am that night, so times from 1am to 1:59am do not exist. Please choose 2am or later, or 12:55am or earlier.';
