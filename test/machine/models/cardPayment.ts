// The model of machines/cardPayment.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../cardPayment.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { cardPaymentMachine, type AuthenticationResult, type CardPaymentEvent, type CardPaymentInput, type PaymentMethodResult } from '../../../machines/cardPayment';
import type { CreateBookingInput } from '../../../src/domain/bookingRequest';
import {
  CARD_SERVICE_UNAVAILABLE, INTENT_FAILED, PAID_NOT_CONFIRMED, PAYMENT_FAILED, PAYMENT_SUCCESSFUL, cardTriesUsedUp, isCardTriesUsedUp,
} from '../../../src/domain/messages';
import type { BookingResponse } from '../../../src/domain/schemas';
import type { ConfirmPaymentIntentResponse } from '../../../src/domain/cardSchemas';
import { answers, timePasses, type Model, type ModelEvent, type ServiceAnswer, type Trail } from '../modelPaths';
import { bookingRefused, cardBooking, cardBookingOk, cardKey, registration } from '../fixtures';

export type Snapshot = SnapshotFrom<typeof cardPaymentMachine>;
export type State = Extract<Snapshot['value'], string>;

export const key = answers(cardPaymentMachine, 'loadCardKey');
export const paymentMethod = answers(cardPaymentMachine, 'createPaymentMethod');
export const intent = answers(cardPaymentMachine, 'createIntent');
export const authenticate = answers(cardPaymentMachine, 'authenticate');
export const complete = answers(cardPaymentMachine, 'completeBooking');
// confirmIntent is invoked under one id in two states (resuming a reload, and confirming): `answers` wants one
// state, so its answers are written out. The test runs answer a service by its invoke id, which is its name here.
export const confirm = {
  done: (output?: unknown): ServiceAnswer => ({ type: 'xstate.done.actor.confirmIntent', output }),
  fails: (error: unknown): ServiceAnswer => ({ type: 'xstate.error.actor.confirmIntent', error }),
};
export const SERVICES = ['loadCardKey', 'createPaymentMethod', 'createIntent', 'confirmIntent', 'authenticate', 'completeBooking'];
export const successDialogCloses = timePasses(cardPaymentMachine, 'succeeded');

/**
 * The test names tell a service's answers apart by their `message` (./modelPaths describeEvent): the answers whose
 * schema has none get one here, as a label only (the machine never reads it).
 */
export const labelled = <T extends object>(label: string, output: T): T => ({ ...output, message: label });

// The provider's and the bank's own words, each different so the facts can tell which one is shown.
export const INVALID_NUMBER = 'Your card number is invalid.';
export const DECLINED = 'Your card was declined.';
export const PROCESSING = 'Your bank is still processing this payment. We will e-mail your confirmation as soon as it completes.';
export const NOT_AUTHENTICATED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

/** Issue 24: the server's refusal once the booking's card tries are used up, with the demo operator's phone. */
export const TRIES_USED_UP = cardTriesUsedUp(true, true, '+44 20 7946 0321');

export const INTENT_ID = 'pi_3TestIntent';
export const EARLIER_INTENT_ID = 'pi_2EarlierIntent';
export const pmOk = labelled('pm_card_visa', { paymentMethodId: 'pm_1Visa4242' } satisfies PaymentMethodResult);
export const pmFieldError = labelled('field error: expiry', { fieldError: { field: 'expiry' as const, message: "Your card's expiration year is in the past." } } satisfies PaymentMethodResult);
export const pmError = labelled(`error: ${INVALID_NUMBER}`, { error: INVALID_NUMBER } satisfies PaymentMethodResult);
export const confirmed = (status: ConfirmPaymentIntentResponse['status'], more: Partial<ConfirmPaymentIntentResponse>, label: string = status) =>
  labelled(label, { success: status !== 'failed', status, sessionId: INTENT_ID, paymentId: null, ...more } as ConfirmPaymentIntentResponse);
export const succeeded = confirmed('succeeded', { paymentId: 'ch_3TestCharge' });
export const needsAction = confirmed('requires_action', { clientSecret: `${INTENT_ID}_secret_3ds` });
// The server answers 'failed' for an intent that needs a payment method again (a decline), with the provider's words.
export const declined = confirmed('failed', { paymentId: 'ch_3Declined', error: DECLINED }, `failed: ${DECLINED}`);
export const failedSilently = confirmed('failed', { error: null }, 'failed, no message');
export const processing = confirmed('processing', { error: PROCESSING });
export const authOk: AuthenticationResult = labelled('authenticated', { ok: true as const });
export const authRefused: AuthenticationResult = labelled(`not authenticated: ${NOT_AUTHENTICATED}`, { ok: false as const, error: NOT_AUTHENTICATED });
export const bookedNot: BookingResponse = { ...bookingRefused, message: 'The booking service is restarting. Please try again.' };

/** Issue 44: the payment method a wallet (the test gateway's stand-in, Apple Pay or Google Pay) gave, and its failure. */
export const WALLET_PM = 'pm_wallet_1';
export const WALLET_FAILED = 'Your wallet could not pay. Please try again, or pay by card.';

export const EVENTS: ModelEvent<CardPaymentEvent>[] = [
  key.done(cardKey),
  key.fails(new Error('Network down')),
  { type: 'card.retry' },
  { type: 'card.submitted' },
  // Issue 44: a wallet gives a payment method, or cannot.
  { type: 'card.walletPaid', paymentMethodId: WALLET_PM },
  { type: 'card.walletFailed', error: WALLET_FAILED },
  { type: 'error.dismissed' },
  paymentMethod.done(pmOk),
  paymentMethod.done(pmFieldError),
  paymentMethod.done(pmError),
  paymentMethod.fails(new Error('Stripe.js failed to load')),
  intent.done({ paymentIntentId: INTENT_ID }),
  intent.fails(new Error('The amount does not match the price of this booking.')),
  intent.fails(new Error(TRIES_USED_UP)),
  confirm.done(succeeded),
  confirm.done(needsAction),
  confirm.done(declined),
  confirm.done(failedSilently),
  confirm.done(processing),
  confirm.fails(new Error('Network down')),
  authenticate.done(authOk),
  authenticate.done(authRefused),
  authenticate.fails(new Error('The authentication window was closed')),
  complete.done(cardBookingOk),
  complete.done(bookedNot),
  complete.fails(new Error('Network down')),
  successDialogCloses,
];

export const INPUTS: Record<string, CardPaymentInput> = {
  'a first visit to the card page': { booking: cardBooking, amountPence: 9352, intentId: null },
  'a reload after an intent was made': { booking: cardBooking, amountPence: 9352, intentId: EARLIER_INTENT_ID },
};

// --- SPEC facts, from the events of the path -------------------------------------------------------------------

export type Answer = { type: string; output?: unknown; error?: unknown };
export const answered = (e: ModelEvent | undefined, service: { done: (o?: unknown) => ServiceAnswer }) => e?.type === service.done().type;
export const failed = (e: ModelEvent | undefined, service: { fails: (x: unknown) => ServiceAnswer }) => e?.type === service.fails(null).type;
export const outputOf = <T>(e: ModelEvent) => (e as Answer).output as T;
export const messageOf = (e: ModelEvent) => (((e as Answer).error) as Error).message;
/** The output of the service's last answer on the way, if it was a done one. */
export const lastOutput = <T>(trail: Trail<Snapshot>, service: { done: (o?: unknown) => ServiceAnswer; fails: (x: unknown) => ServiceAnswer }) => {
  const e = trail.map((s) => s.event).filter((x) => answered(x, service) || failed(x, service)).at(-1);
  return e && answered(e, service) ? outputOf<T>(e) : undefined;
};

/** SPEC 4 and 9: states waiting for an answer (or showing 'Payment successful!') hold the visitor's place. */
export const BUSY: State[] = ['resuming', 'creatingPaymentMethod', 'creatingIntent', 'confirming', 'authenticating', 'completing', 'succeeded'];
export const NOT_BUSY: State[] = ['entering', 'failed', 'unavailable', 'paidNotConfirmed'];

/** The dialog the card page shows (src/web/views/card/CardView.tsx reads it from the state): SPEC 4 and 8. */
export function dialogOf(s: Snapshot): { title: string; text: string | null } | null {
  if (s.matches('succeeded')) return { title: PAYMENT_SUCCESSFUL, text: null };
  if (s.matches('failed')) return { title: PAYMENT_FAILED, text: s.context.error };
  return null;
}

/** What the child of a state was started with (a service's input). */
export const inputOf = (s: Snapshot, id: string) =>
  (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>)[id]?.getSnapshot().input;

export function spec(s: Snapshot, trail: Trail<Snapshot>, input: CardPaymentInput) {
  const c = s.context;
  const last = trail.at(-1);
  const e = last?.event;
  const before = (trail.at(-2)?.state ?? null) as Snapshot | null;
  const value = s.value as State;

  // Nothing else entered is ever lost: the booking (with the wizard's Idempotency-Key) and the amount stay as given.
  expect(c.booking).toEqual(input.booking);
  expect(c.amountPence).toBe(input.amountPence);
  // 'busy' on the waiting states and 'Payment successful!'; never where the visitor acts.
  if (BUSY.includes(value)) expect(s.hasTag('busy'), value).toBe(true);
  if (NOT_BUSY.includes(value)) expect(s.hasTag('busy'), value).toBe(false);

  // SPEC 4 step 1: a reload of the page with an intent asks about that intent before anything else.
  if (s.matches('resuming')) {
    expect(input.intentId).not.toBeNull();
    expect(inputOf(s, 'confirmIntent')).toEqual({ intentId: input.intentId });
  }
  // Step 2: the card's holder as the provider keeps it.
  if (s.matches('creatingPaymentMethod')) {
    expect(inputOf(s, 'createPaymentMethod')).toEqual({ name: `${registration.firstName} ${registration.surname}`, email: registration.email });
  }
  // Step 3: only with a payment method; the booking with its Idempotency-Key (the server keeps one intent per
  // booking) and the amount in pence (SPEC 9: x 100).
  if (s.matches('creatingIntent')) {
    // The card form's payment method, or (issue 44) the wallet's, whichever came last.
    const wallet = [...trail].reverse().find((t) => t.event.type === 'card.walletPaid' || answered(t.event as Answer, paymentMethod));
    const pm = wallet?.event.type === 'card.walletPaid'
      ? { paymentMethodId: (wallet.event as unknown as { paymentMethodId: string }).paymentMethodId }
      : lastOutput<{ paymentMethodId?: string }>(trail, paymentMethod);
    expect(pm?.paymentMethodId).toBeDefined();
    expect(inputOf(s, 'createIntent')).toEqual({ booking: input.booking, paymentMethodId: pm!.paymentMethodId, amountPence: input.amountPence });
    expect((inputOf(s, 'createIntent') as { booking: CreateBookingInput }).booking.idempotencyKey).toBe(cardBooking.idempotencyKey);
  }
  // Step 4: the intent just made (or, after the bank's check, the same one) is confirmed.
  if (s.matches('confirming')) {
    expect(answered(e, intent) || (answered(e, authenticate) && outputOf<AuthenticationResult>(e!).ok)).toBe(true);
    const made = lastOutput<{ paymentIntentId: string }>(trail, intent);
    expect(inputOf(s, 'confirmIntent')).toEqual({ intentId: made?.paymentIntentId ?? input.intentId });
  }
  // 3-D Secure: the bank checks the cardholder with the client secret of the intent that asked for it.
  if (s.matches('authenticating')) {
    const asked = lastOutput<ConfirmPaymentIntentResponse>(trail, confirm);
    expect(asked?.status).toBe('requires_action');
    expect(inputOf(s, 'authenticate')).toEqual({ clientSecret: asked!.clientSecret });
  }
  // Step 5: only once the payment succeeded, with the session and payment ids that confirm returned.
  if (s.matches('completing')) {
    const paid = lastOutput<ConfirmPaymentIntentResponse>(trail, confirm);
    expect(paid?.status).toBe('succeeded');
    expect(inputOf(s, 'completeBooking')).toEqual({
      ...input.booking, paymentMethod: 'card', stripeSessionId: paid!.sessionId, paymentId: paid!.paymentId,
    });
  }
  // A payment the bank approved is never asked for again, and never reported as failed.
  if (trail.some((step) => answered(step.event, confirm) && outputOf<ConfirmPaymentIntentResponse>(step.event).status === 'succeeded')) {
    expect(['completing', 'paidNotConfirmed', 'succeeded', 'done']).toContain(value);
  }

  // SPEC 4 and 8: what each answer shows.
  if (answered(e, key)) {
    expect(value).toBe(input.intentId ? 'resuming' : 'entering');
    expect(c.key).toEqual(outputOf(e!));
  }
  if (failed(e, key)) expect([value, c.error]).toEqual(['unavailable', CARD_SERVICE_UNAVAILABLE]);
  if (e?.type === 'card.retry') {
    expect(value).toBe(before?.matches('paidNotConfirmed') ? 'completing' : 'key');
    expect(c.error).toBeNull();
  }
  if (e?.type === 'card.submitted' || e?.type === 'error.dismissed') expect([c.error, c.fieldError]).toEqual([null, null]);
  if (e?.type === 'error.dismissed') expect(value).toBe('entering');
  // Issue 44: a wallet's payment method goes on as the card's does, to the intent; its failure shows the dialog.
  if (e?.type === 'card.walletPaid') expect([value, c.paymentMethodId, c.error]).toEqual(['creatingIntent', WALLET_PM, null]);
  if (e?.type === 'card.walletFailed') expect([value, c.error, c.fieldError]).toEqual(['failed', WALLET_FAILED, null]);
  if (answered(e, paymentMethod)) {
    const pm = outputOf<Record<string, unknown>>(e!);
    // An inline error under the field the provider refused; no dialog.
    if ('fieldError' in pm) expect([value, c.fieldError, c.error]).toEqual(['entering', pm.fieldError, null]);
    // The provider's message in the 'Payment failed' dialog.
    if ('error' in pm) expect([value, c.error]).toEqual(['failed', pm.error]);
    if ('paymentMethodId' in pm) expect(value).toBe('creatingIntent');
  }
  if (failed(e, paymentMethod)) expect([value, c.error]).toEqual(['failed', messageOf(e!)]);
  // SPEC 8: an intent that cannot be created gives 'Payment failed. Please try again.', whatever the cause, but for
  // card tries used up (issue 24): then the server's words, which offer Pay in Car and the phone.
  if (failed(e, intent)) expect([value, c.error]).toEqual(['failed', isCardTriesUsedUp(messageOf(e!)) ? messageOf(e!) : INTENT_FAILED]);
  if (answered(e, confirm)) {
    const r = outputOf<ConfirmPaymentIntentResponse>(e!);
    const resumed = before?.matches('resuming') ?? false;
    if (r.status === 'succeeded') expect(value).toBe('completing');
    else if (r.status === 'requires_action') expect(value).toBe('authenticating');
    // Not paid on a reload: the card is asked for again, without a dialog.
    else if (resumed) expect([value, c.error]).toEqual(['entering', null]);
    // SPEC 8: confirmation failure gives 'Payment failed' with the provider's message.
    else expect([value, c.error]).toEqual(['failed', r.error ?? INTENT_FAILED]);
  }
  if (failed(e, confirm)) {
    if (before?.matches('resuming')) expect([value, c.error]).toEqual(['entering', null]);
    else expect([value, c.error]).toEqual(['failed', messageOf(e!)]);
  }
  if (answered(e, authenticate)) {
    const r = outputOf<AuthenticationResult>(e!);
    // The bank's own message when it refuses.
    expect([value, c.error]).toEqual(r.ok ? ['confirming', null] : ['failed', r.error]);
  }
  if (failed(e, authenticate)) expect([value, c.error]).toEqual(['failed', messageOf(e!)]);
  if (answered(e, complete)) {
    const r = outputOf<BookingResponse>(e!);
    // The money was taken: the visitor is told so, never 'Payment failed'.
    expect([value, c.error]).toEqual(r.success && r.data ? ['succeeded', null] : ['paidNotConfirmed', `${PAID_NOT_CONFIRMED} (${r.message})`]);
  }
  if (failed(e, complete)) expect([value, c.error]).toEqual(['paidNotConfirmed', `${PAID_NOT_CONFIRMED} (${messageOf(e!)})`]);
  if (s.matches('unavailable')) expect(c.error).toBe(CARD_SERVICE_UNAVAILABLE);
  if (s.matches('paidNotConfirmed')) expect(c.error?.startsWith(PAID_NOT_CONFIRMED)).toBe(true);
  // The field error stays under its input until the card is submitted again.
  if (c.fieldError) expect([value, c.fieldError]).toEqual(['entering', pmFieldError.fieldError]);

  // SPEC 4: 'Payment successful!' with the booking, then (1.5 s later, see below) the wizard gets the booking.
  expect(dialogOf(s)).toEqual(
    s.matches('succeeded') ? { title: PAYMENT_SUCCESSFUL, text: null }
      : s.matches('failed') ? { title: PAYMENT_FAILED, text: c.error } : null,
  );
  if (s.matches('succeeded')) expect(c.confirmed).toEqual(cardBookingOk.data);
  if (s.status === 'done') {
    expect([e?.type, before?.value ?? null]).toEqual([successDialogCloses.type, 'succeeded']);
    expect(s.output).toEqual({ booking: cardBookingOk.data });
  } else {
    expect(s.value).not.toBe('done');
  }

  // What the wizard is told: the key (it goes in the page's URL), the intent (kept for a reload), the booking.
  if (last) {
    const told = answered(e, key) ? [{ type: 'card.keyLoaded', publishableKey: cardKey.publishableKey }]
      : answered(e, intent) ? [{ type: 'card.intentCreated', intentId: outputOf<{ paymentIntentId: string }>(e!).paymentIntentId }]
        : s.status === 'done' ? [{ type: 'xstate.done.actor.cardPayment', actorId: 'cardPayment', output: { booking: cardBookingOk.data } }]
          : [];
    expect(last.effects.toParent).toEqual(told);
  }
}

/** SPEC 4 and 8: the card form's Pay button, 'Try again' on the page (service unavailable, paid but not confirmed), the dialog's close. */
export function offers(s: SnapshotFrom<typeof cardPaymentMachine>): ModelEvent<CardPaymentEvent>[] {
  if (s.matches('entering')) return [{ type: 'card.submitted' }];
  if (s.matches('unavailable') || s.matches('paidNotConfirmed')) return [{ type: 'card.retry' }];
  if (s.matches('failed')) return [{ type: 'error.dismissed' }];
  return [];
}

export const model: Model<typeof cardPaymentMachine> = {
  name: 'card payment machine',
  machine: cardPaymentMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.intentId !== null, s.context.error, s.context.fieldError?.field ?? null]),
  facts: spec,
  factsTitle: "SPEC 4's card payment steps",
  offers,
  services: SERVICES,
  depth: () => Infinity,
};
