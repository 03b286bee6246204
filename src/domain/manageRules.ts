// Manage my booking (issue 27): until when a passenger may change or cancel a booking themselves, and how its status
// reads. The page asks these before it shows a button; the server enforces the same functions.
import { numberSetting, type Settings } from './settings';
import { ukPartsAt } from './ukTime';
import { isEmail } from './fields';

export const DEFAULT_CHANGE_CUTOFF_HOURS = 2;
export const DEFAULT_CANCELLATION_WINDOW_HOURS = 24;

const hoursSetting = (settings: Settings, key: string, fallback: number) =>
  (settings[key]?.trim() ? Math.max(0, numberSetting(settings, key)) : fallback);

/**
 * A booking's pickup as its deadlines read it (issue 39): the pickup it has now, and the one it was booked for (kept
 * with the booking when it is written, bookings.original_pickup_at).
 */
export interface PickupTimes { pickupAt: Date; originalPickupAt: Date }

/**
 * The pickup a booking's deadlines count from: the one it was booked for, or the one it has now when a change moved it
 * earlier. Moving the pickup later never moves a deadline later, so a move inside the last 24 hours cannot buy back
 * free cancelling (decision 49); moving it earlier brings the deadlines forward with it.
 */
export const deadlinePickup = (t: PickupTimes) => new Date(Math.min(t.pickupAt.getTime(), t.originalPickupAt.getTime()));

/** Details can be changed until CHANGE_CUTOFF_HOURS (default 2) before the pickup (deadlinePickup). */
export const changeDeadline = (t: PickupTimes, settings: Settings) =>
  new Date(deadlinePickup(t).getTime() - hoursSetting(settings, 'CHANGE_CUTOFF_HOURS', DEFAULT_CHANGE_CUTOFF_HOURS) * 3_600_000);

const cancelWindowHours = (settings: Settings) => hoursSetting(settings, 'CANCELLATION_WINDOW_HOURS', DEFAULT_CANCELLATION_WINDOW_HOURS);

/** Cancelling is free until CANCELLATION_WINDOW_HOURS (default 24) before the pickup (deadlinePickup). */
export const cancelDeadline = (t: PickupTimes, settings: Settings) =>
  new Date(deadlinePickup(t).getTime() - cancelWindowHours(settings) * 3_600_000);

/**
 * Whether the booking was made inside the free-cancellation window of the pickup it was booked for (CANCELLATION_WINDOW_HOURS
 * or less before it): it never had free cancelling, so its page says so rather than that it "ended" before the
 * booking was made.
 */
export const bookedInsideWindow = (originalPickupAt: Date, bookedAt: Date, settings: Settings) =>
  bookedAt.getTime() >= originalPickupAt.getTime() - cancelWindowHours(settings) * 3_600_000;

/** What a booking made inside the window reads instead of a free-cancellation deadline. */
export function noFreeCancelWords(settings: Settings): string {
  const hours = cancelWindowHours(settings);
  return `Bookings made within ${hours} ${hours === 1 ? 'hour' : 'hours'} of pickup have no free cancellation.`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A moment as a person in the UK reads it, UK time: "Thursday 12 September 2030 at 05:15". In the hour that happens
 * twice (when the clocks go back) it says which: "Sunday 27 October 2030 at 01:30 GMT" is the second 01:30.
 */
export function ukMoment(instant: Date): string {
  const p = ukPartsAt(instant);
  const [year, month, day] = p.date.split('-').map(Number);
  const weekday = WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
  const same = (other: { date: string; hour: number; minute: number }) => other.date === p.date && other.hour === p.hour && other.minute === p.minute;
  const zone = same(ukPartsAt(new Date(instant.getTime() - 3_600_000))) ? ' GMT' : same(ukPartsAt(new Date(instant.getTime() + 3_600_000))) ? ' BST' : '';
  return `${weekday} ${day} ${MONTHS[month - 1]} ${year} at ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}${zone}`;
}

export type ManageStatus = 'confirmed' | 'driverAssigned' | 'completed' | 'noShow' | 'cancelled' | 'awaitingPayment' | 'expired';

/** The booking's status as the passenger reads it. */
export function manageStatus(b: { status: string; driver: unknown }): ManageStatus {
  switch (b.status) {
    case 'confirmed': return b.driver ? 'driverAssigned' : 'confirmed';
    case 'completed': return 'completed';
    case 'no_show': return 'noShow';
    case 'cancelled': return 'cancelled';
    case 'pending': return 'awaitingPayment';
    default: return 'expired';
  }
}

export const STATUS_WORDS: Record<ManageStatus, string> = {
  confirmed: 'Confirmed', driverAssigned: 'Confirmed: your driver is assigned', completed: 'Completed', noShow: 'Marked as a no-show',
  cancelled: 'Cancelled', awaitingPayment: 'Waiting for the card payment', expired: 'Not booked: the payment was never made',
};

/** What the passenger may still do: change details, cancel free of charge. */
export function passengerMay(b: PickupTimes & { status: string }, settings: Settings, now: Date) {
  const open = b.status === 'confirmed';
  return {
    change: open && now.getTime() < changeDeadline(b, settings).getTime(),
    cancel: open && now.getTime() < cancelDeadline(b, settings).getTime(),
  };
}

/**
 * What moving the pickup to `to` does to the deadlines, in the words the change form shows before anything is saved
 * (issue 39); null when the pickup stays. A later pickup keeps both deadlines where they are; an earlier one than the
 * deadlines count from brings them forward. `bookedAt`, when known: a booking made inside the window is told it never
 * had free cancelling (bookedInsideWindow), not that it ended.
 */
export function moveWords(t: PickupTimes, to: Date, settings: Settings, now: Date, bookedAt: Date | null = null): string | null {
  if (to.getTime() === t.pickupAt.getTime()) return null;
  const moved = { pickupAt: to, originalPickupAt: t.originalPickupAt };
  const [cancelNow, cancelThen, changeThen] = [cancelDeadline(t, settings), cancelDeadline(moved, settings), changeDeadline(moved, settings)];
  const ended = (d: Date) => d.getTime() <= now.getTime();
  let cancel: string;
  if (bookedAt && bookedInsideWindow(t.originalPickupAt, bookedAt, settings)) cancel = `${noFreeCancelWords(settings)} Moving the pickup does not change that.`;
  else if (ended(cancelNow)) cancel = `Free cancellation ended on ${ukMoment(cancelNow)}: moving the pickup does not bring it back.`;
  else if (cancelThen.getTime() === cancelNow.getTime()) cancel = `Free cancellation still ends on ${ukMoment(cancelNow)}: moving the pickup does not move it.`;
  else if (ended(cancelThen)) cancel = 'With the pickup at this time, free cancellation ends as soon as you save.';
  else cancel = `Moving the pickup earlier moves the end of free cancellation to ${ukMoment(cancelThen)}.`;
  return `${cancel} ${ended(changeThen) ? 'After this change, no more changes can be made here.' : `Changes can be made here until ${ukMoment(changeThen)}.`}`;
}

/** Whether a booking has a receipt: once booked (paid, or to be paid in the car), not for a cancelled one nothing was paid for. */
export const hasReceipt = (status: string, paymentMethod: string) =>
  status !== 'pending' && status !== 'expired' && !(status === 'cancelled' && paymentMethod !== 'card');

export const MANAGE_MESSAGES = {
  unknownLink: 'This link does not open a booking. Check that you copied the whole link from your e-mail, or find your booking with its reference and e-mail address.',
  expiredLink: 'This link has expired. Find your booking again with its reference and e-mail address to get a new one.',
  noReceipt: 'A receipt is ready once the booking is paid or confirmed. A booking cancelled before anything was paid has none.',
  findSent: 'If the reference and e-mail address match a booking, we have sent its link to that address. It may take a few minutes to arrive.',
} as const;

/** Find my booking's form: the page and the API give the same messages. */
export const FIND_MESSAGES = {
  reference: 'Enter the reference as it is on your confirmation, like BK-7KQ2M9XD.',
  email: 'Enter the e-mail address the booking was made with.',
} as const;

/** A booking reference as people type it: spaces dropped, capitals. */
export const cleanReference = (text: string) => text.replace(/\s+/g, '').toUpperCase();
export const isReference = (text: string) => /^BK-[A-Z0-9]{8}$/.test(cleanReference(text));

export function findErrors(v: { reference?: string; email?: string }): { reference?: string; email?: string } {
  return {
    ...(isReference(v.reference ?? '') ? {} : { reference: FIND_MESSAGES.reference }),
    ...(isEmail(v.email) ? {} : { email: FIND_MESSAGES.email }),
  };
}
