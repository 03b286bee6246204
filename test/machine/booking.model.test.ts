// Model-based tests of machines/booking.ts (./modelPaths.ts): for every transition the machine defines, the
// shortest path that takes it is generated from the machine (a breadth-first walk from each starting input:
// the settings, the checked storage and the session the app starts it with) and replayed, as its own test, on
// a real actor whose invoked services (the forgot-password and card-payment child machines among them) and clock
// are controlled by the test. Every transition must be taken at least once, and SPEC 2's step rules must hold in
// every state. The card page's child machine is a stand-in here (its own steps: ./cardPayment.model.test.ts): it
// is started with the booking, tells the wizard the key and the intent, and answers with the booking.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import {
  attemptFingerprint, bookingInput, bookingLocation, bookingMachine, pathOf,
  type Attempt, type BookingContext, type BookingEvent, type BookingInput, type BookingSnapshot,
} from '../../machines/booking';
import { hasRegistration } from '../../machines/bookingSteps';
import type { CardPaymentInput, CardPaymentOutput } from '../../machines/cardPayment';
import { forgotPasswordMachine, type ForgotPasswordEvent } from '../../machines/forgotPassword';
import type { Session } from '../../machines/account';
import { isBusy } from '../../machines/shared';
import { decode, encode } from '../../src/domain/encoding';
import { allowsGuests, showsCard, showsPayInCar } from '../../src/domain/settings';
import { PASSWORD_RESET_DONE, RESET_CODE_SENT, RESET_CODE_VERIFIED, SAME_PLACE, unknownPlaceMessage } from '../../src/domain/messages';
import { AddressError } from '../../src/domain/places';
import { answers, run, testModel, timePasses, toChild, type Model, type ModelEvent, type Step, type Trail } from './modelPaths';
import {
  bookingForm, bookingOk, bookingRefused, cardBookingOk, cardKey, client, hourlyForm, prices, quoteRequest, registration, session, settings,
} from './fixtures';

const PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/checkout', '/stripecheckout', '/paymentSuccessView', '/forgot_password', '/no-such-page'];
const url = (path: string, search = ''): BookingEvent => ({ type: 'url.changed', path, search });

const price = answers(bookingMachine, 'calculatePrice');
const emailCheck = answers(bookingMachine, 'checkEmail');
const create = answers(bookingMachine, 'createBooking');
const quote = answers(bookingMachine, 'sendQuote');
const forgot = answers(bookingMachine, 'forgotPassword');
const card = answers(bookingMachine, 'cardPayment');
const SERVICES = ['calculatePrice', 'checkEmail', 'createBooking', 'sendQuote', 'forgotPassword', 'cardPayment'] as const;
const INTENT_ID = 'pi_3TestIntent';

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
  { type: 'payment.payByCard' },
  // What the card page's child machine tells the wizard: the provider's key, the intent it made, the booking.
  { type: 'card.keyLoaded', publishableKey: cardKey.publishableKey },
  { type: 'card.intentCreated', intentId: INTENT_ID },
  card.done({ booking: cardBookingOk.data! } satisfies CardPaymentOutput),
  { type: 'quote.submit', request: quoteRequest },
  price.done({ prices, trip: { via_miles: 20.4, time_duration: 3000 } }),
  price.fails(new Error('Pickup time is within the grace period')),
  price.fails(new Error('Sorry we don\'t have any vehicle with requested options')),
  // Decision 23: the server refused an address of the form (its 422 names the field).
  price.fails(new AddressError(SAME_PLACE, 'dropoff')),
  emailCheck.done({ success: true, found: true, message: 'Email found. Proceeding to payment.' }),
  emailCheck.done({ success: false, found: false, message: 'Email not found' }),
  emailCheck.done({ success: false, found: true, message: 'The password is not correct' }),
  emailCheck.fails(new Error('Network down')),
  create.done(bookingOk),
  create.done(bookingRefused),
  create.fails(new Error('Network down')),
  create.fails(new AddressError(unknownPlaceMessage(bookingForm.pickup), 'pickup')),
  quote.done({ success: true }),
  quote.done({ success: false }),
  quote.fails(new Error('Network down')),
  // The forgot-password child finishes (its own steps: ./forgotPassword.model.test.ts).
  forgot.done({ email: 'amelia@example.com', message: PASSWORD_RESET_DONE }),
  timePasses(bookingMachine, 'home.urgent'),
  timePasses(bookingMachine, 'quote.notice'),
];

const guestsOff = { ...settings, GUEST_LOGIN: 'disable' };
/** SPEC 9: SHOWCARD yes shows Pay By Card (the other inputs' settings leave it out: no card payments). */
const cardOn = { ...settings, SHOWCARD: 'yes' };
const vehicleChosen = { bookingForm, priceDetails: prices, selectedVehicle: prices[0] };
const everyStep = { bookingType: 'milleage' as const, ...vehicleChosen, quantity: 1, registration };

/**
 * The card page's child, as the wizard sees it: started with the booking, the amount and the intent of a reload.
 * (The test runs answer it as they answer a service; the walk only reads what it was started with.)
 */
const cardStandIn = fromPromise<CardPaymentOutput, CardPaymentInput>(() => new Promise(() => {}));
const machine = bookingMachine.provide({ actors: { cardPayment: cardStandIn as never } });

/** What the server is asked to book and how it is paid, but the key (and never the password). */
function requestOf(c: BookingContext, paymentMethod: 'car' | 'card'): string {
  const { idempotencyKey: _key, registration: r, ...rest } = bookingInput(c, paymentMethod);
  const { password: _password, ...shown } = r ?? {};
  return JSON.stringify({ ...rest, registration: shown });
}

/** A reload of the card page: the attempt the earlier visit stored, with the intent it made (SPEC 4 'Card payment'). */
const reloadBase: BookingInput = { path: '/stripecheckout', settings: cardOn, stored: everyStep };
const reloadContext = createActor(machine, { input: reloadBase }).getSnapshot().context;
const storedAttempt: Attempt = {
  key: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', fingerprint: attemptFingerprint(reloadContext, 'card'), intentId: 'pi_2EarlierIntent',
};
const reload: BookingInput = { ...reloadBase, stored: { ...everyStep, attempt: storedAttempt } };
/** The requests the inputs' stored attempts were made for. */
const storedRequests = new Map<BookingInput, string>([[reload, `card ${requestOf(reloadContext, 'card')}`]]);

const INPUTS: Record<string, BookingInput> = {
  'a first visit (card payments on: SHOWCARD yes)': { path: '/', settings: cardOn, stored: {} },
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
  'card payments on, every step stored, the payment page asked for': { path: '/paymentview', settings: cardOn, stored: everyStep },
  'a reload of the card page after an intent was made': reload,
  'a return visit to the review (/checkout) with every step stored': { path: '/checkout', settings, stored: everyStep },
};
const FIRST = 'a first visit (card payments on: SHOWCARD yes)';

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
  // SPEC 2 '/stripecheckout': the card page needs what the payment step needs, and SHOWCARD (SPEC 9).
  if (s.matches('card')) {
    expect([path, c.priceDetails !== null, c.selectedVehicle !== null, c.registration !== null])
      .toEqual(['/stripecheckout', true, true, true]);
    if (c.registrationMode !== 'guest_login') expect(c.registration!.password).toBeTruthy();
    expect(showsCard(input.settings)).toBe(true);
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
  if (arrives && (s.matches('payment') || s.matches('checkout') || s.matches('card')) && c.registrationMode === 'guest_login') {
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

  // SPEC 2: /stripecheckout is the card page with complete details and SHOWCARD; with complete details but no
  // SHOWCARD it is the payment step; else it falls back like /paymentview: details, then quotation, then /home.
  const asked = last?.type === 'url.changed' ? last.path : trail.length === 0 ? input.path : null;
  if (asked === '/stripecheckout') {
    expect(path).toBe(hasRegistration(c) ? (showsCard(input.settings) ? '/stripecheckout' : '/paymentview')
      : c.priceDetails && c.selectedVehicle ? '/personalDetailView' : c.priceDetails ? '/quotationview' : '/home');
  }
  // SPEC 2 '/checkout' (the payment step's review) needs what the payment step needs, and falls back as it does.
  if (asked === '/checkout') {
    expect(path).toBe(hasRegistration(c) ? '/checkout'
      : c.priceDetails && c.selectedVehicle ? '/personalDetailView' : c.priceDetails ? '/quotationview' : '/home');
  }
  // SPEC 2: the card page's URL carries the provider's key and the amount (pounds, as "93.52"), both encoded, once
  // this visit to the card page has told the wizard the key; no query before, nor on any other page.
  const location = bookingLocation(s)!;
  expect(location.path).toBe(path);
  const keyAt = trail.findLastIndex((step) => step.event.type === 'card.keyLoaded');
  const visitAt = trail.findLastIndex((step) => step.state.matches('card') && ['url.changed', 'payment.payByCard'].includes(step.event.type));
  if (s.matches('card') && keyAt > visitAt) {
    const query = new URLSearchParams(location.search);
    expect([...query.keys()]).toEqual(['stripeKey', 'amount']);
    const told = trail[keyAt].event as Extract<BookingEvent, { type: 'card.keyLoaded' }>;
    expect([decode(query.get('stripeKey')), decode(query.get('amount'))]).toEqual([told.publishableKey, pounds(c)]);
    expect(c.cardKey).toBe(told.publishableKey);
  } else {
    expect(location.search).toBe('');
  }
  // SPEC 4 'Payment method': Pay By Card goes to the card page; the card page's booking is the confirmation.
  if (last?.type === 'payment.payByCard') expect(path).toBe('/stripecheckout');
  if (last?.type === card.done().type) {
    const out = (last as { output: CardPaymentOutput }).output;
    expect([path, c.booking]).toEqual(['/paymentSuccessView', out.booking]);
    expect(trail.at(-1)!.effects.actions.map((a) => a.type)).toContain('clearStoredBooking');
  }
  showsRefusedAddressesInTheForm(s, trail);
  keepsOneKeyPerRequest(s, trail, input);
}

/**
 * Decision 23: an address a price or booking call refused is shown in the form, under the input it is about, with
 * the text it refused, never in the Error dialog; nothing typed is lost. Refused by the booking call, the trip's
 * prices and vehicle no longer stand.
 */
function showsRefusedAddressesInTheForm(s: BookingSnapshot, trail: Trail<BookingSnapshot>) {
  const last = trail.at(-1);
  const error = (last?.event as { error?: unknown } | undefined)?.error;
  if (!(error instanceof AddressError)) return;
  const c = s.context;
  const before = trail.at(-2)!.state;
  expect(s.matches({ home: 'editing' })).toBe(true);
  expect(c.error).toBeNull();
  const form = c.bookingType === 'milleage' ? c.bookingForm! : c.hourlyForm!;
  expect(c.addressError).toEqual({ field: error.field, message: error.message, text: error.field === 'dropoff' ? c.bookingForm!.dropoff : form.pickup });
  expect([c.bookingType, c.bookingForm, c.hourlyForm, c.registration, c.registrationMode])
    .toEqual([before.context.bookingType, before.context.bookingForm, before.context.hourlyForm, before.context.registration, before.context.registrationMode]);
  if (before.matches('payment')) {
    expect([c.priceDetails, c.selectedVehicle]).toEqual([null, null]);
    expect(last!.effects.actions.map((a) => a.type)).toContain('persist');
  }
}

/** SPEC 4 and 9: the chosen vehicle's price times the quantity, in pounds with pence ("93.52"). */
const pounds = (c: BookingContext) => ((Math.round(Number(c.selectedVehicle!.price) * 100) * c.quantity) / 100).toFixed(2);

/** The way of paying of an attempt the step started: Pay In Car books, and the card page starts (again) on entry. */
function attemptStarted(event: ModelEvent | null, state: BookingSnapshot): 'car' | 'card' | null {
  if (event?.type === 'payment.payInCar' && state.matches({ payment: 'booking' })) return 'car';
  if (state.matches('card') && (event === null || event.type === 'payment.payByCard' || event.type === 'url.changed')) return 'card';
  return null;
}

/**
 * One Idempotency-Key per request and way of paying: an attempt for the same request as the last one (since the
 * last confirmation, or the one stored) keeps its key (and its intent); any other gets a new key and no intent. The
 * card page's intent is kept on the attempt (and stored) when the child makes it.
 */
function keepsOneKeyPerRequest(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
  const stored = input.stored?.attempt ?? null;
  let current: { key: string | null; request: string | null; intentId: string | null } | null = stored
    ? { key: stored.key, request: storedRequests.get(input) ?? null, intentId: stored.intentId } : null;
  const seen = new Set(stored ? [stored.key] : []);
  const steps: (Step<BookingSnapshot> | { event: null; state: BookingSnapshot; effects: null })[] = trail.length
    ? [...trail] : [{ event: null, state: s, effects: null }];
  steps.forEach((step, i) => {
    const c = step.state.context;
    const checking = i === steps.length - 1;
    const method = attemptStarted(step.event, step.state);
    if (method) {
      const request = `${method} ${requestOf(c, method)}`;
      const same = current !== null && current.request === request;
      const key = c.attempt!.key;
      if (checking) {
        if (same && current!.key !== null) expect(key, 'the same request keeps its key').toBe(current!.key);
        if (!same) {
          expect(key).toMatch(/^[0-9a-f]{32}$/);
          expect(seen.has(key), 'a changed request gets a new key').toBe(false);
        }
        expect(c.attempt!.intentId).toBe(same ? current!.intentId : null);
        if (method === 'card') {
          // The card page is started with the booking under this key, the amount in pence and the intent to resume.
          const child = step.state.children.cardPayment?.getSnapshot() as { input: CardPaymentInput } | undefined;
          expect(child?.input).toEqual({
            booking: {
              idempotencyKey: key, bookingType: c.bookingType, bookingForm: c.bookingForm, hourlyForm: c.hourlyForm,
              vehicle: c.selectedVehicle, quantity: c.quantity, mode: c.registrationMode, registration: c.registration,
              paymentMethod: 'card', token: c.session?.token ?? null,
            },
            amountPence: Math.round(Number(pounds(c)) * 100),
            intentId: c.attempt!.intentId,
          });
          if (step.effects) expect(step.effects.actions.map((a) => a.type)).toContain('persist');
        }
      }
      current = { key, request, intentId: same ? current!.intentId : null };
      seen.add(key);
    } else if (step.event?.type === 'card.intentCreated') {
      if (checking) {
        expect(c.attempt).toEqual({ ...trail[i - 1]?.state.context.attempt ?? c.attempt, intentId: step.event.intentId });
        if (current?.key) expect(c.attempt!.key).toBe(current.key);
        expect(step.effects!.actions.map((a) => a.type)).toContain('persist');
      }
      if (current) current = { ...current, intentId: (step.event as unknown as { intentId: string }).intentId };
    } else if (step.state.matches('success')) {
      // The confirmation ends the attempt.
      if (checking) expect(c.attempt).toBeNull();
      current = null;
    } else if (checking && i > 0) {
      expect(c.attempt?.key, 'the key changes only when an attempt starts').toBe(trail[i - 1].state.context.attempt?.key);
    }
  });
}

// States are told apart by what the guards read, not by every field of context (the session only matters to
// the guest rule when the settings turn guests off).
const serialize = (s: BookingSnapshot) => JSON.stringify([
  s.value, pathOf(s), s.context.priceDetails !== null, s.context.selectedVehicle !== null,
  hasRegistration(s.context), s.context.registrationMode, s.context.booking !== null,
  allowsGuests(s.context.settings) || s.context.session !== null,
  // On the card and payment pages: the card page's URL, and the intent a new card page resumes. (Elsewhere they
  // would only multiply the states the walk meets.)
  ...(s.matches('card') || s.matches('payment') ? [s.context.cardKey !== null, s.context.attempt?.intentId != null] : []),
]);

const model: Model<typeof bookingMachine> = {
  name: 'booking machine',
  machine,
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
    expect(sut.calls).toEqual([{ service: 'calculatePrice', input: { bookingType: 'milleage', form: bookingForm, settings: cardOn } }]);
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
      const at = [yes, pathOf(sut.snapshot), sut.calls.length];
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
      const at = [pathOf(sut.snapshot), sut.calls.map((c) => c.service)];
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
    expect(sut.calls).toEqual([{
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
    const cards = sut.calls.filter((c) => c.service === 'cardPayment').map((c) => (c.input as CardPaymentInput).booking.idempotencyKey);
    expect(cards).toEqual([card1, card1, card2, card3, key()]);
    sut.stop();
  });
});
