// Model-based tests of machines/cardPayment.ts (./modelPaths.ts): SPEC 4 'Card payment' (key, payment method,
// intent, confirm, the bank's check, the booking, 'Payment successful!' for 1.5 s), SPEC 8 'Card errors' and
// SPEC 9 (the amount in pence). The machine runs as the child of a small recording parent, as the wizard's card
// step invokes it: what it tells the wizard (the key, the intent, and at the end the booking) is part of each
// step. The facts below are worked out from the events of the path, not from the machine's own bookkeeping.
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  cardPaymentMachine, type AuthenticationResult, type CardPaymentEvent, type CardPaymentInput, type PaymentMethodResult,
} from '../../machines/cardPayment';
import type { CreateBookingInput } from '../../machines/bookingSetup';
import {
  CARD_SERVICE_UNAVAILABLE, INTENT_FAILED, PAID_NOT_CONFIRMED, PAYMENT_FAILED, PAYMENT_SUCCESSFUL,
} from '../../src/domain/messages';
import type { BookingResponse } from '../../src/domain/schemas';
import type { ConfirmPaymentIntentResponse } from '../../src/domain/cardSchemas';
import {
  answers, run, testModel, timePasses, type Model, type ModelEvent, type ServiceAnswer, type Trail,
} from './modelPaths';
import { bookingRefused, cardBooking, cardBookingOk, cardKey, registration } from './fixtures';

type Snapshot = SnapshotFrom<typeof cardPaymentMachine>;
type State = Extract<Snapshot['value'], string>;

const key = answers(cardPaymentMachine, 'loadCardKey');
const paymentMethod = answers(cardPaymentMachine, 'createPaymentMethod');
const intent = answers(cardPaymentMachine, 'createIntent');
const authenticate = answers(cardPaymentMachine, 'authenticate');
const complete = answers(cardPaymentMachine, 'completeBooking');
// confirmIntent is invoked under one id in two states (resuming a reload, and confirming): `answers` wants one
// state, so its answers are written out. The test runs answer a service by its invoke id, which is its name here.
const confirm = {
  done: (output?: unknown): ServiceAnswer => ({ type: 'xstate.done.actor.confirmIntent', output }),
  fails: (error: unknown): ServiceAnswer => ({ type: 'xstate.error.actor.confirmIntent', error }),
};
const SERVICES = ['loadCardKey', 'createPaymentMethod', 'createIntent', 'confirmIntent', 'authenticate', 'completeBooking'];
const successDialogCloses = timePasses(cardPaymentMachine, 'succeeded');

/**
 * The test names tell a service's answers apart by their `message` (./modelPaths describeEvent): the answers whose
 * schema has none get one here, as a label only (the machine never reads it).
 */
const labelled = <T extends object>(label: string, output: T): T => ({ ...output, message: label });

// The provider's and the bank's own words, each different so the facts can tell which one is shown.
const INVALID_NUMBER = 'Your card number is invalid.';
const DECLINED = 'Your card was declined.';
const PROCESSING = 'Your bank is still processing this payment. We will e-mail your confirmation as soon as it completes.';
const NOT_AUTHENTICATED = 'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const INTENT_ID = 'pi_3TestIntent';
const EARLIER_INTENT_ID = 'pi_2EarlierIntent';
const pmOk = labelled('pm_card_visa', { paymentMethodId: 'pm_1Visa4242' } satisfies PaymentMethodResult);
const pmFieldError = labelled('field error: expiry', { fieldError: { field: 'expiry' as const, message: "Your card's expiration year is in the past." } } satisfies PaymentMethodResult);
const pmError = labelled(`error: ${INVALID_NUMBER}`, { error: INVALID_NUMBER } satisfies PaymentMethodResult);
const confirmed = (status: ConfirmPaymentIntentResponse['status'], more: Partial<ConfirmPaymentIntentResponse>, label: string = status) =>
  labelled(label, { success: status !== 'failed', status, sessionId: INTENT_ID, paymentId: null, ...more } as ConfirmPaymentIntentResponse);
const succeeded = confirmed('succeeded', { paymentId: 'ch_3TestCharge' });
const needsAction = confirmed('requires_action', { clientSecret: `${INTENT_ID}_secret_3ds` });
// The server answers 'failed' for an intent that needs a payment method again (a decline), with the provider's words.
const declined = confirmed('failed', { paymentId: 'ch_3Declined', error: DECLINED }, `failed: ${DECLINED}`);
const failedSilently = confirmed('failed', { error: null }, 'failed, no message');
const processing = confirmed('processing', { error: PROCESSING });
const authOk: AuthenticationResult = labelled('authenticated', { ok: true as const });
const authRefused: AuthenticationResult = labelled(`not authenticated: ${NOT_AUTHENTICATED}`, { ok: false as const, error: NOT_AUTHENTICATED });
const bookedNot: BookingResponse = { ...bookingRefused, message: 'The booking service is restarting. Please try again.' };

const EVENTS: ModelEvent<CardPaymentEvent>[] = [
  key.done(cardKey),
  key.fails(new Error('Network down')),
  { type: 'card.retry' },
  { type: 'card.submitted' },
  { type: 'error.dismissed' },
  paymentMethod.done(pmOk),
  paymentMethod.done(pmFieldError),
  paymentMethod.done(pmError),
  paymentMethod.fails(new Error('Stripe.js failed to load')),
  intent.done({ paymentIntentId: INTENT_ID }),
  intent.fails(new Error('The amount does not match the price of this booking.')),
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

const INPUTS: Record<string, CardPaymentInput> = {
  'a first visit to the card page': { booking: cardBooking, amountPence: 9352, intentId: null },
  'a reload after an intent was made': { booking: cardBooking, amountPence: 9352, intentId: EARLIER_INTENT_ID },
};

// --- SPEC facts, from the events of the path -------------------------------------------------------------------

type Answer = { type: string; output?: unknown; error?: unknown };
const answered = (e: ModelEvent | undefined, service: { done: (o?: unknown) => ServiceAnswer }) => e?.type === service.done().type;
const failed = (e: ModelEvent | undefined, service: { fails: (x: unknown) => ServiceAnswer }) => e?.type === service.fails(null).type;
const outputOf = <T>(e: ModelEvent) => (e as Answer).output as T;
const messageOf = (e: ModelEvent) => (((e as Answer).error) as Error).message;
/** The output of the service's last answer on the way, if it was a done one. */
const lastOutput = <T>(trail: Trail<Snapshot>, service: { done: (o?: unknown) => ServiceAnswer; fails: (x: unknown) => ServiceAnswer }) => {
  const e = trail.map((s) => s.event).filter((x) => answered(x, service) || failed(x, service)).at(-1);
  return e && answered(e, service) ? outputOf<T>(e) : undefined;
};

/** SPEC 4 and 9: states waiting for an answer (or showing 'Payment successful!') hold the visitor's place. */
const BUSY: State[] = ['resuming', 'creatingPaymentMethod', 'creatingIntent', 'confirming', 'authenticating', 'completing', 'succeeded'];
const NOT_BUSY: State[] = ['entering', 'failed', 'unavailable', 'paidNotConfirmed'];

/** The dialog the card page shows (src/web/views/card/CardView.tsx reads it from the state): SPEC 4 and 8. */
function dialogOf(s: Snapshot): { title: string; text: string | null } | null {
  if (s.matches('succeeded')) return { title: PAYMENT_SUCCESSFUL, text: null };
  if (s.matches('failed')) return { title: PAYMENT_FAILED, text: s.context.error };
  return null;
}

/** What the child of a state was started with (a service's input). */
const inputOf = (s: Snapshot, id: string) =>
  (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>)[id]?.getSnapshot().input;

function spec(s: Snapshot, trail: Trail<Snapshot>, input: CardPaymentInput) {
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
    const pm = lastOutput<{ paymentMethodId?: string }>(trail, paymentMethod);
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
  if (answered(e, paymentMethod)) {
    const pm = outputOf<Record<string, unknown>>(e!);
    // An inline error under the field the provider refused; no dialog.
    if ('fieldError' in pm) expect([value, c.fieldError, c.error]).toEqual(['entering', pm.fieldError, null]);
    // The provider's message in the 'Payment failed' dialog.
    if ('error' in pm) expect([value, c.error]).toEqual(['failed', pm.error]);
    if ('paymentMethodId' in pm) expect(value).toBe('creatingIntent');
  }
  if (failed(e, paymentMethod)) expect([value, c.error]).toEqual(['failed', messageOf(e!)]);
  // SPEC 8: an intent that cannot be created gives 'Payment failed. Please try again.', whatever the cause.
  if (failed(e, intent)) expect([value, c.error]).toEqual(['failed', INTENT_FAILED]);
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

const model: Model<typeof cardPaymentMachine> = {
  name: 'card payment machine',
  machine: cardPaymentMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.status, s.context.intentId !== null, s.context.error, s.context.fieldError?.field ?? null]),
  facts: spec,
  factsTitle: "SPEC 4's card payment steps",
  services: SERVICES,
  depth: () => Infinity,
};

testModel(model);

describe('what the machine does on its way', () => {
  const first = INPUTS['a first visit to the card page'];

  it('sends each call what the server and the provider need, through the bank\'s check, and hands the booking to the wizard', async () => {
    const sut = run(model, first);
    await sut.exec(key.done(cardKey));
    await sut.exec({ type: 'card.submitted' });
    await sut.exec(paymentMethod.done({ paymentMethodId: 'pm_1Visa4242' }));
    await sut.exec(intent.done({ paymentIntentId: INTENT_ID }));
    await sut.exec(confirm.done(needsAction));
    await sut.exec(authenticate.done({ ok: true }));
    await sut.exec(confirm.done(succeeded));
    await sut.exec(complete.done(cardBookingOk));
    expect(sut.calls).toEqual([
      { service: 'loadCardKey', input: undefined },
      { service: 'createPaymentMethod', input: { name: 'Amelia Hart', email: 'amelia@example.com' } },
      // SPEC 9: 46.76 x 2 = 93.52, sent as 9352.
      { service: 'createIntent', input: { booking: cardBooking, paymentMethodId: 'pm_1Visa4242', amountPence: 9352 } },
      { service: 'confirmIntent', input: { intentId: INTENT_ID } },
      { service: 'authenticate', input: { clientSecret: `${INTENT_ID}_secret_3ds` } },
      { service: 'confirmIntent', input: { intentId: INTENT_ID } },
      {
        service: 'completeBooking',
        input: { ...cardBooking, paymentMethod: 'card', stripeSessionId: INTENT_ID, paymentId: 'ch_3TestCharge' },
      },
    ]);
    expect(sut.received).toEqual([
      { type: 'card.keyLoaded', publishableKey: cardKey.publishableKey },
      { type: 'card.intentCreated', intentId: INTENT_ID },
    ]);
    sut.stop();
  });

  it("shows 'Payment successful!' for exactly 1.5 s, then is done with the booking (SPEC 4, 9)", async () => {
    const sut = run(model, first);
    for (const e of [key.done(cardKey), { type: 'card.submitted' } as const, paymentMethod.done(pmOk), intent.done({ paymentIntentId: INTENT_ID }),
      confirm.done(succeeded), complete.done(cardBookingOk)]) await sut.exec(e);
    expect([sut.snapshot.value, dialogOf(sut.snapshot)?.title, sut.snapshot.hasTag('busy')]).toEqual(['succeeded', PAYMENT_SUCCESSFUL, true]);
    sut.clock.increment(1499);
    expect(sut.snapshot.value).toBe('succeeded');
    expect(sut.received.map((r) => r.type)).not.toContain('xstate.done.actor.cardPayment');
    sut.clock.increment(1);
    expect(sut.snapshot.status).toBe('done');
    expect(sut.received.at(-1)).toEqual({ type: 'xstate.done.actor.cardPayment', actorId: 'cardPayment', output: { booking: cardBookingOk.data } });
    sut.stop();
  });

  it('pays again after a decline with the same booking and Idempotency-Key, nothing else entered again (SPEC 8)', async () => {
    const sut = run(model, first);
    await sut.exec(key.done(cardKey));
    await sut.exec({ type: 'card.submitted' });
    await sut.exec(paymentMethod.done({ paymentMethodId: 'pm_1Declined' }));
    await sut.exec(intent.done({ paymentIntentId: INTENT_ID }));
    await sut.exec(confirm.done(declined));
    expect([sut.snapshot.value, dialogOf(sut.snapshot)]).toEqual(['failed', { title: PAYMENT_FAILED, text: DECLINED }]);
    await sut.exec({ type: 'error.dismissed' });
    await sut.exec({ type: 'card.submitted' });
    await sut.exec(paymentMethod.done({ paymentMethodId: 'pm_2Visa4242' }));
    // The machine asks for an intent on each payment; the server answers with the booking's one intent.
    const intents = sut.calls.filter((x) => x.service === 'createIntent').map((x) => x.input);
    expect(intents).toEqual([
      { booking: cardBooking, paymentMethodId: 'pm_1Declined', amountPence: 9352 },
      { booking: cardBooking, paymentMethodId: 'pm_2Visa4242', amountPence: 9352 },
    ]);
    expect(sut.snapshot.context.booking).toBe(first.booking);
    sut.stop();
  });

  it('shows a refused card field under that field, without a dialog, until the card is submitted again', async () => {
    const sut = run(model, first);
    await sut.exec(key.done(cardKey));
    await sut.exec({ type: 'card.submitted' });
    await sut.exec(paymentMethod.done({ fieldError: { field: 'number', message: 'Your card number is incomplete.' } }));
    expect([sut.snapshot.value, sut.snapshot.context.fieldError, dialogOf(sut.snapshot)])
      .toEqual(['entering', { field: 'number', message: 'Your card number is incomplete.' }, null]);
    expect(sut.snapshot.can({ type: 'card.submitted' })).toBe(true);
    await sut.exec({ type: 'card.submitted' });
    expect(sut.snapshot.context.fieldError).toBeNull();
    sut.stop();
  });

  it('on a reload asks about the earlier intent first, and completes a payment the bank approved without a card', async () => {
    const sut = run(model, INPUTS['a reload after an intent was made']);
    await sut.exec(key.done(cardKey));
    expect([sut.snapshot.value, sut.snapshot.hasTag('busy')]).toEqual(['resuming', true]);
    await sut.exec(confirm.done(succeeded));
    await sut.exec(complete.done(cardBookingOk));
    expect(sut.calls.map((x) => x.service)).toEqual(['loadCardKey', 'confirmIntent', 'completeBooking']);
    expect(sut.calls[1].input).toEqual({ intentId: EARLIER_INTENT_ID });
    expect(sut.snapshot.value).toBe('succeeded');
    sut.stop();
  });

  it('tells the truth when the payment was taken but the booking call failed, and tries the booking again', async () => {
    const sut = run(model, first);
    for (const e of [key.done(cardKey), { type: 'card.submitted' } as const, paymentMethod.done(pmOk), intent.done({ paymentIntentId: INTENT_ID }),
      confirm.done(succeeded)]) await sut.exec(e);
    await sut.exec(complete.fails(new Error('Network down')));
    expect([sut.snapshot.value, sut.snapshot.context.error, dialogOf(sut.snapshot)])
      .toEqual(['paidNotConfirmed', `${PAID_NOT_CONFIRMED} (Network down)`, null]);
    await sut.exec({ type: 'card.retry' });
    const bookings = sut.calls.filter((x) => x.service === 'completeBooking').map((x) => x.input);
    expect(bookings).toHaveLength(2);
    expect(bookings[1]).toEqual(bookings[0]);
    sut.stop();
  });

  it('does not show a confirmation it was not given: a success without the booking is treated as not confirmed', async () => {
    const sut = run(model, first);
    for (const e of [key.done(cardKey), { type: 'card.submitted' } as const, paymentMethod.done(pmOk), intent.done({ paymentIntentId: INTENT_ID }),
      confirm.done(succeeded)]) await sut.exec(e);
    await sut.exec(complete.done({ success: true, message: 'Your booking is confirmed.' }));
    expect([sut.snapshot.value, sut.snapshot.context.error]).toEqual(['paidNotConfirmed', `${PAID_NOT_CONFIRMED} (Your booking is confirmed.)`]);
    sut.stop();
  });
});
