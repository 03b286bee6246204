// Model-based tests of machines/booking.ts (./modelPaths.ts): for every transition the machine defines, the
// shortest path that takes it is generated from the machine (a breadth-first walk from each starting input:
// the settings, the checked storage and the session the app starts it with) and replayed, as its own test, on
// a real actor whose invoked services (the forgot-password and card-payment child machines among them) and clock
// are controlled by the test. Every transition must be taken at least once, and SPEC 2's step rules must hold in
// every state. The card page's child machine is a stand-in here (its own steps: ./cardPayment.model.test.ts): it
// is started with the booking, tells the wizard the key and the intent, and answers with the booking.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor, type AnyActorLogic, type SnapshotFrom } from 'xstate';
import { bookingActors } from '../../machines/bookingActors';
import { bookingMachine, type BookingEvent, type BookingInput } from '../../machines/booking';
import { bookingLocation, pathOf } from '../../machines/bookingLocation';
import type { CardPaymentInput } from '../../machines/cardPayment';
import type { CreateBookingInput } from '../../src/domain/bookingRequest';
import { forgotPasswordMachine, type ForgotPasswordEvent } from '../../machines/forgotPassword';
import { isBusy } from '../../machines/shared';
import { decode, encode } from '../../src/domain/encoding';
import { PASSWORD_RESET_DONE, RESET_CODE_SENT, RESET_CODE_VERIFIED, SAME_PLACE, unknownPlaceMessage } from '../../src/domain/messages';
import { AddressError } from '../../src/domain/places';
import { answers, run, testModel, toChild } from './modelPaths';
import { bookingForm, bookingOk, bookingRefused, cardBookingOk, cardKey, client, hourlyForm, prices, registration, session, settings } from './fixtures';
import { ACTIVE_ACCOUNT, ON_HOLD, PO_GIVEN, PO_MISSING, PO_REFUSED, billing } from './models/booking';
import { url, price, create, quote, forgot, card, SERVICES, INTENT_ID, EVENTS, guestsOff, cardOn, vehicleChosen, everyStep, machine, reload, INPUTS, FIRST, serialize, model } from './models/booking';

testModel(model);

/** The calls a test counts: the payment step's look-up of the booker's account (issue 44) aside. */
const booked = (sut: { calls: { service: string; input: unknown }[] }) => sut.calls.filter((c) => c.service !== 'loadBilling');

describe('what the machine does on its way', () => {
  it("names the service the app did not provide when a call fails for want of it", async () => {
    const started = (input: BookingInput) => createActor(bookingMachine, { input }).start();
    const pricing = started(INPUTS[FIRST]);
    pricing.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect((await waitFor(pricing, (s) => !s.matches({ home: 'pricing' }))).context.error).toBe('calculatePrice is provided by the app');
    const checking = started(INPUTS['a vehicle stored, the payment page asked for']);
    checking.send({ type: 'details.submit', mode: 'existing_client', registration: client });
    expect((await waitFor(checking, (s) => s.matches({ details: 'rejected' }))).context.error).toContain('checkEmail is provided by the app');
    const booking = started(INPUTS['a return visit with every step stored']);
    booking.send({ type: 'payment.payInCar' });
    expect((await waitFor(booking, (s) => s.matches({ payment: 'failed' }))).context.error).toBe('createBooking is provided by the app');
    for (const actor of [pricing, checking, booking]) actor.stop();
  });

  it('names itself in the failure of each call the app provides, those whose failure the wizard words itself included', async () => {
    for (const name of ['calculatePrice', 'checkEmail', 'createBooking', 'loadBilling', 'sendQuote'] as const) {
      const call = createActor(bookingActors[name] as AnyActorLogic, { input: { token: null } });
      const failed = new Promise((resolve) => call.subscribe({ error: resolve }));
      call.start();
      expect(String(await failed), name).toBe(`Error: ${name} is provided by the app`);
    }
  });

  it('ignores what the current step does not handle', () => {
    const sut = run(model, INPUTS[FIRST]);
    for (const e of EVENTS.filter((x) => !x.type.startsWith('xstate.') && !sut.handles(x))) {
      const before = serialize(sut.snapshot);
      sut.send(e as BookingEvent);
      expect(serialize(sut.snapshot), e.type).toBe(before);
    }
    sut.stop();
  });

  it('persists the form before pricing and clears storage on the confirmation', async () => {
    const sut = run(model, INPUTS[FIRST]);
    await sut.exec({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect(sut.actionsCalled.map((a) => a.type)).toEqual(['persist']);
    expect(sut.calls).toEqual([{ service: 'calculatePrice', input: { bookingType: 'milleage', form: bookingForm, settings: INPUTS[FIRST].settings } }]);
    await sut.exec(price.done({ prices, trip: null }));
    sut.send({ type: 'quotation.select', vehicle: prices[1], quantity: 3, selectionType: 'selection' });
    expect(sut.snapshot.context).toMatchObject({ selectedVehicle: prices[1], quantity: 3 });
    sut.send({ type: 'details.submit', mode: 'guest_login', registration });
    sut.send({ type: 'payment.payInCar' });
    const key = sut.snapshot.context.attempt?.key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await sut.exec(create.done(bookingRefused));
    expect(sut.snapshot.context.error).toBe('This vehicle is no longer available');
    sut.send({ type: 'error.dismissed' });
    sut.send({ type: 'payment.payInCar' });
    // A second attempt on the same payment step reuses the key, so the server can tell it is a retry.
    expect(sut.snapshot.context.attempt?.key).toBe(key);
    expect(sut.calls.filter((c) => c.service === 'createBooking').map((c) => (c.input as { idempotencyKey: string }).idempotencyKey)).toEqual([key, key]);
    await sut.exec(create.done(bookingOk));
    expect(pathOf(sut.snapshot)).toBe('/paymentSuccessView');
    expect(sut.actionsCalled.at(-1)?.type).toBe('clearStoredBooking');
    expect(sut.snapshot.context).toMatchObject({ priceDetails: null, selectedVehicle: null, registration: null });
    sut.stop();
  });

  it('shows the urgent notice, moves to /quoteView after 1 s and closes the notice after 3 s (SPEC 8)', async () => {
    const sut = run(model, INPUTS[FIRST]);
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    await sut.exec(price.fails(new Error('Address is banned')));
    expect(sut.snapshot.value).toEqual({ home: 'urgent' });
    sut.clock.increment(999);
    expect(pathOf(sut.snapshot)).toBe('/');
    sut.clock.increment(1);
    expect(sut.snapshot.value).toEqual({ quote: 'notice' });
    expect(pathOf(sut.snapshot)).toBe('/quoteView');
    sut.clock.increment(1999);
    expect(sut.snapshot.value).toEqual({ quote: 'notice' });
    sut.clock.increment(1);
    expect(sut.snapshot.value).toEqual({ quote: 'form' });
    sut.stop();
  });

  it.each([
    ['Pickup time is within the grace period', 'grace'],
    ['Address is banned', 'banned'],
  ])("keeps why the visitor was sent to /quoteView ('%s') while there, past the notice, and forgets it when they leave (decision 22)", async (message, reason) => {
    const sut = run(model, INPUTS[FIRST]);
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    await sut.exec(price.fails(new Error(message)));
    expect(sut.snapshot.context.urgentReason).toBeNull();
    sut.clock.increment(1000);
    expect(sut.snapshot.context.urgentReason).toBe(reason);
    sut.clock.increment(2000);
    expect(sut.snapshot.value).toEqual({ quote: 'form' });
    expect(sut.snapshot.context.urgentReason).toBe(reason);
    sut.send({ type: 'url.changed', path: '/', search: '' });
    expect(pathOf(sut.snapshot)).toBe('/');
    expect(sut.snapshot.context.urgentReason).toBeNull();
    // Opened from the menu, /quoteView has no reason to explain.
    sut.send({ type: 'url.changed', path: '/quoteView', search: '' });
    expect(sut.snapshot.value).toEqual({ quote: 'form' });
    expect(sut.snapshot.context.urgentReason).toBeNull();
    sut.stop();
  });

  it('shows an address the price call refused in the form, keeps it through a tab change only if unchanged, and clears it on the next call (decision 23)', async () => {
    const sut = run(model, INPUTS[FIRST]);
    const withStop = { ...bookingForm, stops: [{ street_name: 'Imaginary Lane', number: '12', postcode: '' }] };
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: withStop });
    await sut.exec(price.fails(new AddressError(unknownPlaceMessage('12 Imaginary Lane'), 'stops.0')));
    expect(sut.snapshot.value).toEqual({ home: 'editing' });
    expect(sut.snapshot.context).toMatchObject({
      error: null, bookingForm: withStop,
      addressError: { field: 'stops.0', message: 'We could not find "12 Imaginary Lane". Pick a suggestion or add the postcode.', text: '12 Imaginary Lane' },
    });
    // Another error is still the dialog.
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect(sut.snapshot.context.addressError).toBeNull();
    await sut.exec(price.fails(new Error('Network down')));
    expect([sut.snapshot.value, sut.snapshot.context.error]).toEqual([{ home: 'failed' }, 'Network down']);
    sut.send({ type: 'error.dismissed' });
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    await sut.exec(price.fails(new AddressError(SAME_PLACE, 'dropoff')));
    sut.send({ type: 'home.typeChanged', bookingType: 'hourly' });
    expect(sut.snapshot.context.addressError).toBeNull();
    sut.stop();
  });

  it('returns to the form when the booking call refuses an address: the prices are void, the details kept (decision 23)', async () => {
    const sut = run(model, INPUTS['a return visit with every step stored']);
    await sut.exec({ type: 'payment.payInCar' });
    await sut.exec(create.fails(new AddressError(unknownPlaceMessage(bookingForm.dropoff), 'dropoff')));
    expect([sut.snapshot.value, pathOf(sut.snapshot)]).toEqual([{ home: 'editing' }, '/home']);
    expect(sut.snapshot.context).toMatchObject({
      addressError: { field: 'dropoff', text: bookingForm.dropoff }, priceDetails: null, selectedVehicle: null, registration, bookingForm,
    });
    // The quotation needs new prices now.
    sut.send({ type: 'url.changed', path: '/quotationview', search: '' });
    expect(pathOf(sut.snapshot)).toBe('/home');
    sut.stop();
  });

  it('walks the forgot-password steps in its child machine and returns to the details with the new password noted (SPEC 4)', async () => {
    const sut = run(model, INPUTS['the forgot-password page asked for, with a vehicle chosen'], {
      services: (answered) => ({
        ...answered(...SERVICES.filter((s) => s !== 'forgotPassword')),
        forgotPassword: forgotPasswordMachine.provide({ actors: answered('requestResetCode', 'verifyResetCode', 'resetPassword') as never }),
      }),
    });
    const reset = (event: ForgotPasswordEvent) => sut.exec(toChild('forgotPassword', event));
    const child = () => sut.snapshot.children.forgotPassword?.getSnapshot() as SnapshotFrom<typeof forgotPasswordMachine> | undefined;
    const step = () => child()?.value;
    const requestCode = answers(forgotPasswordMachine, 'requestResetCode');
    expect(pathOf(sut.snapshot)).toBe('/forgot_password');
    await reset({ type: 'reset.requestCode', email: 'amelia@example.com' });
    // The app holds the address still while the child waits for the server.
    expect(isBusy(sut.actor)).toBe(true);
    await sut.exec(requestCode.done({ success: true, message: RESET_CODE_SENT }));
    expect([step(), isBusy(sut.actor)]).toEqual(['code', false]);
    await reset({ type: 'reset.back' });
    expect(step()).toBe('email');
    await reset({ type: 'reset.requestCode', email: 'amelia@example.com' });
    await sut.exec(requestCode.done({ success: true, message: RESET_CODE_SENT }));
    await reset({ type: 'reset.verifyCode', code: '123456' });
    await sut.exec(answers(forgotPasswordMachine, 'verifyResetCode').done({ success: true, message: RESET_CODE_VERIFIED }));
    await reset({ type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-3' });
    expect(child()?.context.error).toBe('Passwords do not match');
    await reset({ type: 'reset.setPassword', password: 'secret-2', confirm: 'secret-2' });
    expect(sut.calls.at(-1)).toEqual({ service: 'resetPassword', input: { email: 'amelia@example.com', code: '123456', password: 'secret-2' } });
    await sut.exec(answers(forgotPasswordMachine, 'resetPassword').done({ success: true, message: PASSWORD_RESET_DONE }));
    const after = sut.snapshot;
    expect(pathOf(after)).toBe('/personalDetailView');
    expect(after.context).toMatchObject({ notice: PASSWORD_RESET_DONE, registrationMode: 'existing_client' });
    expect(after.context.registration?.email).toBe('amelia@example.com');
    expect(after.children.forgotPassword).toBeUndefined();
    sut.stop();
  });

  it('opens on the hourly tab when both tabs show, unless another was saved (SPEC 2)', () => {
    const open = (s: Record<string, string>, stored?: 'milleage' | 'hourly') => {
      const sut = run(model, { path: '/', settings: s, stored: { bookingType: stored } });
      const type = sut.snapshot.context.bookingType;
      sut.stop();
      return type;
    };
    expect(open({ HOURLY_RATE_STATUS: 'enable' })).toBe('hourly');
    expect(open({ HOURLY_RATE_STATUS: 'disable' })).toBe('milleage');
    expect(open({ HOURLY_RATE_STATUS: 'enable', IS_QUOTATION: 'enable' })).toBe('hourly');
    expect(open({ HOURLY_RATE_STATUS: 'enable' }, 'milleage')).toBe('milleage');
    expect(open({ HOURLY_RATE_STATUS: 'disable' }, 'hourly')).toBe('milleage');
  });

  it('lets a guest go on to pay only when GUEST_LOGIN allows it, or when the passenger is signed in', () => {
    const guest: BookingEvent = { type: 'details.submit', mode: 'guest_login', registration };
    const sut = run(model, INPUTS['guests turned off (GUEST_LOGIN disable), a vehicle chosen']);
    expect(sut.snapshot.can(guest)).toBe(false);
    sut.send(guest);
    expect(pathOf(sut.snapshot)).toBe('/personalDetailView');
    // The other modes still check the e-mail.
    expect(sut.snapshot.can({ type: 'details.submit', mode: 'existing_client', registration: client })).toBe(true);
    sut.send({ type: 'session.changed', session });
    expect(sut.snapshot.can(guest)).toBe(true);
    sut.send(guest);
    expect(pathOf(sut.snapshot)).toBe('/paymentview');
    sut.stop();
    for (const GUEST_LOGIN of [undefined, 'enable']) {
      const open = run(model, { ...INPUTS['guests turned off (GUEST_LOGIN disable), a vehicle chosen'], settings: { ...settings, ...(GUEST_LOGIN ? { GUEST_LOGIN } : {}) } });
      expect(open.snapshot.can(guest), `GUEST_LOGIN ${GUEST_LOGIN}`).toBe(true);
      open.stop();
    }
  });

  // Saved guest details must not open the payment step once the operator has turned guest bookings off: Pay In
  // Car would be offered and the server would answer 422.
  it('opens the payment step for stored guest details only when guests may book (GUEST_LOGIN disable)', () => {
    const sut = run(model, { path: '/paymentview', settings: guestsOff, stored: everyStep });
    expect(sut.snapshot.context.registrationMode).toBe('guest_login');
    expect(pathOf(sut.snapshot)).toBe('/personalDetailView');
    expect(sut.snapshot.can({ type: 'payment.payInCar' })).toBe(false);
    sut.stop();
  });

  it('pays on account (issue 44) for an active account\'s booker with the required field, with the fields as given', async () => {
    const sut = run(model, { path: '/paymentview', settings: { ...settings, SHOWPAYINCAR: 'no' }, stored: everyStep, session });
    expect(sut.calls.map((c) => [c.service, c.input])).toEqual([['loadBilling', { token: 'token-stored' }]]);
    expect(sut.snapshot.can({ type: 'payment.payOnAccount', fields: PO_GIVEN })).toBe(false);
    const held = run(model, { path: '/paymentview', settings, stored: everyStep, session });
    await held.exec(billing.done(ON_HOLD));
    expect([held.snapshot.context.billing, held.snapshot.can({ type: 'payment.payOnAccount', fields: PO_GIVEN })]).toEqual([ON_HOLD, false]);
    held.stop();
    await sut.exec(billing.done(ACTIVE_ACCOUNT));
    expect(sut.snapshot.can({ type: 'payment.payOnAccount', fields: PO_MISSING })).toBe(false);
    expect(sut.snapshot.can({ type: 'payment.payOnAccount', fields: { ...PO_GIVEN, 8: 'Marketing' } })).toBe(false);
    await sut.exec({ type: 'payment.payOnAccount', fields: PO_GIVEN });
    expect(booked(sut)).toMatchObject([{ service: 'createBooking', input: { paymentMethod: 'account', accountFields: PO_GIVEN, token: 'token-stored' } }]);
    await sut.exec(create.fails(PO_REFUSED));
    expect([sut.snapshot.value, sut.snapshot.context.accountFieldError, sut.snapshot.context.error])
      .toEqual([{ payment: 'choosing' }, { fieldId: '7', message: PO_REFUSED.message }, null]);
    sut.stop();
  });

  it('offers Pay In Car only when SHOWPAYINCAR allows it (SPEC 9)', () => {
    const can = (SHOWPAYINCAR?: string) => {
      const sut = run(model, { path: '/paymentview', settings: { ...settings, ...(SHOWPAYINCAR ? { SHOWPAYINCAR } : {}) }, stored: everyStep });
      expect(sut.snapshot.matches({ payment: 'choosing' })).toBe(true);
      const yes = sut.snapshot.can({ type: 'payment.payInCar' });
      sut.send({ type: 'payment.payInCar' });
      const calls = booked(sut).length;
      sut.stop();
      return [yes, calls];
    };
    expect(can('no')).toEqual([false, 0]);
    expect(can('yes')).toEqual([true, 1]);
    expect(can('enable')).toEqual([true, 1]);
    expect(can(undefined)).toEqual([true, 1]);
  });

  it('books a signed-in passenger with their own details and token; signing out keeps what was typed', async () => {
    const sut = run(model, { path: '/personalDetailView', settings, stored: vehicleChosen, session });
    const filled = sut.snapshot.context.registration!;
    expect(filled).toMatchObject({ firstName: 'Amelia', surname: 'Hart', email: 'amelia@example.com', number: '+44770090012' });
    sut.send({ type: 'details.submit', mode: 'guest_login', registration: filled });
    await sut.exec({ type: 'payment.payInCar' });
    expect(sut.calls.at(-1)).toMatchObject({ service: 'createBooking', input: { token: 'token-stored', mode: 'guest_login', registration: filled } });
    sut.send({ type: 'session.changed', session: null });
    expect(sut.snapshot.context).toMatchObject({ session: null, registration: filled });
    sut.stop();
  });

  it('fills a signed-in passenger\'s details only where nothing was typed', () => {
    const sut = run(model, { path: '/', settings, stored: { registration: { ...registration, firstName: 'Mia', email: '' } } });
    sut.send({ type: 'session.changed', session: { token: 'token-new', passenger: { ...session.passenger, passenger_name: 'Amelia Rose Hart' } } });
    expect(sut.snapshot.context.registration).toMatchObject({ firstName: 'Mia', surname: 'Hart', email: 'amelia@example.com' });
    expect(sut.snapshot.context.registrationMode).toBe('guest_login');
    sut.stop();
  });

  it('offers Pay By Card only when SHOWCARD is yes (SPEC 9)', () => {
    const can = (SHOWCARD?: string) => {
      const sut = run(model, { path: '/paymentview', settings: { ...settings, ...(SHOWCARD ? { SHOWCARD } : {}) }, stored: everyStep });
      const yes = sut.snapshot.can({ type: 'payment.payByCard' });
      sut.send({ type: 'payment.payByCard' });
      const at = [yes, pathOf(sut.snapshot), booked(sut).length];
      sut.stop();
      return at;
    };
    expect(can('yes')).toEqual([true, '/stripecheckout', 1]);
    // Toggles use the literal value enable too (SPEC 3).
    expect(can('enable')).toEqual([true, '/stripecheckout', 1]);
    expect(can('no')).toEqual([false, '/paymentview', 0]);
    expect(can(undefined)).toEqual([false, '/paymentview', 0]);
  });

  it('opens /stripecheckout as the card page only with complete details and SHOWCARD, else falls back (SPEC 2)', () => {
    const lands = (input: Omit<BookingInput, 'path'>) => {
      const sut = run(model, { path: '/stripecheckout', ...input });
      const at = [pathOf(sut.snapshot), booked(sut).map((c) => c.service)];
      sut.stop();
      return at;
    };
    expect(lands({ settings: cardOn, stored: everyStep })).toEqual(['/stripecheckout', ['cardPayment']]);
    expect(lands({ settings, stored: everyStep })).toEqual(['/paymentview', []]);
    expect(lands({ settings: cardOn, stored: { ...everyStep, registration: { ...registration, email: '' } } })).toEqual(['/personalDetailView', []]);
    // A client's password is never stored: the details step asks for it again.
    expect(lands({ settings: cardOn, stored: { ...everyStep, registrationMode: 'existing_client' } })).toEqual(['/personalDetailView', []]);
    expect(lands({ settings: { ...cardOn, GUEST_LOGIN: 'disable' }, stored: everyStep })).toEqual(['/personalDetailView', []]);
    expect(lands({ settings: cardOn, stored: vehicleChosen })).toEqual(['/personalDetailView', []]);
    expect(lands({ settings: cardOn, stored: { bookingForm, priceDetails: prices } })).toEqual(['/quotationview', []]);
    expect(lands({ settings: cardOn, stored: {} })).toEqual(['/home', []]);
  });

  it("puts the encoded key and amount in the card page's URL once the card page has the key, and only there (SPEC 2)", async () => {
    const saloon = { ...prices[0], price: '54.60', final_price: '54.60' };
    const sut = run(model, { path: '/paymentview', settings: cardOn, stored: { ...everyStep, selectedVehicle: saloon, quantity: 2 } });
    sut.send({ type: 'payment.payByCard' });
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/stripecheckout', search: '' });
    sut.send({ type: 'card.keyLoaded', publishableKey: 'pk_test_51TestCarsKey' });
    // 54.60 x 2, with its pence: "109.20".
    const query = `?stripeKey=${encodeURIComponent(encode('pk_test_51TestCarsKey'))}&amount=${encodeURIComponent(encode('109.20'))}`;
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/stripecheckout', search: query });
    expect(decode(new URLSearchParams(query).get('amount'))).toBe('109.20');
    sut.send({ type: 'url.changed', path: '/paymentview', search: '' });
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/paymentview', search: '' });
    sut.send({ type: 'payment.payByCard' });
    await sut.exec(card.done({ booking: cardBookingOk.data! }));
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/paymentSuccessView', search: '' });
    sut.stop();
  });

  it('forgets the key with the trip: the next booking\'s card page has no query until its key arrives', async () => {
    const sut = run(model, { path: '/paymentview', settings: cardOn, stored: everyStep });
    sut.send({ type: 'payment.payByCard' });
    sut.send({ type: 'card.keyLoaded', publishableKey: cardKey.publishableKey });
    await sut.exec(card.done({ booking: cardBookingOk.data! }));
    sut.send({ type: 'url.changed', path: '/', search: '' });
    sut.send({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    await sut.exec(price.done({ prices, trip: null }));
    sut.send({ type: 'quotation.select', vehicle: prices[1], quantity: 1, selectionType: 'selection' });
    sut.send({ type: 'details.submit', mode: 'guest_login', registration });
    sut.send({ type: 'payment.payByCard' });
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/stripecheckout', search: '' });
    sut.stop();
  });

  it("has no query on a new visit to the card page until that visit's key arrives", () => {
    const sut = run(model, { path: '/paymentview', settings: cardOn, stored: everyStep });
    sut.send({ type: 'payment.payByCard' });
    sut.send({ type: 'card.keyLoaded', publishableKey: cardKey.publishableKey });
    sut.send({ type: 'url.changed', path: '/paymentview', search: '' });
    sut.send({ type: 'payment.payByCard' });
    expect(bookingLocation(sut.snapshot)).toEqual({ path: '/stripecheckout', search: '' });
    sut.stop();
  });

  it('starts the card page with the booking under the attempt\'s key and the amount in pence, keeps its intent for a reload, and confirms its booking (SPEC 4)', async () => {
    const sut = run(model, { path: '/paymentview', settings: cardOn, stored: { ...everyStep, selectedVehicle: prices[1], quantity: 2 } });
    sut.send({ type: 'payment.payByCard' });
    const { attempt } = sut.snapshot.context;
    expect(attempt).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{32}$/), intentId: null });
    expect(sut.actionsCalled.map((a) => a.type)).toEqual(['persist', 'persist']);
    // SPEC 9: 46.76 x 2, in pence.
    expect(booked(sut)).toEqual([{
      service: 'cardPayment',
      input: {
        booking: {
          idempotencyKey: attempt!.key, bookingType: 'milleage', bookingForm, hourlyForm: null, vehicle: prices[1], quantity: 2,
          mode: 'guest_login', registration, paymentMethod: 'card', token: null,
        },
        amountPence: 9352,
        intentId: null,
      },
    }]);
    await sut.exec({ type: 'card.intentCreated', intentId: INTENT_ID });
    expect(sut.snapshot.context.attempt).toEqual({ ...attempt, intentId: INTENT_ID });
    expect(sut.actionsCalled.at(-1)?.type).toBe('persist');
    // Back to the card page (or a reload of it): the same attempt, and the card page asks about its intent first.
    sut.send({ type: 'url.changed', path: '/paymentview', search: '' });
    sut.send({ type: 'url.changed', path: '/stripecheckout', search: '' });
    expect(sut.calls.at(-1)?.input).toMatchObject({ booking: { idempotencyKey: attempt!.key }, intentId: INTENT_ID });
    await sut.exec(card.done({ booking: cardBookingOk.data! }));
    expect([pathOf(sut.snapshot), sut.snapshot.context.booking]).toEqual(['/paymentSuccessView', cardBookingOk.data]);
    expect(sut.actionsCalled.at(-1)?.type).toBe('clearStoredBooking');
    expect(sut.snapshot.context).toMatchObject({ attempt: null, cardKey: null, selectedVehicle: null });
    sut.stop();
  });

  it('keeps one Idempotency-Key per request and way of paying, and a new one when either changes', async () => {
    const sut = run(model, { path: '/paymentview', settings: cardOn, stored: everyStep });
    const key = () => sut.snapshot.context.attempt?.key;
    const go = (path: string) => sut.send({ type: 'url.changed', path, search: '' });
    sut.send({ type: 'payment.payByCard' });
    const card1 = key();
    go('/paymentview');
    sut.send({ type: 'payment.payByCard' });
    expect(key()).toBe(card1);
    // Another way of paying is another attempt.
    go('/paymentview');
    sut.send({ type: 'payment.payInCar' });
    const car1 = key();
    expect(car1).not.toBe(card1);
    await sut.exec(create.done(bookingRefused));
    sut.send({ type: 'error.dismissed' });
    sut.send({ type: 'payment.payInCar' });
    expect(key()).toBe(car1);
    await sut.exec(create.fails(new Error('Network down')));
    sut.send({ type: 'error.dismissed' });
    sut.send({ type: 'payment.payByCard' });
    const card2 = key();
    expect([card1, car1]).not.toContain(card2);
    // Changed details: a new attempt.
    go('/personalDetailView');
    sut.send({ type: 'details.submit', mode: 'guest_login', registration: { ...registration, number: '+44770090999' } });
    sut.send({ type: 'payment.payByCard' });
    const card3 = key();
    expect([card1, car1, card2]).not.toContain(card3);
    // Another vehicle: a new attempt.
    go('/quotationview');
    sut.send({ type: 'quotation.select', vehicle: prices[1], quantity: 1, selectionType: 'selection' });
    sut.send({ type: 'details.submit', mode: 'guest_login', registration });
    sut.send({ type: 'payment.payByCard' });
    expect([card1, car1, card2, card3]).not.toContain(key());
    const cards = sut.calls.filter((c) => c.service === 'cardPayment').map((c) => ((c.input as CardPaymentInput).booking as CreateBookingInput).idempotencyKey);
    expect(cards).toEqual([card1, card1, card2, card3, key()]);
    sut.stop();
  });
});
