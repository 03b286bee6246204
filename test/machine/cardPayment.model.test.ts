// Model-based tests of machines/cardPayment.ts (./modelPaths.ts): SPEC 4 'Card payment' (key, payment method,
// intent, confirm, the bank's check, the booking, 'Payment successful!' for 1.5 s), SPEC 8 'Card errors' and
// SPEC 9 (the amount in pence). The machine runs as the child of a small recording parent, as the wizard's card
// step invokes it: what it tells the wizard (the key, the intent, and at the end the booking) is part of each
// step. The facts below are worked out from the events of the path, not from the machine's own bookkeeping.
import { describe, expect, it } from 'vitest';
import { PAID_NOT_CONFIRMED, PAYMENT_FAILED, PAYMENT_SUCCESSFUL } from '../../src/domain/messages';
import { answers, run, testModel } from './modelPaths';
import { payerOf } from '../../machines/cardTypes';
import { cardBooking, cardBookingOk, cardKey } from './fixtures';
import { key, paymentMethod, intent, authenticate, complete, confirm, DECLINED, INTENT_ID, EARLIER_INTENT_ID, pmOk, confirmed, succeeded, needsAction, declined, INPUTS, failed, dialogOf, model } from './models/cardPayment';

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

describe('who pays, as the card provider keeps it with the card', () => {
  const payer = { name: 'Nia Northbridge', email: 'accounts@northbridge.example' };
  it("is the new booking's traveller, their name as one line and their e-mail", () => {
    expect(payerOf(cardBooking)).toEqual({
      name: `${cardBooking.registration.firstName} ${cardBooking.registration.surname}`, email: cardBooking.registration.email,
    });
    expect(payerOf({ ...cardBooking, registration: { ...cardBooking.registration, firstName: ' Ada', surname: '' } })).toEqual({
      name: 'Ada', email: cardBooking.registration.email,
    });
  });
  it("is the one a passenger's change or a payment link names", () => {
    expect(payerOf({ change: { reference: 'BK-ABCDEFGH', key: 'k', id: 4 }, payer })).toBe(payer);
    expect(payerOf({ link: { reference: 'BK-ABCDEFGH', key: 'k' }, payer })).toBe(payer);
  });
});
