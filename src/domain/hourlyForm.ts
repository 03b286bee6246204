// The hourly form's options, defaults and checks (SPEC 3 'Hourly form', SPEC 5),
// apart from ./forms because only the lazily loaded hourly form uses them.
import type { HourlyRateForm } from './schemas';
import { pickupDateError, pickupIsPast, range } from './forms';
import { hour24To12, ukEarliestPickup } from './ukTime';

/** SPEC 5 'Hourly form': 4hour..24hour; minutes 00-55. */
export const HOURLY_DURATIONS = range(4, 24).map((h) => `${h}hour`);
/**
 * The hourly form's hours in time order with labels nobody misreads (decision 20): 12 midnight, 1am .. 11am, 12 noon,
 * 1pm .. 11pm. The values stay SPEC 3's 12-hour text (12am is midnight, 12pm noon).
 */
export const HOURLY_HOUR_OPTIONS = range(0, 23).map((h) => ({
  value: hour24To12(h), label: h === 0 ? '12 midnight' : h === 12 ? '12 noon' : hour24To12(h),
}));

/** SPEC 3 'Hourly form' defaults, opening on the earliest bookable pickup (decision 20) rather than today at 12am. */
export function newHourlyForm(graceMinutes: number, now: Date = new Date()): HourlyRateForm {
  const { date, hour, min } = ukEarliestPickup(graceMinutes, now);
  return { pickup: '', pickup_date: date, pickup_duration: '4hour', pickup_hour: hour, pickup_min: min as HourlyRateForm['pickup_min'] };
}

/** The saved hourly form over the defaults; a saved pickup that has passed opens on the earliest bookable one. */
export function restoreHourlyForm(saved: Partial<HourlyRateForm> | null, graceMinutes: number, now: Date = new Date()): HourlyRateForm {
  const fresh = newHourlyForm(graceMinutes, now);
  if (!saved) return fresh;
  const pickup = pickupIsPast(saved, now)
    ? { pickup_date: fresh.pickup_date, pickup_hour: fresh.pickup_hour, pickup_min: fresh.pickup_min } : {};
  return { ...fresh, ...saved, ...pickup } as HourlyRateForm;
}

/** The hourly form's own checks before it asks for prices. */
export function validateHourlyForm(v: Partial<HourlyRateForm>, now: Date = new Date()) {
  const e: Record<string, string> = {};
  if (!v.pickup?.trim()) e.pickup = 'Enter a pickup address';
  const d = pickupDateError(v.pickup_date ?? '', now);
  if (d) e.pickup_date = d;
  return e;
}
