// SPEC 4 'Card payment' with 3-D Secure: the card page's sub-states, invoked by
// the wizard's `card` step (/stripecheckout) with the booking and its amount.
// key -> card entry -> payment method -> intent -> confirm [-> the bank's
// check -> confirm again] -> booking -> 'Payment successful!' (1.5 s) -> done.
// A failure shows 'Payment failed' with the provider's message, and the card
// can be corrected and paid again without re-entering anything else: the
// server keeps one intent per booking. A page reloaded after an intent was made
// asks about that intent first (`resuming`), so a payment the bank approved is
// never asked for again. States waiting for an answer are tagged 'busy'.
import { assign, enqueueActions, sendParent, setup } from 'xstate';
import type { BookingResponse, BookingResult } from '../src/domain/schemas';
import type { CardKeyResponse, ConfirmPaymentIntentResponse } from '../src/domain/cardSchemas';
import { CARD_SERVICE_UNAVAILABLE, INTENT_FAILED, PAID_NOT_CONFIRMED, isCardTriesUsedUp } from '../src/domain/messages';
import { errorText, provided } from './shared';
import type { CreateBookingInput } from '../src/domain/bookingRequest';

export interface CardPaymentInput {
  /** The booking as the final call sends it (with the wizard's Idempotency-Key). */
  booking: CreateBookingInput;
  /** What the server will charge, in pence (SPEC 9: the amount is sent x 100). */
  amountPence: number;
  /** The intent made for this booking on an earlier visit to the page (a reload). */
  intentId: string | null;
}
export interface CardPaymentOutput { booking: BookingResult }

export type CardField = 'number' | 'expiry' | 'cvc';
/** What the provider's card form gives: a payment method, or the field it refused (shown under that input). */
export type PaymentMethodResult =
  | { paymentMethodId: string }
  | { fieldError: { field: CardField; message: string } }
  | { error: string };
/** Who pays, as the card provider keeps it with the card. */
export interface BillingDetails { name: string; email: string }
export type AuthenticationResult = { ok: true } | { ok: false; error: string };

export type CardPaymentEvent =
  | { type: 'card.submitted' }
  | { type: 'card.retry' }
  | { type: 'error.dismissed' };

/** What the card page tells the wizard (it keeps the key for the URL and the intent for a reload). */
export type CardToBooking =
  | { type: 'card.keyLoaded'; publishableKey: string }
  | { type: 'card.intentCreated'; intentId: string };

export interface CardPaymentContext extends CardPaymentInput {
  key: CardKeyResponse | null;
  clientSecret: string | null;
  sessionId: string | null;
  paymentId: string | null;
  /** The 'Payment failed' dialog's message (or the page's, when the service is unavailable). */
  error: string | null;
  /** A card input the provider refused, with its message. */
  fieldError: { field: CardField; message: string } | null;
  confirmed: BookingResult | null;
}

type Done<T> = { output: T };
const outputOf = <T>(event: unknown) => (event as Done<T>).output;

export const cardPaymentMachine = setup({
  types: {
    context: {} as CardPaymentContext,
    events: {} as CardPaymentEvent,
    input: {} as CardPaymentInput,
    output: {} as CardPaymentOutput,
  },
  actors: {
    /** GET secret_key, and the provider's Stripe.js loaded for it. */
    loadCardKey: provided<CardKeyResponse>('loadCardKey'),
    /** The card form to a payment method (Stripe.js createPaymentMethod). */
    createPaymentMethod: provided<PaymentMethodResult, BillingDetails>('createPaymentMethod'),
    createIntent: provided<{ paymentIntentId: string }, { booking: CreateBookingInput; paymentMethodId: string; amountPence: number }>('createIntent'),
    confirmIntent: provided<ConfirmPaymentIntentResponse, { intentId: string }>('confirmIntent'),
    /** The bank's check (Stripe.js handleCardAction). */
    authenticate: provided<AuthenticationResult, { clientSecret: string }>('authenticate'),
    completeBooking: provided<BookingResponse, CreateBookingInput>('completeBooking'),
  },
  actions: {
    clearMessages: assign({ error: null, fieldError: null }),
    /** The key is kept, and the wizard told (it shows the key in the URL). */
    assignKey: enqueueActions(({ enqueue, event }) => {
      const key = outputOf<CardKeyResponse>(event);
      enqueue.assign({ key });
      enqueue.sendParent({ type: 'card.keyLoaded', publishableKey: key.publishableKey } satisfies CardToBooking);
    }),
    assignFailure: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    assignConfirmation: assign(({ event }) => {
      const r = outputOf<ConfirmPaymentIntentResponse>(event);
      return { sessionId: r.sessionId, paymentId: r.paymentId, clientSecret: r.clientSecret ?? null };
    }),
  },
  guards: {
    hasIntent: ({ context }) => context.intentId !== null,
    succeeded: ({ event }) => outputOf<ConfirmPaymentIntentResponse>(event).status === 'succeeded',
    needsAuthentication: ({ event }) => outputOf<ConfirmPaymentIntentResponse>(event).status === 'requires_action',
    gotPaymentMethod: ({ event }) => 'paymentMethodId' in outputOf<PaymentMethodResult>(event),
    fieldRefused: ({ event }) => 'fieldError' in outputOf<PaymentMethodResult>(event),
    authenticated: ({ event }) => outputOf<AuthenticationResult>(event).ok,
    /** The server refused because the card tries are used up (issue 24). */
    triesUsedUp: ({ event }) => isCardTriesUsedUp(errorText((event as { error?: unknown }).error)),
    /** The booking call answered with the booking (a success without it could not show the confirmation). */
    booked: ({ event }) => outputOf<BookingResponse>(event).success === true && outputOf<BookingResponse>(event).data !== undefined,
  },
  delays: {
    /** SPEC 4: 'Payment successful!' closes itself after 1.5 s. */
    successDialog: 1500,
  },
}).createMachine({
  id: 'cardPayment',
  context: ({ input }) => ({
    ...input, key: null, clientSecret: null, sessionId: null, paymentId: null, error: null, fieldError: null, confirmed: null,
  }),
  initial: 'key',
  output: ({ context }) => ({ booking: context.confirmed! }),
  states: {
    // 1. The provider's public key (and its Stripe.js).
    key: {
      invoke: {
        id: 'loadCardKey',
        src: 'loadCardKey',
        onDone: [
          { guard: 'hasIntent', target: 'resuming', actions: 'assignKey' },
          { target: 'entering', actions: 'assignKey' },
        ],
        onError: { target: 'unavailable', actions: assign({ error: CARD_SERVICE_UNAVAILABLE }) },
      },
    },
    unavailable: {
      on: { 'card.retry': { target: 'key', actions: 'clearMessages' } },
    },
    // A reload after an intent was made: where does it stand?
    resuming: {
      tags: 'busy',
      invoke: {
        id: 'confirmIntent',
        src: 'confirmIntent',
        input: ({ context }) => ({ intentId: context.intentId! }),
        onDone: [
          { guard: 'succeeded', target: 'completing', actions: 'assignConfirmation' },
          { guard: 'needsAuthentication', target: 'authenticating', actions: 'assignConfirmation' },
          // Not paid (declined before, or never confirmed): the card is asked for again, silently.
          { target: 'entering' },
        ],
        onError: { target: 'entering' },
      },
    },
    // 2. Card entry: the inputs and their inline errors.
    entering: {
      on: { 'card.submitted': { target: 'creatingPaymentMethod', actions: 'clearMessages' } },
    },
    creatingPaymentMethod: {
      tags: 'busy',
      invoke: {
        id: 'createPaymentMethod',
        src: 'createPaymentMethod',
        input: ({ context }) => ({
          name: `${context.booking.registration.firstName} ${context.booking.registration.surname}`.trim(),
          email: context.booking.registration.email,
        }),
        onDone: [
          { guard: 'gotPaymentMethod', target: 'creatingIntent' },
          { guard: 'fieldRefused', target: 'entering', actions: assign({ fieldError: ({ event }) => (event.output as Extract<PaymentMethodResult, { fieldError: unknown }>).fieldError }) },
          { target: 'failed', actions: assign({ error: ({ event }) => (event.output as Extract<PaymentMethodResult, { error: string }>).error }) },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    // 3. The intent (the server writes the booking as pending first, and checks the amount against its own price).
    creatingIntent: {
      tags: 'busy',
      invoke: {
        id: 'createIntent',
        src: 'createIntent',
        input: ({ context, event }) => ({
          booking: context.booking,
          paymentMethodId: (outputOf<PaymentMethodResult>(event) as { paymentMethodId: string }).paymentMethodId,
          amountPence: context.amountPence,
        }),
        onDone: {
          target: 'confirming',
          actions: [
            assign({ intentId: ({ event }) => event.output.paymentIntentId }),
            sendParent(({ event }) => ({ type: 'card.intentCreated', intentId: event.output.paymentIntentId }) satisfies CardToBooking),
          ],
        },
        // SPEC 8: an intent that cannot be created gives 'Payment failed. Please try again.'; issue 24: once the card
        // tries are used up, the server's words, which offer Pay in Car and the phone.
        onError: [
          { guard: 'triesUsedUp', target: 'failed', actions: 'assignFailure' },
          { target: 'failed', actions: assign({ error: INTENT_FAILED }) },
        ],
      },
    },
    // 4. Confirm (the server confirms; again after the bank's check).
    confirming: {
      tags: 'busy',
      invoke: {
        id: 'confirmIntent',
        src: 'confirmIntent',
        input: ({ context }) => ({ intentId: context.intentId! }),
        onDone: [
          { guard: 'succeeded', target: 'completing', actions: 'assignConfirmation' },
          { guard: 'needsAuthentication', target: 'authenticating', actions: 'assignConfirmation' },
          { target: 'failed', actions: assign({ error: ({ event }) => event.output.error ?? INTENT_FAILED }) },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    // 3-D Secure: the bank's challenge, then the server confirms again.
    authenticating: {
      tags: 'busy',
      invoke: {
        id: 'authenticate',
        src: 'authenticate',
        input: ({ context }) => ({ clientSecret: context.clientSecret! }),
        onDone: [
          { guard: 'authenticated', target: 'confirming' },
          { target: 'failed', actions: assign({ error: ({ event }) => (event.output as { error: string }).error }) },
        ],
        onError: { target: 'failed', actions: 'assignFailure' },
      },
    },
    // 5. The booking, with the session and payment ids.
    completing: {
      tags: 'busy',
      invoke: {
        id: 'completeBooking',
        src: 'completeBooking',
        input: ({ context }) => ({ ...context.booking, paymentMethod: 'card' as const, stripeSessionId: context.sessionId, paymentId: context.paymentId }),
        onDone: [
          { guard: 'booked', target: 'succeeded', actions: assign({ confirmed: ({ event }) => event.output.data ?? null }) },
          { target: 'paidNotConfirmed', actions: assign({ error: ({ event }) => `${PAID_NOT_CONFIRMED} (${event.output.message})` }) },
        ],
        onError: { target: 'paidNotConfirmed', actions: assign({ error: ({ event }) => `${PAID_NOT_CONFIRMED} (${errorText(event.error)})` }) },
      },
    },
    // The money was taken and the server completes the booking by itself (webhook, start-up check): never 'Payment failed'.
    paidNotConfirmed: {
      on: { 'card.retry': { target: 'completing', actions: 'clearMessages' } },
    },
    // SPEC 4: 'Payment successful!', closed after 1.5 s.
    succeeded: {
      tags: 'busy',
      after: { successDialog: 'done' },
    },
    done: { type: 'final' },
    // SPEC 8: 'Payment failed' with the provider's message; the card can be corrected and paid again.
    failed: {
      on: { 'error.dismissed': { target: 'entering', actions: 'clearMessages' } },
    },
  },
});
