// The 'Hourly Rate' form's options, defaults and checks (SPEC 3 and 5). Only the
// hourly form reads them: it is a lazy chunk, and so are they.
import type { HourlyRateForm } from './schemas';
import { ukToday } from './ukTime';
import { pickupDateError, range } from './forms';

/** SPEC 5 'Hourly form': 4hour..24hour; hours 1am..12am then 1pm..12pm; minutes 00-55. */
export const HOURLY_DURATIONS = range(4, 24).map((h) => `${h}hour`);
export const HOURLY_HOUR_OPTIONS = [...range(1, 12).map((h) => `${h}am`), ...range(1, 12).map((h) => `${h}pm`)];

/** SPEC 3 'Hourly form' defaults. */
export function newHourlyForm(now: Date = new Date()): HourlyRateForm {
  return { pickup: '', pickup_date: ukToday(now), pickup_duration: '4hour', pickup_hour: '12am', pickup_min: '00' };
}

/** The hourly form's own checks before it asks for prices. */
export function validateHourlyForm(v: Partial<HourlyRateForm>, now: Date = new Date()) {
  const e: Record<string, string> = {};
  if (!v.pickup?.trim()) e.pickup = 'Enter a pickup address';
  const d = pickupDateError(v.pickup_date ?? '', now);
  if (d) e.pickup_date = d;
  return e;
}
