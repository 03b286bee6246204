// Card bookings, exactly once (ARCHITECTURE 'Money, time and identity'):
// 1. create-payment-intent writes the booking as 'pending' (keyed by the
//    wizard's Idempotency-Key, priced by the server, the amount checked), then
//    makes its one payment intent (Stripe's own idempotency key is derived from
//    the booking, so retries and double clicks find the same intent);
// 2. confirm-payment-intent confirms it (again after 3-D Secure);
// 3. the booking is completed by whichever comes first: the browser's POST
//    /booking, the provider's webhook, or the check at start-up, with one
//    `UPDATE ... WHERE status = 'pending'`; the held confirmation e-mail is
//    released in the same transaction.
import type Stripe from 'stripe';
import type { Db, Queryable } from '../db/index';
import type { BookingResult } from '../../domain/schemas';
import type { BookingRequest } from '../../domain/requestSchemas';
import type { CreatePaymentIntentRequest } from '../../domain/cardSchemas';
import { formatExactPrice, penceToPounds } from '../../domain/money';
import { cardTriesUsedUp } from '../../domain/messages';
import { showsCard, showsPayInCar, type Settings } from '../../domain/settings';
import { returnAllowance, takeAllowance, usedUp, type LimitName, type Use } from '../limits';
import { DomainError } from '../errors';
import { releaseHeldEmails } from '../mail/queue';
import {
  KEY_REUSED, authenticateReplay, prepareBooking, requestHash, writeBooking, type BookingDeps,
} from './bookings';
import { KeyAlreadyUsed, loadBooking } from './queries';
import { bookingOfAnyIntent, bookingOfIntent, cardKeyUse, keepIntent, markPaid, type KeyedBooking } from './cardQueries';
import { stripeSdk, type CardProvider } from '../payments/provider';
import { mintKey } from './manageKeys';

export interface CardDeps extends BookingDeps { cards: CardProvider }

export const CARD_NOT_OFFERED = 'Paying by card is not offered at the moment. Please choose another way to pay.';
export const KEY_REQUIRED = 'A card payment needs the Idempotency-Key header, the same on every call for one booking.';
export const PAYMENT_NOT_COMPLETE = 'This payment has not been completed, so the booking was not made. Please pay again.';
export const PAYMENT_OF_ANOTHER_BOOKING = 'This payment does not belong to this booking.';
export const PROVIDER_UNAVAILABLE = 'The card payment service did not answer. No payment was taken. Please try again in a moment.';

/** The booking part of a card request, as it is hashed with its key: the payment ids are left out (they come later). */
const cardRequest = (req: BookingRequest): BookingRequest => {
  const { paymentMethodId: _pm, amount: _amount, ...booking } = req as CreatePaymentIntentRequest;
  return { ...booking, payment_method: 'card', stripe_session_id: null, paymentId: null };
};


/** The booking an Idempotency-Key was used for (422 when the key came with another request), or null. */
async function bookingOfKey(db: Queryable, key: string, hash: string): Promise<KeyedBooking | null> {
  const row = await cardKeyUse(db, key);
  if (!row) return null;
  if (row.request_hash !== hash || row.payment_method !== 'card') throw new DomainError('invalid', KEY_REUSED, 'Idempotency-Key');
  return row.id === null ? null : row;
}

/** Errors of the provider as the API answers them: a 422 naming the field it blamed, a 503 when it could not be reached. */
async function provider<T>(call: () => Promise<T>, field?: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const Stripe = await stripeSdk();
    if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeCardError) {
      throw new DomainError('invalid', err.message, field ?? err.param);
    }
    if (err instanceof Stripe.errors.StripeError) {
      console.error(`Card provider: ${err.type}: ${err.message}`);
      throw new DomainError('busy', PROVIDER_UNAVAILABLE, undefined, 5);
    }
    throw err;
  }
}

function checkAmount(amount: number, total: number): void {
  if (amount !== total) {
    throw new DomainError('invalid',
      `The amount to pay (${formatExactPrice(penceToPounds(amount))}) is not the price of this booking (${formatExactPrice(penceToPounds(total))}). Please go back to the vehicles to see the current price.`,
      'amount');
  }
}

/** Issue 24: declined cards are limited per client address and per booking; the refusal offers the other ways to book. */
const cardAttempts = (deps: CardDeps, bookingId: number): Use[] => [
  { limit: 'cardFailures', key: deps.client }, { limit: 'cardFailuresPerBooking', key: String(bookingId) },
];

export function cardRefusal(settings: Settings) {
  return (limit: LimitName) => cardTriesUsedUp(limit === 'cardFailuresPerBooking', showsPayInCar(settings), settings.Company_Contact_Info ?? '');
}

/** Once the tries are used up, no new booking or card is taken for them either (the confirm call counts them). */
async function refuseUsedUpCardAttempts(deps: CardDeps, bookingId: number | null): Promise<void> {
  const uses = bookingId === null ? [{ limit: 'cardFailures', key: deps.client } as const] : cardAttempts(deps, bookingId);
  for (const use of uses) {
    if (await usedUp(deps.db, deps.limits, use)) {
      const limit = deps.limits[use.limit];
      throw new DomainError('tooMany', cardRefusal(deps.ctx.settings)(use.limit), limit.field, limit.windowMinutes * 60);
    }
  }
}

/** POST create-payment-intent: the pending booking and its one payment intent, with this card on it. */
export async function startCardPayment(deps: CardDeps, body: CreatePaymentIntentRequest, key: string | null): Promise<{ paymentIntentId: string }> {
  if (!key) throw new DomainError('invalid', KEY_REQUIRED, 'Idempotency-Key');
  if (!showsCard(deps.ctx.settings)) throw new DomainError('invalid', CARD_NOT_OFFERED, 'payment_method');
  const req = cardRequest(body);
  const hash = requestHash(req, deps.secret);
  let booking = await bookingOfKey(deps.db, key, hash);
  if (booking) await authenticateReplay(deps, req, { passengerId: booking.passenger_id, hasAccount: booking.has_account });
  await refuseUsedUpCardAttempts(deps, booking?.id ?? null);
  if (!booking) {
    // The amount is checked as soon as the price is known, before the passenger is: a wrong one costs no hash.
    const prepared = await prepareBooking(deps, req, (total) => checkAmount(body.amount, total));
    try {
      await deps.db.transaction((tx) => writeBooking(tx, deps, prepared, {
        idempotencyKey: key, hash, status: 'pending', paymentMethod: 'card', paymentStatus: 'awaiting_payment',
        bookedVia: deps.signedIn === null ? 'web' : 'account',
      }));
    } catch (err) {
      // Not written by this call (a failure, or a concurrent call with this key wrote it first): it spent no allowance
      // but a hash it made (issue 39).
      await returnAllowance(deps.db, prepared.taken);
      if (!(err instanceof KeyAlreadyUsed)) throw err;
    }
    booking = await bookingOfKey(deps.db, key, hash);
    if (!booking) throw new DomainError('conflict', 'Another request with this Idempotency-Key is not finished. Please try again in a moment.', 'Idempotency-Key');
  }
  checkAmount(body.amount, booking.total);
  // Paid already (a reload after the bank approved): the same intent, which the confirm call reports as succeeded.
  if (booking.status !== 'pending' && booking.intent) return { paymentIntentId: booking.intent };
  const stripe = await deps.cards.stripe();
  let intent = await intentOf(deps, booking);
  if (intent.payment_method !== body.paymentMethodId && ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
    intent = await provider(() => stripe.paymentIntents.update(intent.id, { payment_method: body.paymentMethodId }), 'paymentMethodId');
  }
  return { paymentIntentId: intent.id };
}

/**
 * Issue 43: the card of a payment link (./paymentLinks.ts) on its booking's one intent, as the card page's call puts a
 * card on a new booking's: the same tries limits, the same intent however often the page is reloaded or clicked.
 */
export async function startLinkPayment(deps: CardDeps, booking: Pick<KeyedBooking, 'id' | 'number' | 'total' | 'intent'>, paymentMethodId: string): Promise<{ paymentIntentId: string }> {
  await refuseUsedUpCardAttempts(deps, booking.id);
  const stripe = await deps.cards.stripe();
  let intent = await intentOf(deps, booking);
  if (intent.payment_method !== paymentMethodId && ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
    intent = await provider(() => stripe.paymentIntents.update(intent.id, { payment_method: paymentMethodId }), 'paymentMethodId');
  }
  return { paymentIntentId: intent.id };
}

/**
 * Issue 43: a payment link's booking, once its intent succeeded (the page says so after the bank's check): completed if
 * no one did yet (the webhook, the start-up check), as a card booking is.
 */
export async function finishLinkPayment(deps: CardDeps, booking: Pick<KeyedBooking, 'id' | 'intent'>, intentId: string): Promise<Completion> {
  if (booking.intent !== intentId) throw new DomainError('invalid', PAYMENT_OF_ANOTHER_BOOKING, 'stripe_session_id');
  const pi = await provider(async () => (await deps.cards.stripe()).paymentIntents.retrieve(intentId), 'stripe_session_id');
  if (pi.status !== 'succeeded') throw new DomainError('invalid', 'This payment has not been completed. Please pay again.', 'paymentId');
  const outcome = await deps.db.transaction((tx) => completeCardBooking(tx, pi));
  if (outcome === 'mismatch') throw new DomainError('invalid', PAYMENT_OF_ANOTHER_BOOKING, 'paymentId');
  return outcome;
}

export const LINK_EXPIRED = 'This payment link has expired. Please call us to book again.';

/** The booking's one intent: made once (Stripe's idempotency key comes from the booking), its id kept on the booking. */
async function intentOf(deps: CardDeps, booking: Pick<KeyedBooking, 'id' | 'number' | 'total' | 'intent'>): Promise<Stripe.PaymentIntent> {
  const stripe = await deps.cards.stripe();
  if (booking.intent) return provider(() => stripe.paymentIntents.retrieve(booking.intent!));
  const intent = await provider(() => stripe.paymentIntents.create({
    amount: booking.total, currency: 'gbp', confirmation_method: 'manual', allowed_payment_method_types: ['card'],
    description: `Booking ${booking.number}`, metadata: { booking_id: String(booking.id), booking_number: booking.number },
  }, { idempotencyKey: `intent-${booking.number}` }));
  const kept = await keepIntent(deps.db, booking.id, intent.id);
  return kept === intent.id ? intent : provider(() => stripe.paymentIntents.retrieve(kept));
}

export interface ConfirmResult {
  status: 'succeeded' | 'requires_action' | 'failed' | 'processing';
  sessionId: string | null; paymentId: string | null; clientSecret?: string | null; error?: string | null;
}

const chargeOf = (pi: Stripe.PaymentIntent) => (typeof pi.latest_charge === 'string' ? pi.latest_charge : pi.latest_charge?.id ?? null);

/**
 * POST confirm-payment-intent: confirms an intent of one of our bookings (unless it already succeeded) and says where
 * it stands. Only a try of the card counts against the card allowances: asking where a payment stands never does.
 */
export async function confirmCardPayment(deps: CardDeps, intentId: string): Promise<ConfirmResult> {
  const booking = await bookingOfAnyIntent(deps.db, intentId);
  if (!booking) throw new DomainError('notFound', 'There is no payment with this id for a booking here.', 'paymentIntentId');
  const stripe = await deps.cards.stripe();
  let pi: Stripe.PaymentIntent = await provider(() => stripe.paymentIntents.retrieve(intentId), 'paymentIntentId');
  let error: string | null = null;
  // Issue 43: a payment link's card is not taken once the link has expired (its booking expires with it).
  if (pi.status === 'requires_confirmation' && await linkExpired(deps.db, intentId, deps.ctx.now)) throw new DomainError('conflict', LINK_EXPIRED);
  if (pi.status === 'requires_confirmation') {
    // Counted before the card is tried, so concurrent tries cannot pass the limit; given back unless this call's
    // try was declined.
    const taken = await takeAllowance(deps.db, deps.limits, cardAttempts(deps, booking.id), cardRefusal(deps.ctx.settings));
    let declined = false; // Stripe answers a declined confirmation with a card error, never a plain answer
    try {
      pi = await stripe.paymentIntents.confirm(intentId, { use_stripe_sdk: true });
    } catch (err) {
      const Stripe = await stripeSdk();
      if (err instanceof Stripe.errors.StripeCardError) {
        error = err.message;
        declined = true;
        pi = (err.payment_intent as Stripe.PaymentIntent | undefined) ?? await provider(() => stripe.paymentIntents.retrieve(intentId));
      } else if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'payment_intent_unexpected_state') {
        // Confirmed meanwhile by another call (a double click, a retry), which counted its own try: report where
        // it stands now.
        pi = await provider(() => stripe.paymentIntents.retrieve(intentId));
      } else {
        await returnAllowance(deps.db, taken);
        return provider(() => Promise.reject(err));
      }
    }
    if (!declined) await returnAllowance(deps.db, taken);
  }
  const ids = { sessionId: pi.id, paymentId: chargeOf(pi) };
  switch (pi.status) {
    case 'succeeded': return { status: 'succeeded', ...ids };
    case 'requires_action': return { status: 'requires_action', ...ids, clientSecret: pi.client_secret };
    case 'processing': return { status: 'processing', ...ids, error: 'Your bank is still processing this payment. We will e-mail your confirmation as soon as it completes.' };
    default: return { status: 'failed', ...ids, error: error ?? pi.last_payment_error?.message ?? 'The payment was not completed.' };
  }
}

/**
 * Whether the intent is the first payment of a booking taken by phone, still waiting, whose payment link has expired
 * (a later change's difference, paid on the manage page, is not the link's).
 */
async function linkExpired(db: Queryable, intentId: string, now: Date): Promise<boolean> {
  const [row] = await db.query<{ expired: boolean }>(
    `SELECT l.expires_at <= $2::timestamptz AS expired FROM bookings b JOIN payment_links l ON l.booking_id = b.id
      WHERE b.payment_intent_id = $1 AND b.status = 'pending'`, [intentId, now.toISOString()]);
  return row?.expired === true;
}

/** POST /booking with payment_method card: the booking of a succeeded intent, completed if no one did yet. */
export async function finishCardBooking(deps: CardDeps, req: BookingRequest, key: string | null): Promise<BookingResult> {
  if (!key) throw new DomainError('invalid', KEY_REQUIRED, 'Idempotency-Key');
  if (!req.stripe_session_id) throw new DomainError('invalid', 'stripe_session_id: the payment of a card booking is required', 'stripe_session_id');
  if (!req.paymentId) throw new DomainError('invalid', 'paymentId: the payment of a card booking is required', 'paymentId');
  const booking = await bookingOfKey(deps.db, key, requestHash(cardRequest(req), deps.secret));
  if (!booking) throw new DomainError('invalid', 'No card payment was started for this booking. Please pay on the card page.', 'stripe_session_id');
  await authenticateReplay(deps, req, { passengerId: booking.passenger_id, hasAccount: booking.has_account });
  if (booking.intent !== req.stripe_session_id) throw new DomainError('invalid', PAYMENT_OF_ANOTHER_BOOKING, 'stripe_session_id');
  const pi = await provider(async () => (await deps.cards.stripe()).paymentIntents.retrieve(req.stripe_session_id!), 'stripe_session_id');
  if (pi.status !== 'succeeded') throw new DomainError('invalid', PAYMENT_NOT_COMPLETE, 'paymentId');
  if (chargeOf(pi) !== req.paymentId) throw new DomainError('invalid', PAYMENT_OF_ANOTHER_BOOKING, 'paymentId');
  const outcome = await deps.db.transaction((tx) => completeCardBooking(tx, pi));
  if (outcome === 'mismatch') throw new DomainError('invalid', PAYMENT_OF_ANOTHER_BOOKING, 'paymentId');
  // The success page's "Manage your booking" link (issue 27): a key of its own, shown to whoever proved the payment.
  return { ...(await loadBooking(deps.db, booking.id))!, manage_key: await mintKey(deps.db, booking.id) };
}

export type Completion = 'completed' | 'already' | 'unknown' | 'mismatch';

/**
 * Completes the pending booking of a succeeded intent, once: only a 'pending' row changes, so of the browser, the
 * webhook and the start-up check exactly one releases the confirmation e-mail. The intent must be for exactly the
 * booking's amount in GBP and name the booking; anything else is logged and changes nothing.
 */
export async function completeCardBooking(tx: Queryable, pi: Stripe.PaymentIntent): Promise<Completion> {
  if (pi.status !== 'succeeded') return 'unknown';
  const paid = await markPaid(tx, {
    intentId: pi.id, chargeId: chargeOf(pi), amount: pi.amount, currency: pi.currency, bookingId: pi.metadata?.booking_id ?? '',
    received: pi.amount_received, live: pi.livemode === true,
  });
  if (paid !== null) {
    await releaseHeldEmails(tx, paid);
    return 'completed';
  }
  const b = await bookingOfIntent(tx, pi.id);
  if (!b) return 'unknown';
  if (b.status === 'confirmed') return 'already';
  console.error(`Payment ${pi.id} succeeded but does not match booking ${b.id} (amount, currency or booking id): left for a person to check.`);
  return 'mismatch';
}
