// The operator's desk (issue 26): staff roles, a booking's statuses and what the office may do with each, the
// board's tabs, and the forms of the actions. The console asks these before it shows a button; the server enforces
// the same functions.
import { isPhone } from './phone';
import { poundsToPence } from './money';

export const STAFF_ROLES = ['admin', 'dispatcher', 'company'] as const;
export type StaffRole = typeof STAFF_ROLES[number];
export const ROLE_LABELS: Record<StaffRole, string> = {
  admin: 'Administrator', dispatcher: 'Dispatcher', company: 'Company',
};

/** A booking's status as stored: 'pending' is a card booking not paid yet, 'expired' one never paid. */
export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'no_show', 'cancelled', 'expired'] as const;
export type BookingStatus = typeof BOOKING_STATUSES[number];
export const STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Awaiting payment', confirmed: 'Confirmed', completed: 'Completed', no_show: 'No-show', cancelled: 'Cancelled',
  expired: 'Expired (never paid)',
};
export const isBookingStatus = (s: string): s is BookingStatus => (BOOKING_STATUSES as readonly string[]).includes(s);

export type BookingAction = 'assignDriver' | 'complete' | 'noShow' | 'cancel' | 'refund' | 'adjustCharge';

/**
 * What the office may do with a booking: a confirmed one takes a driver (again, to change it) and can be cancelled
 * until its pickup time; once the pickup time has come it can be marked completed or a no-show. Nothing else
 * changes a finished, cancelled, unpaid or expired booking.
 */
export function allowedActions(b: { status: string; pickupAt: Date }, now: Date): BookingAction[] {
  if (b.status !== 'confirmed') return [];
  return now.getTime() < b.pickupAt.getTime() ? ['assignDriver', 'cancel'] : ['assignDriver', 'complete', 'noShow', 'cancel'];
}

/**
 * Who moves the operator's money: the office (administrators and dispatchers). The operator took the card payment, so
 * a company's staff cancel a booking without a refund; the office is told, and refunds it (decision 50).
 */
export const mayRefund = (role: string): boolean => role === 'admin' || role === 'dispatcher';

/** A cancelled booking with card money left to give back: the office may refund it, all that is left, once. */
export const refundDue = (b: { status: string; leftPence: number }): boolean => b.status === 'cancelled' && b.leftPence > 0;

/**
 * The buttons a member of staff sees on a booking: what allowedActions allows, and for the office Refund when one is
 * due and Change charge when the booking's charge may change (issue 44: `chargeAdjustable`, a journey on account once
 * completed or a no-show, as ./accounts.ts mayAdjustCharge says).
 */
export function deskActions(b: { status: string; pickupAt: Date; leftPence: number; chargeAdjustable?: boolean }, role: string, now: Date): BookingAction[] {
  const actions = allowedActions(b, now);
  if (!mayRefund(role)) return actions;
  return [...actions, ...(refundDue(b) ? ['refund' as const] : []), ...(b.chargeAdjustable ? ['adjustCharge' as const] : [])];
}

export const BOARD_TABS = ['today', 'upcoming', 'past', 'awaiting', 'cancelled'] as const;
export type BoardTab = typeof BOARD_TABS[number];
export const TAB_LABELS: Record<BoardTab, string> = {
  today: 'Today', upcoming: 'Upcoming', past: 'Past', awaiting: 'Awaiting payment', cancelled: 'Cancelled',
};
export const isBoardTab = (s: string): s is BoardTab => (BOARD_TABS as readonly string[]).includes(s);

/** A UK registration as written on the plate: letters and digits, spaces allowed, 2 to 8 characters. */
export const isRegistration = (v: string) => /^[A-Z0-9]{2,8}$/i.test(v.replace(/\s+/g, ''));

export interface DriverInput { name: string; mobile: string; vehicle: string; registration: string }
export type FormErrors<T> = Partial<Record<keyof T, string>>;

/** The driver form's rules, for the console's form and the server alike: field -> message. */
export function driverErrors(d: Partial<Record<keyof DriverInput, unknown>>): FormErrors<DriverInput> {
  const errors: FormErrors<DriverInput> = {};
  const value = (k: keyof DriverInput) => (typeof d[k] === 'string' ? (d[k] as string).trim() : '');
  if (!value('name')) errors.name = "Enter the driver's name.";
  else if (value('name').length > 80) errors.name = 'The name is at most 80 characters.';
  if (!value('mobile')) errors.mobile = "Enter the driver's mobile number.";
  else if (!isPhone(value('mobile'))) errors.mobile = 'Enter a valid mobile number, e.g. 07700 900123.';
  if (!value('vehicle')) errors.vehicle = 'Enter the make and model, e.g. Mercedes E-Class.';
  else if (value('vehicle').length > 80) errors.vehicle = 'The make and model is at most 80 characters.';
  if (!value('registration')) errors.registration = 'Enter the registration.';
  else if (!isRegistration(value('registration'))) errors.registration = 'Enter the registration as on the plate, e.g. LB71 XKE.';
  return errors;
}

/** A registration as it is shown: capitals, one space between groups. */
export const plate = (v: string) => v.trim().toUpperCase().replace(/\s+/g, ' ');

export interface CancelInput {
  reason: string;
  /** A paid card booking: 'yes' refunds (all of it, or refund_amount pounds), 'no' keeps the money. */
  refund?: 'yes' | 'no';
  refund_amount?: string;
}

/** The refund in pence, or the message saying what is wrong: empty means all that was paid. */
export function refundPence(entered: string | undefined, paidPence: number): number | string {
  if (!entered?.trim()) return paidPence;
  if (!/^\d+(\.\d{1,2})?$/.test(entered.trim())) return 'Enter the refund in pounds, like 25.00.';
  const pence = poundsToPence(entered.trim());
  if (pence <= 0) return 'Enter more than £0.00, or choose not to refund.';
  if (pence > paidPence) return `The refund cannot be more than the £${(paidPence / 100).toFixed(2)} paid.`;
  return pence;
}

/** The cancel form's rules: a reason, and for a paid card booking a refund no larger than the payment. */
export function cancelErrors(c: Partial<Record<keyof CancelInput, unknown>>, paidPence: number | null): FormErrors<CancelInput> {
  const errors: FormErrors<CancelInput> = {};
  const reason = typeof c.reason === 'string' ? c.reason.trim() : '';
  if (!reason) errors.reason = 'Enter the reason: the passenger is told it.';
  else if (reason.length > 500) errors.reason = 'The reason is at most 500 characters.';
  if (paidPence !== null) {
    if (c.refund !== 'yes' && c.refund !== 'no') errors.refund = 'Choose whether to refund the payment.';
    else if (c.refund === 'yes') {
      const amount = refundPence(typeof c.refund_amount === 'string' ? c.refund_amount : '', paidPence);
      if (typeof amount === 'string') errors.refund_amount = amount;
    }
  }
  return errors;
}

export const MESSAGES = {
  signInMissing: 'Enter your e-mail and password.',
  signInFailed: 'The e-mail or password is not correct.',
  sessionEnded: 'Please sign in again: your session has ended.',
  /** The sign-in page's words when the session ended while an action was being saved (the server refused it: 401). */
  sessionEndedUnsaved: 'Your session ended, so nothing was saved. Please sign in again.',
  notFound: 'No booking with this reference.',
  notAllowed: 'This cannot be done to this booking any more. Reload it to see where it stands.',
  adminOnly: 'Only an administrator can do this.',
  officeRefunds: 'Only the office refunds a card payment: cancel without a refund, and the office is told to refund it.',
  nothingToRefund: 'Nothing is left to refund on this booking. Reload it to see where it stands.',
} as const;
