// Model-based tests of machines/booking.ts (./modelPaths.ts): for every transition the machine defines, the
// shortest path that takes it is generated from the machine (a breadth-first walk from each starting input:
// the settings, the checked storage and the session the app starts it with) and replayed, as its own test, on
// a real actor whose invoked services (the forgot-password child machine among them) and clock are controlled
// by the test. Every transition must be taken at least once, and SPEC 2's step rules must hold in every state.
import { describe, expect, it } from 'vitest';
import { bookingMachine, pathOf, type BookingEvent, type BookingInput, type BookingSnapshot } from '../../machines/booking';
import { hasRegistration } from '../../machines/bookingSteps';
import { forgotPasswordMachine, type ForgotPasswordEvent } from '../../machines/forgotPassword';
import type { SnapshotFrom } from 'xstate';
import type { Session } from '../../machines/account';
import { isBusy } from '../../machines/shared';
import { allowsGuests, showsPayInCar } from '../../src/domain/settings';
import { PASSWORD_RESET_DONE, RESET_CODE_SENT, RESET_CODE_VERIFIED } from '../../src/domain/messages';
import { answers, run, testModel, timePasses, toChild, type Model, type ModelEvent, type Trail } from './modelPaths';
import {
  bookingForm, bookingOk, bookingRefused, client, hourlyForm, prices, quoteRequest, registration, session, settings,
} from './fixtures';

const PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/paymentSuccessView', '/forgot_password', '/no-such-page'];
const url = (path: string, search = ''): BookingEvent => ({ type: 'url.changed', path, search });

const price = answers(bookingMachine, 'calculatePrice');
const emailCheck = answers(bookingMachine, 'checkEmail');
const create = answers(bookingMachine, 'createBooking');
const quote = answers(bookingMachine, 'sendQuote');
const forgot = answers(bookingMachine, 'forgotPassword');
const SERVICES = ['calculatePrice', 'checkEmail', 'createBooking', 'sendQuote', 'forgotPassword'] as const;

const EVENTS: ModelEvent<BookingEvent>[] = [
  ...PATHS.map((path) => url(path)),
  // The Contact Us button of a price card: the query does not change the step.
  url('/quoteView', '?from=contact'),
  { type: 'session.changed', session },
  { type: 'session.changed', session: null },
  { type: 'home.typeChanged', bookingType: 'hourly' },
  { type: 'home.typeChanged', bookingType: 'milleage' },
  { type: 'home.hourlyChanged', form: hourlyForm },
  { type: 'home.submit', bookingType: 'milleage', form: bookingForm },
  { type: 'home.submit', bookingType: 'hourly', form: hourlyForm },
  { type: 'error.dismissed' },
  { type: 'quotation.select', vehicle: prices[1], quantity: 2, selectionType: 'selection' },
  { type: 'quotation.select', vehicle: prices[1], quantity: 3, selectionType: 'lowest' },
  { type: 'details.changed', mode: 'new_client', registration },
  { type: 'details.submit', mode: 'guest_login', registration },
  { type: 'details.submit', mode: 'new_client', registration: client },
  { type: 'details.submit', mode: 'existing_client', registration: client },
  { type: 'payment.payInCar' },
  { type: 'quote.submit', request: quoteRequest },
  price.done({ prices, trip: { via_miles: 20.4, time_duration: 3000 } }),
  price.fails(new Error('Pickup time is within the grace period')),
  price.fails(new Error('Sorry we don\'t have any vehicle with requested options')),
  emailCheck.done({ success: true, found: true, message: 'Email found. Proceeding to payment.' }),
  emailCheck.done({ success: false, found: false, message: 'Email not found' }),
  emailCheck.done({ success: false, found: true, message: 'The password is not correct' }),
  emailCheck.fails(new Error('Network down')),
  create.done(bookingOk),
  create.done(bookingRefused),
  create.fails(new Error('Network down')),
  quote.done({ success: true }),
  quote.done({ success: false }),
  quote.fails(new Error('Network down')),
  // The forgot-password child finishes (its own steps: ./forgotPassword.model.test.ts).
  forgot.done({ email: 'amelia@example.com', message: PASSWORD_RESET_DONE }),
  timePasses(bookingMachine, 'home.urgent'),
  timePasses(bookingMachine, 'quote.notice'),
];

const guestsOff = { ...settings, GUEST_LOGIN: 'disable' };
const vehicleChosen = { bookingForm, priceDetails: prices, selectedVehicle: prices[0] };
const everyStep = { bookingType: 'milleage' as const, ...vehicleChosen, quantity: 1, registration };

const INPUTS: Record<string, BookingInput> = {
  'a first visit': { path: '/', settings, stored: {} },
  'a return visit with every step stored': { path: '/paymentview', settings, stored: everyStep },
  'prices stored, the details page asked for': { path: '/personalDetailView', settings, stored: { bookingForm, priceDetails: prices } },
  'a vehicle stored, the payment page asked for': { path: '/paymentview', settings, stored: { ...vehicleChosen, quantity: 2 } },
  'a client whose password was not stored, the payment page asked for': {
    path: '/paymentview', settings, stored: { ...vehicleChosen, registrationMode: 'existing_client', registration },
  },
  'a reload of the confirmation': { path: '/paymentSuccessView', settings, stored: { booking: bookingOk.data } },
  'the forgot-password page asked for, with a vehicle chosen': {
    path: '/forgot_password', settings, stored: { ...vehicleChosen, registrationMode: 'existing_client' },
  },
  'the quote page asked for': { path: '/quoteView', settings, stored: { bookingForm } },
  'guests turned off (GUEST_LOGIN disable), a vehicle chosen': { path: '/personalDetailView', settings: guestsOff, stored: vehicleChosen },
  'Pay In Car turned off (SHOWPAYINCAR no), every step stored': {
    path: '/paymentview', settings: { ...settings, SHOWPAYINCAR: 'no' }, stored: everyStep,
  },
  'a signed-in passenger, guests turned off, a vehicle chosen': {
    path: '/personalDetailView', settings: guestsOff, stored: vehicleChosen, session,
  },
};

/** The passenger signed in now: the last session the app shared, or the one the wizard started with. */
function sessionNow(trail: Trail<BookingSnapshot>, input: BookingInput): Session | null {
  const last = [...trail].reverse().find((s) => s.event.type === 'session.changed');
  return last ? (last.event as Extract<BookingEvent, { type: 'session.changed' }>).session : input.session ?? null;
}

/** SPEC 2: each step needs the earlier steps' data, and has its own route; SPEC 4, 9 and the settings' rules on the way. */
function holdsSpecInvariants(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
  const c = s.context;
  const path = pathOf(s);
  if (s.matches('quotation')) expect([path, c.priceDetails !== null]).toEqual(['/quotationview', true]);
  if (s.matches('details')) expect([path, c.priceDetails !== null, c.selectedVehicle !== null]).toEqual(['/personalDetailView', true, true]);
  if (s.matches('payment')) {
    expect([path, c.priceDetails !== null, c.selectedVehicle !== null, c.registration !== null])
      .toEqual(['/paymentview', true, true, true]);
    // A client can only pay with the password typed in this visit.
    if (c.registrationMode !== 'guest_login') expect(c.registration!.password).toBeTruthy();
  }
  if (s.matches('success')) expect([path, c.booking !== null]).toEqual(['/paymentSuccessView', true]);
  if (s.matches('quote')) expect(path).toBe('/quoteView');
  if (s.matches('forgotPassword')) expect(path).toBe('/forgot_password');
  if (s.matches('home')) expect(['/', '/home', '/booktripview']).toContain(path);
  if (s.matches('quotation') && c.selectionType === 'lowest') expect(c.quantity).toBe(1);

  const last = trail.at(-1)?.event;
  // GUEST_LOGIN: a guest reaches the payment step (by Next, or by opening /paymentview with saved details) only
  // when guests may book, or as a signed-in passenger.
  const arrives = !last || last.type === 'url.changed' || last.type === 'details.submit';
  if (arrives && s.matches('payment') && c.registrationMode === 'guest_login') {
    expect(allowsGuests(input.settings) || sessionNow(trail, input) !== null).toBe(true);
  }
  // SPEC 9: Pay In Car books only where SHOWPAYINCAR offers it.
  if (s.matches({ payment: 'booking' })) expect(showsPayInCar(input.settings)).toBe(true);
  // The booking is made for the passenger signed in now (with their token), or for nobody.
  expect(c.session).toBe(sessionNow(trail, input));
  // A signed-in passenger's own details fill what they have not typed.
  if (last?.type === 'session.changed' && last.session) {
    expect(c.registration).toMatchObject({ email: expect.stringMatching(/./), firstName: expect.stringMatching(/./) });
  }
  // SPEC 4 'Forgot password': step 3's success returns to the personal details as an existing client with that e-mail.
  if (last?.type === 'xstate.done.actor.forgotPassword') {
    const out = (last as { output: { email: string; message: string } }).output;
    expect([c.registrationMode, c.registration?.email, c.notice]).toEqual(['existing_client', out.email, out.message]);
    if (c.selectedVehicle) expect(path).toBe('/personalDetailView');
  }
}

// States are told apart by what the guards read, not by every field of context (the session only matters to
// the guest rule when the settings turn guests off).
const serialize = (s: BookingSnapshot) => JSON.stringify([
  s.value, pathOf(s), s.context.priceDetails !== null, s.context.selectedVehicle !== null,
  hasRegistration(s.context), s.context.registrationMode, s.context.booking !== null,
  allowsGuests(s.context.settings) || s.context.session !== null,
]);

const model: Model<typeof bookingMachine> = {
  name: 'booking machine',
  machine: bookingMachine,
  events: EVENTS,
  inputs: INPUTS,
  serialize,
  facts: holdsSpecInvariants,
  factsTitle: "SPEC 2's step rules",
  services: SERVICES,
  actions: ['persist', 'clearStoredBooking'],
  describeState: (s) => {
    const v = s.value;
    return (typeof v === 'string' ? v : Object.entries(v).map(([k, x]) => `${k}.${x}`).join(', ')) + (s.matches('home') ? ` at ${pathOf(s)}` : '');
  },
};

testModel(model);

describe('what the machine does on its way', () => {
  it('ignores what the current step does not handle', () => {
    const sut = run(model, INPUTS['a first visit']);
    for (const e of EVENTS.filter((x) => !x.type.startsWith('xstate.') && !sut.handles(x))) {
      const before = serialize(sut.snapshot);
      sut.send(e as BookingEvent);
      expect(serialize(sut.snapshot), e.type).toBe(before);
    }
    sut.stop();
  });

  it('persists the form before pricing and clears storage on the confirmation', async () => {
    const sut = run(model, INPUTS['a first visit']);
    await sut.exec({ type: 'home.submit', bookingType: 'milleage', form: bookingForm });
    expect(sut.actionsCalled.map((a) => a.type)).toEqual(['persist']);
    expect(sut.calls).toEqual([{ service: 'calculatePrice', input: { bookingType: 'milleage', form: bookingForm, settings } }]);
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
    const sut = run(model, INPUTS['a first visit']);
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

  it('offers Pay In Car only when SHOWPAYINCAR allows it (SPEC 9)', () => {
    const can = (SHOWPAYINCAR?: string) => {
      const sut = run(model, { path: '/paymentview', settings: { ...settings, ...(SHOWPAYINCAR ? { SHOWPAYINCAR } : {}) }, stored: everyStep });
      expect(sut.snapshot.matches({ payment: 'choosing' })).toBe(true);
      const yes = sut.snapshot.can({ type: 'payment.payInCar' });
      sut.send({ type: 'payment.payInCar' });
      const calls = sut.calls.length;
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
    expect(filled).toMatchObject({ firstName: 'Amelia', surname: 'Hart', email: 'amelia@example.com', number: '+44 770 090 012' });
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
});
