// A booking the office takes on the telephone (issue 43 §1, src/domain/phoneBookings.ts): priced and written by the
// website's own booking code (bookings/bookings.ts prepareBooking and writeBooking), so the same rules, prices, messages
// and guarantees hold; what differs is said here. The office books any time still to come; a passenger found on
// record books into their account; a price set by hand carries its reason; the allowances against abuse do not count
// the office. Paid in the car, or on the passenger's company account (issue 44: its fields and credit limit as on the
// website), the booking is confirmed at once with the site's usual confirmation and manage link;
// with a payment link it waits, its confirmation held, until the passenger pays (bookings/paymentLinks.ts). The booking
// records that the office took it, by whom, and every choice is audited. An Idempotency-Key makes a retry or a double
// click answer the booking the first made.
import type { AppDeps } from '../deps';
import type { BookingResult } from '../../domain/schemas';
import type { BookingRequest } from '../../domain/requestSchemas';
import type { Staff } from './staff';
import { DomainError } from '../errors';
import { GRACE_PERIOD_MESSAGE } from '../../domain/messages';
import {
  LINK_TOO_LATE, PAYMENT_LINK_HOURS, PICKUP_PASSED, linkExpiry, manualPriceErrors, manualPricePence, officeAccountRefusal,
  type PhoneBookingBody,
} from '../../domain/phoneBookings';
import { accountForBooking, billingOf, holdCredit, type OnAccount } from '../accounts/billing';
import { billingSeenBy } from './passengerSearch';
import { penceToPounds } from '../../domain/money';
import { numberSetting } from '../../domain/settings';
import { quoteContext, type QuoteContext } from '../pricing/quote';
import { prepareBooking, requestHash, writeBooking, type BookingDeps } from '../bookings/bookings';
import { keyUse, loadBooking } from '../bookings/queries';
import { sendPaymentLink } from '../bookings/paymentLinks';
import type { PreparedBooking, WriteOptions } from '../bookings/types';
import { audit } from './desk';

export interface PhoneBookingResult {
  booking: BookingResult;
  /** The payment link (shown once, to read out or send another way), where it was sent and until when; null: paid in the car. */
  link: { url: string; sent_to: string; expires_at: string } | null;
  /** A retry of a booking already taken: its link was sent then, and is not shown again. */
  replayed: boolean;
}

/**
 * The passenger the office chose from the record: an account, whose booking it becomes (a 422 when it is none). A
 * company's staff may choose only an account that has booked their company (the search shows them no other): the
 * booking would show them the account's name and phone.
 */
async function accountOf(deps: AppDeps, staff: Staff, id: number | null | undefined): Promise<number | null> {
  if (id === null || id === undefined) return null;
  const [row] = await deps.db.query<{ id: number }>(
    `SELECT p.id FROM passengers p WHERE p.id = $1 AND p.password_hash IS NOT NULL
        AND ($2::int IS NULL OR EXISTS (SELECT 1 FROM bookings b WHERE b.passenger_id = p.id AND b.company_id = $2))`, [id, staff.company_id]);
  if (!row) throw new DomainError('invalid', 'This passenger has no account on record any more. Enter their details instead.', 'passenger_id');
  return row.id;
}

/**
 * Issue 44 in the office: a booking on the passenger's company account, its fields checked as the website checks them
 * (the messages for the office: the account's name, the console's `payment` field); the credit limit is held as the
 * booking is written.
 */
async function onAccountOf(deps: AppDeps, staff: Staff, ctx: QuoteContext, passengerId: number | null, values: Record<string, unknown> | undefined): Promise<OnAccount> {
  // A company's staff book on an account their company looks after only (the search shows them no other).
  const billing = passengerId === null ? null : await billingSeenBy(deps.db, staff, passengerId);
  if (!billing && passengerId !== null && staff.company_id !== null && await billingOf(deps.db, passengerId)) {
    throw new DomainError('invalid', "Only the office books on this passenger's company account. Choose pay in the car or a payment link.", 'payment');
  }
  const refusal = officeAccountRefusal(billing);
  if (refusal) throw new DomainError('invalid', refusal, 'payment');
  return accountForBooking(deps.db, passengerId, values, ctx.settings, true);
}

/** The price set by hand, in place of the site's: the offer's price per vehicle, with a line that says so (the lines still add up). */
function withPriceSet(p: PreparedBooking, pence: number): PreparedBooking {
  const chosen = p.trip.chosen;
  const change = pence - chosen.unitPence;
  const line = { code: 'office', leg: 'outbound', label: 'Price agreed with the office', amount: penceToPounds(change) };
  const price = penceToPounds(pence);
  return {
    ...p,
    trip: {
      ...p.trip,
      chosen: {
        ...chosen, unitPence: pence, lines: [...chosen.lines, { code: 'office', leg: 'outbound', label: line.label, pence: change }],
        detail: { ...chosen.detail, price, final_price: price, breakdown: { ...chosen.detail.breakdown, final_price: price, lines: [...chosen.detail.breakdown.lines, line] } },
      },
    },
  };
}

/** The website's quote context as the office prices: any time still to come (GRACE_TIME is for online bookings). */
export async function officeQuoteContext(deps: AppDeps): Promise<QuoteContext> {
  const ctx = await quoteContext(deps);
  return { ...ctx, settings: { ...ctx.settings, GRACE_TIME: '0' } };
}

/** A pickup refused for its time is one that has passed, for the office: said so, on the same field. */
export async function asOffice<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof DomainError && err.message === GRACE_PERIOD_MESSAGE) throw new DomainError('invalid', PICKUP_PASSED, err.field);
    throw err;
  }
}

export async function takePhoneBooking(deps: AppDeps, staff: Staff, body: PhoneBookingBody, key: string | null): Promise<PhoneBookingResult> {
  if (staff.company_id !== null && body.booking.selectedVehicleData.company_id !== staff.company_id) {
    throw new DomainError('invalid', `Choose one of ${staff.company_name}'s vehicles: your desk takes bookings for your company only.`, 'selectedVehicleData');
  }
  const price = body.price ?? null;
  if (price) {
    const errors = manualPriceErrors(price);
    const [field, message] = Object.entries(errors)[0] ?? [];
    if (field) throw new DomainError('invalid', message, `price.${field}`);
  }
  const account = await accountOf(deps, staff, body.passenger_id);
  const onAccount = body.payment === 'account';
  const req: BookingRequest = {
    ...body.booking, payment_method: body.payment === 'car' ? 'car' : onAccount ? 'account' : 'card',
    selected_passenger: account === null ? 'guest_login' : 'existing_client', stripe_session_id: null, paymentId: null,
    account_fields: onAccount ? body.booking.account_fields : undefined,
  };
  const ctx = await officeQuoteContext(deps);
  const bd: BookingDeps = {
    db: deps.db, ctx, client: 'office', signedIn: account,
    hashCost: deps.security.passwordHashCost, secret: deps.security.secret, limits: deps.security.limits, siteUrl: deps.siteUrl, byOffice: true,
  };
  // The key stands for the whole request: the trip and passenger, and the office's choices (payment, price, account).
  const hash = key ? requestHash({ ...req, office: { payment: body.payment, price, account } } as BookingRequest, deps.security.secret) : '';
  if (key) {
    const replay = await replayOf(deps, key, hash);
    if (replay) return replay;
  }
  const billed = onAccount ? await onAccountOf(deps, staff, ctx, account, req.account_fields) : null;
  let prepared = await asOffice(prepareBooking(bd, req));
  const sitePence = prepared.trip.chosen.unitPence * req.selectedVehicle;
  if (price) prepared = withPriceSet(prepared, manualPricePence(price));
  const now = deps.now();
  const expiresAt = body.payment === 'link'
    ? linkExpiry(now, prepared.trip.pickupAt, numberSetting(ctx.settings, 'PAYMENT_LINK_HOURS') || PAYMENT_LINK_HOURS) : null;
  if (body.payment === 'link' && !expiresAt) throw new DomainError('invalid', LINK_TOO_LATE, 'payment');
  const options: WriteOptions = {
    idempotencyKey: key, hash,
    ...(body.payment === 'car' ? { status: 'confirmed', paymentMethod: 'car', paymentStatus: 'due_in_car' } as const
      : billed ? { status: 'confirmed', paymentMethod: 'account', paymentStatus: 'on_account', account: billed } as const
        : { status: 'pending', paymentMethod: 'card', paymentStatus: 'awaiting_payment' } as const),
    bookedVia: 'phone', bookedBy: { id: staff.id, name: staff.name },
    priceOverride: price ? { quotedPence: sitePence, reason: price.reason.trim() } : null,
  };
  try {
    return await deps.db.transaction(async (tx) => {
      // On account: the account's row held while its credit limit is checked, as the website's booking does.
      if (billed) await holdCredit(tx, account!, billed.id, prepared.trip.chosen.unitPence * req.selectedVehicle, ctx.settings, true);
      const id = await writeBooking(tx, bd, prepared, options);
      const booking = (await loadBooking(tx, id))!;
      const total = `£${booking.booking.total_booking_amount}`;
      const paid = body.payment === 'car' ? 'to be paid in the car' : billed ? `on account: ${billed.name}` : 'a card payment link sent';
      await audit(tx, staff, 'Booked by telephone', id, `${total}, ${paid}`, null,
        { payment: body.payment, passenger_id: account, ...(billed ? { account_id: billed.id, account_fields: billed.fields } : {}) });
      if (price) {
        await audit(tx, staff, 'Price set by hand', id, `${total} in place of £${penceToPounds(sitePence)}: ${price.reason.trim()}`,
          { total_pence: sitePence }, { total_pence: Math.round(Number(booking.booking.total_booking_amount) * 100), reason: price.reason.trim() });
      }
      if (!expiresAt) return { booking, link: null, replayed: false };
      const link = await sendPaymentLink(tx, { booking, staffId: staff.id, expiresAt, settings: ctx.settings, siteUrl: deps.siteUrl });
      return { booking, link: { url: link.url, sent_to: link.sentTo, expires_at: expiresAt.toISOString() }, replayed: false };
    });
  } catch (err) {
    // The key was taken meanwhile (a double click): that booking is the answer.
    const replay = key ? await replayOf(deps, key, hash) : null;
    if (replay) return replay;
    throw err;
  }
}

/** The booking a key already made, for the same request (422 when the key came with another). */
async function replayOf(deps: AppDeps, key: string, hash: string): Promise<PhoneBookingResult | null> {
  const row = await keyUse(deps.db, key);
  if (!row || row.id === null) return null;
  if (row.request_hash !== hash) {
    throw new DomainError('invalid', 'This booking was already taken with other details. Start a new booking to take another.', 'Idempotency-Key');
  }
  return { booking: (await loadBooking(deps.db, row.id))!, link: null, replayed: true };
}
