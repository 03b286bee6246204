// Bookings the office takes on the telephone (issue 43 §1): the same booking call, prices and rules as the website's,
// with what only the office may do: book for any time still to come (the website's notice, GRACE_TIME, is for online
// bookings), book for a passenger found on record, set a price by hand with a reason, and send a card payment link in
// place of taking the money in the car, or (issue 44) book on the passenger's company account. The console's form asks
// these rules first; the server enforces the same.
import { nullable, object, optional, string, type, enums, integer, size, type Infer } from 'superstruct';
import { BookingRequest } from './requestSchemas';
import { poundsToPence } from './money';
import type { AccountBilling } from './accountPayment';

export const PHONE_PAYMENTS = ['car', 'link', 'account'] as const;
export type PhonePayment = typeof PHONE_PAYMENTS[number];
export const PHONE_PAYMENT_LABELS: Record<PhonePayment, string> = {
  car: 'Pay in the car', link: 'Send a card payment link', account: 'On account',
};

/**
 * Why the office cannot book on the passenger's company account (issue 44), in words for the dispatcher; null when
 * it can: the passenger found on record books for an active account. (A booker is told otherwise: accountRefusal.)
 */
export function officeAccountRefusal(a: Pick<AccountBilling, 'name' | 'status' | 'reason'> | null): string | null {
  if (!a) return 'Only a passenger found on record who books for a company account can book on account: find them first, or choose another way to pay.';
  const other = 'Choose pay in the car or a payment link.';
  if (a.status === 'closed') return `${a.name}'s account is closed. ${other}`;
  if (a.status === 'suspended') return `${a.name}'s account is on hold${a.reason ? `: ${a.reason}` : ''}. ${other}`;
  return null;
}

/** A price set by hand, per vehicle, as the form types it. */
export interface ManualPrice { amount: string; reason: string }

/**
 * POST /operator/phone-bookings: the website's booking request (its payment method is the office's choice below),
 * the passenger chosen from the record (an account: the booking is theirs), how it is paid, and a price set by hand.
 */
export const PhoneBookingBody = type({
  booking: BookingRequest,
  // A passenger's id as the database keeps it (a whole number within its integer): anything else is refused here.
  passenger_id: optional(nullable(size(integer(), 1, 2_147_483_647))),
  payment: enums(PHONE_PAYMENTS),
  price: optional(nullable(object({ amount: string(), reason: string() }))),
});
export type PhoneBookingBody = Infer<typeof PhoneBookingBody>;

export const MANUAL_PRICE_MAX_PENCE = 5_000_00;
export const REASON_MIN = 3;
export const REASON_MAX = 300;

/** What is wrong with a price set by hand, by field; empty when it can be booked. */
export function manualPriceErrors(p: ManualPrice): Partial<Record<keyof ManualPrice, string>> {
  const errors: Partial<Record<keyof ManualPrice, string>> = {};
  const amount = p.amount.trim().replace(/^£/, '');
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(amount) || poundsToPence(amount) <= 0) errors.amount = 'Enter the price in pounds, e.g. 85 or 85.50.';
  else if (poundsToPence(amount) > MANUAL_PRICE_MAX_PENCE) errors.amount = `A price set by hand is at most £${MANUAL_PRICE_MAX_PENCE / 100} a vehicle.`;
  const reason = p.reason.trim();
  if (reason.length < REASON_MIN) errors.reason = 'Give the reason for the price: it is kept with the booking and audited.';
  else if (reason.length > REASON_MAX) errors.reason = `Keep the reason to ${REASON_MAX} characters.`;
  return errors;
}

/** The price set by hand in pence, once manualPriceErrors has nothing to say. */
export const manualPricePence = (p: ManualPrice): number => poundsToPence(p.amount.trim().replace(/^£/, ''));

export const PICKUP_PASSED = 'The pickup time has passed: choose a later time.';

/** How long a payment link works by default (the PAYMENT_LINK_HOURS setting), and how soon before the pickup it stops. */
export const PAYMENT_LINK_HOURS = 24;
export const LINK_CLOSES_BEFORE_PICKUP_MINUTES = 30;
/** A link that would work for less than this is not sent: the passenger pays in the car. */
export const LINK_SHORTEST_MINUTES = 15;
export const LINK_TOO_LATE = 'The pickup is too soon for a payment link. Choose pay in the car, or a later pickup.';

/** When a payment link sent now stops working: after its hours, and never later than shortly before the pickup; null: too late for one. */
export function linkExpiry(now: Date, pickupAt: Date, hours: number): Date | null {
  const closes = Math.min(now.getTime() + hours * 3_600_000, pickupAt.getTime() - LINK_CLOSES_BEFORE_PICKUP_MINUTES * 60_000);
  return closes - now.getTime() < LINK_SHORTEST_MINUTES * 60_000 ? null : new Date(closes);
}

/** What a payment link's page shows. */
export type LinkState = 'awaiting' | 'paid' | 'expired' | 'cancelled';

/** Where a link stands: paid once its booking is; else cancelled, or expired once its time has passed. */
export function linkState(b: { status: string; paid: boolean }, expiresAt: Date, now: Date): LinkState {
  if (b.paid) return 'paid';
  if (b.status === 'cancelled') return 'cancelled';
  return b.status !== 'pending' || now.getTime() >= expiresAt.getTime() ? 'expired' : 'awaiting';
}
