// Starting values and option lists of the booking forms (SPEC 3, 4 and 5).
import { create } from 'superstruct';
import { BookingForm } from './schemas';
import { hour12To24, hour24To12, ukEarliestPickup, ukLocalToInstant, ukToday } from './ukTime';
import { SAME_PLACE } from './messages';
import { sameAddressText } from './places';
import { travelReferenceFailure } from './flightNumbers';

export const MINUTE_OPTIONS = ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'] as const;

/** Hours 00-23 as shown, with the 12-hour text the booking form stores. */
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ label: String(h).padStart(2, '0'), value: hour24To12(h) }));

export const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

export type BookingFormDraft = Omit<BookingForm, 'pickup' | 'dropoff'> & { pickup: string; dropoff: string };

/**
 * A new quote form opens on the earliest bookable pickup: now plus GRACE_TIME minutes, rounded up to 5 minutes
 * (decision 20; with GRACE_TIME 0 this is SPEC 4's current time rounded to 5 minutes).
 */
export function newBookingForm(graceMinutes: number, now: Date = new Date()): BookingFormDraft {
  const { date, hour, min } = ukEarliestPickup(graceMinutes, now);
  return {
    ...create({ pickup: 'x', dropoff: 'x', pickup_date: date, pickup_hour: '12pm', pickup_min: '00' }, BookingForm),
    pickup: '', dropoff: '', passengers: 1, pickup_date: date, pickup_hour: hour, pickup_min: min as BookingForm['pickup_min'],
    return_hour: '12pm', return_min: '00',
  };
}

/** Whether a pickup as the forms store it (date, 12-hour hour, minute) is before `now`; one without a date or hour is not. */
export function pickupIsPast(p: { pickup_date?: string; pickup_hour?: string; pickup_min?: string }, now: Date = new Date()): boolean {
  try {
    return ukLocalToInstant(p.pickup_date!, hour12To24(p.pickup_hour!), Number(p.pickup_min)) < now;
  } catch {
    return false; // not a date (no UK time for it) or not an hour
  }
}

/**
 * A saved form over the defaults; a return time never saved takes the default rather than an empty select. A saved
 * pickup that has already passed opens on the earliest bookable pickup instead (decision 20); one still ahead is kept.
 */
export function restoreBookingForm(saved: BookingForm | null, graceMinutes: number, now: Date = new Date()): BookingFormDraft {
  const fresh = newBookingForm(graceMinutes, now);
  if (!saved) return fresh;
  const pickup = pickupIsPast(saved, now)
    ? { pickup_date: fresh.pickup_date, pickup_hour: fresh.pickup_hour, pickup_min: fresh.pickup_min } : {};
  return { ...fresh, ...saved, ...pickup, return_hour: saved.return_hour || fresh.return_hour, return_min: saved.return_min || fresh.return_min };
}

/** The return leg's counts and extras, which start as copies of the outbound ones when the visitor chooses return (decision 20). */
const RETURN_COPIES = [
  'passengers', 'luggages', 'hand_luggages', 'meet_and_greet', 'baby_seats', 'booster_seats', 'wheel_chair',
  'special_luggage', 'waiting_min',
] as const;

/** The return leg's values copied from the outbound leg: { return_passengers: outbound passengers, ... }. */
export function returnLegFromOutbound(v: Partial<BookingFormDraft>): Partial<BookingFormDraft> {
  return Object.fromEntries(RETURN_COPIES.map((k) => [`return_${k}`, v[k]]));
}

/**
 * The return date to show once the pickup date has changed: the pickup date when the return has none yet or would
 * now come before it (a moved pickup takes the return along rather than leaving it in error), else unchanged.
 */
export function returnDateFollowingPickup(v: Pick<Partial<BookingFormDraft>, 'pickup_date' | 'return_date' | 'select_option'>): string | undefined {
  if (v.select_option !== 'return' || !v.pickup_date) return v.return_date;
  return !v.return_date || v.return_date < v.pickup_date ? v.pickup_date : v.return_date;
}

/** SPEC 5: the pickup date cannot be earlier than today (UK time). */
export function pickupDateError(date: string, now: Date = new Date()): string | undefined {
  if (!date) return 'Choose a pickup date';
  return date < ukToday(now) ? 'Pickup date cannot be earlier than today' : undefined;
}

/** SPEC 5: the flight/train/port field shows when the address mentions an airport or terminal (./flightNumbers.ts). */
export { needsTravelReference } from './flightNumbers';

export type BookingFormErrors = Partial<Record<string, string>> & { stops?: { street_name?: string }[] };

/** The quote form's own checks before it asks for prices (the server checks everything again). */
export function validateBookingForm(v: BookingFormDraft, now: Date = new Date()): BookingFormErrors {
  const e: BookingFormErrors = {};
  if (!v.pickup?.trim()) e.pickup = 'Enter a pickup address';
  if (!v.dropoff?.trim()) e.dropoff = 'Enter a drop-off address';
  // Decision 23: a trip with no stops to where it starts is refused (the server checks the places too).
  else if (!v.stops?.length && sameAddressText(v.pickup ?? '', v.dropoff)) e.dropoff = SAME_PLACE;
  const dateError = pickupDateError(v.pickup_date, now);
  if (dateError) e.pickup_date = dateError;
  if (v.select_option === 'return') {
    if (!v.return_date) e.return_date = 'Choose a return date';
    else if (v.pickup_date && v.return_date < v.pickup_date) e.return_date = 'The return cannot be before the pickup date';
  }
  // Issue 42: a flight, train or ferry reference, where the field shows (the API's rule: schemas.ts BookingForm).
  const reference = travelReferenceFailure(v);
  if (reference) e[reference.field] = reference.message;
  const stopErrors = (v.stops ?? []).map((s) => (s.street_name?.trim() ? {} : { street_name: 'Enter the street name or place' }));
  if (stopErrors.some((s) => s.street_name)) e.stops = stopErrors;
  return e;
}
