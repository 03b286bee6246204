// SPEC 4 'Card payment' with 3-D Secure: the card page's sub-states, invoked by
// the wizard's `card` step (/stripecheckout) with the booking and its amount.
// key -> card entry -> payment method -> intent -> confirm [-> the bank's
// check -> confirm again] -> booking -> 'Payment successful!' (1.5 s) -> done.
// A failure shows 'Payment failed' with the provider's message, and the card
// can be corrected and paid again without re-entering anything else: the
// server keeps one intent per booking. A page reloaded after an intent was made
// asks about that intent first (`resuming`), so a payment the bank approved is
// never asked for again. States waiting for an answer are tagged 'busy'.
// The same sub-states pay a change's difference on a booking's manage page
// (issue 27, ./manage.ts): there the order is the change, and completing it
// applies the change instead of making the booking.
import { assign, enqueueActions, sendParent, setup } from 'xstate';
import type { BookingResponse, BookingResult } from '../src/domain/schemas';
import type { CardKeyResponse, ConfirmPaymentIntentResponse } from '../src/domain/cardSchemas';
import { CARD_SERVICE_UNAVAILABLE, INTENT_FAILED, PAID_NOT_CONFIRMED, isCardTriesUsedUp } from '../src/domain/messages';
import { errorText, failure, output, provided } from './shared';
import {
  payerOf, type AuthenticationResult, type BillingDetails, type CardCompletion, type CardOrder, type CardPaymentContext, type CardPaymentEvent,
  type CardPaymentInput, type CardPaymentOutput, type CardToBooking, type PaymentMethodResult,
} from './cardTypes';

export * from './cardTypes';

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
    createIntent: provided<{ paymentIntentId: string }, { booking: CardOrder; paymentMethodId: string; amountPence: number }>('createIntent'),
    confirmIntent: provided<ConfirmPaymentIntentResponse, { intentId: string }>('confirmIntent'),
    /** The bank's check (Stripe.js handleCardAction). */
    authenticate: provided<AuthenticationResult, { clientSecret: string }>('authenticate'),
    completeBooking: provided<BookingResponse, CardCompletion>('completeBooking'),
  },
  actions: {
    clearMessages: assign({ error: null, fieldError: null }),
    /** The key is kept, and the wizard told (it shows the key in the URL). */
    assignKey: enqueueActions(({ enqueue }, key: CardKeyResponse) => {
      enqueue.assign({ key });
      enqueue.sendParent({ type: 'card.keyLoaded', publishableKey: key.publishableKey } satisfies CardToBooking);
    }),
    assignFailure: assign((_, { error }: { error: unknown }) => ({ error: errorText(error) })),
    assignConfirmation: assign((_, r: ConfirmPaymentIntentResponse) => (
      { sessionId: r.sessionId, paymentId: r.paymentId, clientSecret: r.clientSecret ?? null })),
    /** The provider's form gave a payment method, or refused a field (shown under its input), or failed. */
    assignPaymentMethod: assign((_, r: PaymentMethodResult) => (
      'paymentMethodId' in r ? { paymentMethodId: r.paymentMethodId } : 'fieldError' in r ? { fieldError: r.fieldError } : { error: r.error })),
  },
  guards: {
    hasIntent: ({ context }) => context.intentId !== null,
    succeeded: (_, r: ConfirmPaymentIntentResponse) => r.status === 'succeeded',
    needsAuthentication: (_, r: ConfirmPaymentIntentResponse) => r.status === 'requires_action',
    gotPaymentMethod: (_, r: PaymentMethodResult) => 'paymentMethodId' in r,
    fieldRefused: (_, r: PaymentMethodResult) => 'fieldError' in r,
    authenticated: (_, r: AuthenticationResult) => r.ok,
    /** The server refused because the card tries are used up (issue 24). */
    triesUsedUp: (_, { error }: { error: unknown }) => isCardTriesUsedUp(errorText(error)),
    /** The booking call answered with the booking (a success without it could not show the confirmation). */
    booked: (_, r: BookingResponse) => r.success === true && r.data !== undefined,
  },
  delays: {
    /** SPEC 4: 'Payment successful!' closes itself after 1.5 s. */
    successDialog: 1500,
  },
}).createMachine({
  id: 'cardPayment',
  context: ({ input }) => ({
    ...input, key: null, clientSecret: null, sessionId: null, paymentId: null, paymentMethodId: null, error: null, fieldError: null, confirmed: null,
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
          { guard: 'hasIntent', target: 'resuming', actions: { type: 'assignKey', params: ({ event }) => event.output } },
          { target: 'entering', actions: { type: 'assignKey', params: ({ event }) => event.output } },
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
          { guard: { type: 'succeeded', params: output }, target: 'completing', actions: { type: 'assignConfirmation', params: output } },
          { guard: { type: 'needsAuthentication', params: output }, target: 'authenticating', actions: { type: 'assignConfirmation', params: output } },
          // Not paid (declined before, or never confirmed): the card is asked for again, silently.
          { target: 'entering' },
        ],
        onError: { target: 'entering' },
      },
    },
    // 2. Card entry: the inputs and their inline errors.
    entering: {
      on: {
        'card.submitted': { target: 'creatingPaymentMethod', actions: 'clearMessages' },
        // Issue 44: a wallet's payment method takes the card's own steps from the intent on (one intent, one booking).
        'card.walletPaid': { target: 'creatingIntent', actions: ['clearMessages', assign({ paymentMethodId: ({ event }) => event.paymentMethodId })] },
        'card.walletFailed': { target: 'failed', actions: assign({ error: ({ event }) => event.error, fieldError: null }) },
      },
    },
    creatingPaymentMethod: {
      tags: 'busy',
      invoke: {
        id: 'createPaymentMethod',
        src: 'createPaymentMethod',
        input: ({ context }) => payerOf(context.booking),
        onDone: [
          { guard: { type: 'gotPaymentMethod', params: output }, target: 'creatingIntent', actions: { type: 'assignPaymentMethod', params: output } },
          { guard: { type: 'fieldRefused', params: output }, target: 'entering', actions: { type: 'assignPaymentMethod', params: output } },
          { target: 'failed', actions: { type: 'assignPaymentMethod', params: output } },
        ],
        onError: { target: 'failed', actions: { type: 'assignFailure', params: failure } },
      },
    },
    // 3. The intent (the server writes the booking as pending first, and checks the amount against its own price).
    creatingIntent: {
      tags: 'busy',
      invoke: {
        id: 'createIntent',
        src: 'createIntent',
        input: ({ context }) => ({ booking: context.booking, paymentMethodId: context.paymentMethodId!, amountPence: context.amountPence }),
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
          { guard: { type: 'triesUsedUp', params: failure }, target: 'failed', actions: { type: 'assignFailure', params: failure } },
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
          { guard: { type: 'succeeded', params: output }, target: 'completing', actions: { type: 'assignConfirmation', params: output } },
          { guard: { type: 'needsAuthentication', params: output }, target: 'authenticating', actions: { type: 'assignConfirmation', params: output } },
          { target: 'failed', actions: assign({ error: ({ event }) => event.output.error ?? INTENT_FAILED }) },
        ],
        onError: { target: 'failed', actions: { type: 'assignFailure', params: failure } },
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
          { guard: { type: 'authenticated', params: output }, target: 'confirming' },
          { target: 'failed', actions: assign({ error: ({ event }) => (event.output.ok ? null : event.output.error) }) },
        ],
        onError: { target: 'failed', actions: { type: 'assignFailure', params: failure } },
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
          { guard: { type: 'booked', params: output }, target: 'succeeded', actions: assign({ confirmed: ({ event }) => event.output.data ?? null }) },
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
