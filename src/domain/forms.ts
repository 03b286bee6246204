// Starting values and option lists of the booking forms (SPEC 3, 4 and 5).
import { create } from 'superstruct';
import { BookingForm } from './schemas';
import { hour24To12, ukNowRoundedTo5, ukToday } from './ukTime';

export const MINUTE_OPTIONS = ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'] as const;

/** Hours 00-23 as shown, with the 12-hour text the booking form stores. */
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ label: String(h).padStart(2, '0'), value: hour24To12(h) }));

export const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

export type BookingFormDraft = Omit<BookingForm, 'pickup' | 'dropoff'> & { pickup: string; dropoff: string };

/** SPEC 4: the quote form starts at 12:00, then the current UK time rounded to 5 minutes. */
export function newBookingForm(now: Date = new Date()): BookingFormDraft {
  const { date, hour, min } = ukNowRoundedTo5(now);
  return {
    ...create({ pickup: 'x', dropoff: 'x', pickup_date: date, pickup_hour: '12pm', pickup_min: '00' }, BookingForm),
    pickup: '', dropoff: '', passengers: 1, pickup_date: date, pickup_hour: hour, pickup_min: min as BookingForm['pickup_min'],
  };
}

/** SPEC 5: the pickup date cannot be earlier than today (UK time). */
export function pickupDateError(date: string, now: Date = new Date()): string | undefined {
  if (!date) return 'Choose a pickup date';
  return date < ukToday(now) ? 'Pickup date cannot be earlier than today' : undefined;
}
