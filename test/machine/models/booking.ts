// The model of machines/booking.ts that paths are generated from (test/machine/modelPaths.ts): the events a
// test may send, the inputs it starts from, and the SPEC facts each state keeps. Replayed on the machine by
// ../booking.model.test.ts, and in Chromium against the real server by test/paths.
import { expect } from 'vitest';
import { createActor, fromPromise, type AnyEventObject } from 'xstate';
import { amountPence, attemptFingerprint, availableBookingTypes, bookingInput, bookingMachine, type Attempt, type PaymentMethod, type BookingContext, type BookingEvent, type BookingInput, type BookingSnapshot } from '../../../machines/booking';
import { bookingLocation, pathOf } from '../../../machines/bookingLocation';
import { hasRegistration } from '../../../machines/bookingSteps';
import type { CardPaymentInput, CardPaymentOutput } from '../../../machines/cardPayment';
import type { Session } from '../../../machines/account';
import { decode } from '../../../src/domain/encoding';
import { allowsGuests, showsCard, showsPayInCar } from '../../../src/domain/settings';
import {
  ACCOUNT_EXISTS, EMAIL_CHECK_FAILED_PREFIX, EMAIL_FOUND, EMAIL_NOT_FOUND, PASSWORD_RESET_DONE, QUOTE_FAILED, QUOTE_SENT, SAME_PLACE, unknownPlaceMessage,
} from '../../../src/domain/messages';
import { AddressError } from '../../../src/domain/places';
import { AccountFieldError, type AccountBilling } from '../../../src/domain/accountPayment';
import type { BookingResponse } from '../../../src/domain/schemas';
import type { FlightCheck } from '../../../src/domain/flights';
import { answers, timePasses, type Model, type ModelEvent, type Step, type Trail } from '../modelPaths';
import { bookingForm, bookingOk, bookingRefused, cardBookingOk, cardKey, client, hourlyForm, prices, quoteRequest, registration, session, settings } from '../fixtures';

export const PATHS = ['/', '/home', '/booktripview', '/quotationview', '/personalDetailView', '/paymentview', '/checkout', '/stripecheckout', '/paymentSuccessView', '/forgot_password', '/no-such-page'];
export const url = (path: string, search = ''): BookingEvent => ({ type: 'url.changed', path, search });

export const price = answers(bookingMachine, 'calculatePrice');
export const emailCheck = answers(bookingMachine, 'checkEmail');
export const create = answers(bookingMachine, 'createBooking');
export const quote = answers(bookingMachine, 'sendQuote');
export const forgot = answers(bookingMachine, 'forgotPassword');
export const card = answers(bookingMachine, 'cardPayment');
export const billing = answers(bookingMachine, 'loadBilling');
export const SERVICES = ['calculatePrice', 'checkEmail', 'createBooking', 'sendQuote', 'forgotPassword', 'cardPayment', 'loadBilling'] as const;
/** Issue 44: a signed-in booker's company account, as the payment step loads it: active with a required PO number. */
export const ACTIVE_ACCOUNT: AccountBilling = {
  name: 'Northbridge Consulting', status: 'active', reason: '',
  fields: [{ id: 7, label: 'PO number', required: true, options: [] }, { id: 8, label: 'Cost centre', required: false, options: ['Sales', 'Finance'] }],
};
export const ON_HOLD: AccountBilling = { ...ACTIVE_ACCOUNT, status: 'suspended', reason: 'invoice INV-000012 is overdue' };
export const PO_GIVEN = { 7: 'PO-4471', 8: 'Sales' };
export const PO_MISSING = { 7: '', 8: 'Sales' };
export const PO_REFUSED = new AccountFieldError('Enter the PO number: your company asks for it on every booking.', '7');
export const INTENT_ID = 'pi_3TestIntent';
/** The flight numbers typed on the details step (SPEC 2 'Personal details'). */
export const FLIGHTS = { pickup_fight_number: 'BA 117', return_fight_number: '' };
/** Issue 42: the details step's look-up of a flight that does not land at the pickup's airport that day. */
export const FLIGHT_FLAGGED: FlightCheck = {
  number: 'BA 117', checked: true, warning: 'BA 117 does not land at Heathrow on 12 Sep: check the number', words: null, terminal: null,
};

export const EVENTS: ModelEvent<BookingEvent>[] = [
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
  { type: 'details.changed', mode: 'new_client', registration, flights: FLIGHTS },
  { type: 'flight.checked', check: FLIGHT_FLAGGED },
  { type: 'details.submit', mode: 'guest_login', registration },
  { type: 'details.submit', mode: 'new_client', registration: client },
  { type: 'details.submit', mode: 'existing_client', registration: client },
  { type: 'payment.payInCar' },
  { type: 'payment.payByCard' },
  // Issue 44: the booker's account loads (active, or on hold) and they pay on it, with or without the PO number.
  billing.done(ACTIVE_ACCOUNT),
  billing.done(ON_HOLD),
  billing.fails(new Error('Network down')),
  { type: 'payment.payOnAccount', fields: PO_GIVEN },
  { type: 'payment.payOnAccount', fields: PO_MISSING },
  create.fails(PO_REFUSED),
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
  price.fails(new AddressError(unknownPlaceMessage(hourlyForm.pickup), 'pickup')),
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

export const guestsOff = { ...settings, GUEST_LOGIN: 'disable' };
/** SPEC 9: SHOWCARD yes shows Pay By Card (the other inputs' settings leave it out: no card payments). */
export const cardOn = { ...settings, SHOWCARD: 'yes' };
export const vehicleChosen = { bookingForm, priceDetails: prices, selectedVehicle: prices[0] };
export const everyStep = { bookingType: 'milleage' as const, ...vehicleChosen, quantity: 1, registration };

/**
 * The card page's child, as the wizard sees it: started with the booking, the amount and the intent of a reload.
 * (The test runs answer it as they answer a service; the walk only reads what it was started with.)
 */
export const cardStandIn = fromPromise<CardPaymentOutput, CardPaymentInput>(() => new Promise(() => {}));
export const machine = bookingMachine.provide({ actors: { cardPayment: cardStandIn as never } });

/** What the server is asked to book and how it is paid, but the key (and never the password). */
export function requestOf(c: BookingContext, paymentMethod: PaymentMethod): string {
  const { idempotencyKey: _key, registration: r, ...rest } = bookingInput(c, paymentMethod);
  const { password: _password, ...shown } = r ?? {};
  return JSON.stringify({ ...rest, registration: shown });
}

/** A reload of the card page: the attempt the earlier visit stored, with the intent it made (SPEC 4 'Card payment'). */
export const reloadBase: BookingInput = { path: '/stripecheckout', settings: cardOn, stored: everyStep };
export const reloadContext = createActor(machine, { input: reloadBase }).getSnapshot().context;
export const storedAttempt: Attempt = {
  key: '0a1b2c3d4e5f60718293a4b5c6d7e8f9', fingerprint: attemptFingerprint(reloadContext, 'card'), intentId: 'pi_2EarlierIntent',
};
export const reload: BookingInput = { ...reloadBase, stored: { ...everyStep, attempt: storedAttempt } };
/** The requests the inputs' stored attempts were made for. */
export const storedRequests = new Map<BookingInput, string>([[reload, `card ${requestOf(reloadContext, 'card')}`]]);

export const INPUTS: Record<string, BookingInput> = {
  'a first visit (card payments and hourly hire on)': { path: '/', settings: { ...cardOn, HOURLY_RATE_STATUS: 'enable' }, stored: {} },
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
export const FIRST = 'a first visit (card payments and hourly hire on)';

/** The passenger signed in now: the last session the app shared, or the one the wizard started with. */
export function sessionNow(trail: Trail<BookingSnapshot>, input: BookingInput): Session | null {
  const last = [...trail].reverse().find((s) => s.event.type === 'session.changed');
  return last ? (last.event as Extract<BookingEvent, { type: 'session.changed' }>).session : input.session ?? null;
}

/** SPEC 2: each step needs the earlier steps' data, and has its own route; SPEC 4, 9 and the settings' rules on the way. */
export function holdsSpecInvariants(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
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
  // SPEC 4 'Quotation': the vehicle chosen, and its quantity (the Lowest Price card books one vehicle).
  const chose = trail.at(-1)?.event;
  if (chose?.type === 'quotation.select') {
    const e = chose as Extract<BookingEvent, { type: 'quotation.select' }>;
    expect([c.selectedVehicle, c.selectionType, c.quantity]).toEqual([e.vehicle, e.selectionType, e.selectionType === 'lowest' ? 1 : e.quantity]);
  }

  const last = trail.at(-1)?.event;
  // GUEST_LOGIN: a guest reaches the payment step (by Next, or by opening /paymentview with saved details) only
  // when guests may book, or as a signed-in passenger.
  const arrives = !last || last.type === 'url.changed' || last.type === 'details.submit';
  if (arrives && (s.matches('payment') || s.matches('checkout') || s.matches('card')) && c.registrationMode === 'guest_login') {
    expect(allowsGuests(input.settings) || sessionNow(trail, input) !== null).toBe(true);
  }
  // SPEC 9: Pay In Car books only where SHOWPAYINCAR offers it; issue 44: on account only an active account's booker,
  // every required field given.
  if (s.matches({ payment: 'booking' }) && c.paymentMethod !== 'account') expect(showsPayInCar(input.settings)).toBe(true);
  if (s.matches({ payment: 'booking' }) && trail.at(-1)?.event.type === 'payment.payOnAccount') {
    expect([c.billing?.status, c.accountFields[7]]).toEqual(['active', expect.stringMatching(/./)]);
  }
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
  keepsWhatWasGiven(s, trail);
  savesEveryChange(s, trail, input);
  waitsOnlyForAnswers(s);
  keepsOneKeyPerRequest(s, trail, input);
  checksTheEmail(s, trail);
  asksTheServices(s, trail, input);
  looksUpTheFlight(s, trail, input);
}

/**
 * Issue 42: the pickup's flight is looked up while the details step is open, and only then, for the trip's own
 * flight, date and pickup; what the look-up says is shown there, and a new visit to the step starts with nothing said.
 */
export function looksUpTheFlight(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
  const c = s.context;
  expect(Boolean((s.children as Record<string, unknown>).checkFlight), 'the flight is looked up on the details step, and only there').toBe(s.matches('details'));
  if (!trail.length) return;
  const prev = trail.at(-2)?.state ?? openingOf(input);
  const entered = s.matches('details') && !prev.matches('details');
  if (entered) {
    const form = c.bookingType === 'milleage' ? c.bookingForm : null;
    expect(inputOf(s, 'checkFlight')).toEqual({ number: form?.pickup_fight_number ?? '', date: form?.pickup_date ?? '', pickup: form?.pickup ?? '' });
    expect(c.flightCheck, 'a new visit starts with nothing said').toBeNull();
  }
  const last = trail.at(-1)?.event as { type: string; check?: FlightCheck } | undefined;
  if (last?.type === 'flight.checked') {
    expect(c.flightCheck).toEqual(prev.matches('details') ? last.check : prev.context.flightCheck);
  }
}

type Answer = { type: string; output?: unknown; error?: unknown };

/**
 * What the person typed or chose, and what the server answered, is what the wizard holds: the forms as sent, the
 * details and flights as typed, the way of paying, the booking made; a dialog closed leaves no message behind, and the
 * quote's answers are SPEC 8's (a sent quote forgets the saved booking form, SPEC 4 'Quote send').
 */
export function keepsWhatWasGiven(s: BookingSnapshot, trail: Trail<BookingSnapshot>) {
  const step = trail.at(-1);
  if (!step) return;
  const e = step.event as AnyEventObject & Answer;
  const c = s.context;
  switch (e.type) {
    // While its prices are fetched the form is held as it was sent.
    case 'home.hourlyChanged': if (!s.matches({ home: 'pricing' })) expect(c.hourlyForm).toEqual(e.form); break;
    case 'home.submit':
      expect([c.bookingType, e.bookingType === 'milleage' ? c.bookingForm : c.hourlyForm]).toEqual([e.bookingType, e.form]);
      break;
    case 'details.changed':
      expect([c.registrationMode, c.registration]).toEqual([e.mode, e.registration]);
      if (trail.at(-2)?.state.context.bookingForm ?? c.bookingForm) expect(c.bookingForm).toMatchObject(e.flights ?? {});
      break;
    case 'payment.payInCar': expect([c.paymentMethod, c.error]).toEqual(['car', null]); break;
    case 'payment.payByCard': expect([c.paymentMethod, c.error]).toEqual(['card', null]); break;
    // Issue 44: paid on account with the fields given, or (a required one missing, no active account) not at all.
    case 'payment.payOnAccount':
      if (s.matches({ payment: 'booking' })) expect([c.paymentMethod, c.accountFields, c.accountFieldError]).toEqual(['account', e.fields, null]);
      else expect(s.context).toBe(trail.at(-2)?.state.context ?? s.context);
      break;
    case 'error.dismissed': expect([c.error, c.notice]).toEqual([null, null]); break;
    default:
  }
  if (e.type === create.done().type) {
    const r = e.output as BookingResponse;
    if (r.success) expect(c.booking).toEqual(r.data);
    else expect(c.error).toBe(r.message);
  }
  if (e.type === create.fails(null).type && !(e.error instanceof AddressError) && !(e.error instanceof AccountFieldError)) {
    expect(c.error).toBe((e.error as Error).message);
  }
  // Issue 44: a value of the account's fields the server refused is shown under its field, back at the choice.
  if (e.type === create.fails(null).type && e.error instanceof AccountFieldError) {
    expect([s.value, c.error, c.accountFieldError]).toEqual([{ payment: 'choosing' }, null, { fieldId: e.error.fieldId, message: e.error.message }]);
  }
  if (e.type === billing.done().type) expect(c.billing).toEqual(e.output);
  if (e.type === quote.done().type && (e.output as { success: boolean }).success) expect([c.bookingForm, c.notice]).toEqual([null, QUOTE_SENT]);
  if ((e.type === quote.done().type && !(e.output as { success: boolean }).success) || e.type === quote.fails(null).type) expect(c.error).toBe(QUOTE_FAILED);
  // The quote form is sent as the person filled it.
  if (s.matches({ quote: 'sending' })) expect(inputOf(s, 'sendQuote')).toEqual(quoteRequest);
  // A dialog on the quote form closes: the form shows no message of the last one.
  if (s.matches({ quote: 'form' }) && trail.at(-2)?.state.matches('quote')) expect([c.error, c.notice]).toEqual([null, null]);
}

/** What SPEC 3 keeps in browser storage for the wizard (never a password): a reload restores the visit from it. */
const storedPart = (c: BookingContext) => {
  const { password: _password, ...registration } = c.registration ?? {};
  return JSON.stringify([
    c.bookingType, c.bookingForm, c.hourlyForm, c.priceDetails, c.trip, c.selectedVehicle, c.selectedVehicle ? [c.quantity, c.selectionType] : null,
    c.registrationMode, c.registration ? registration : null, c.paymentMethod, c.attempt,
  ]);
};

/**
 * SPEC 4: what the visitor typed and chose (the forms, the prices, the vehicle, the mode and details, the way of paying)
 * is saved on every change and restored on load: a step that changes it saves it (or, on the confirmation, clears it).
 */
export function savesEveryChange(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
  const step = trail.at(-1);
  if (!step) return;
  const before = trail.at(-2)?.state ?? openingOf(input);
  if (storedPart(before.context) === storedPart(s.context)) return;
  const saved = step.effects.actions.map((a) => a.type);
  expect(saved.includes('persist') || saved.includes('clearStoredBooking'), `"${step.event.type}" changed what is stored without saving it`).toBe(true);
}

/** The calls whose answer decides the next screen: while one is on its way the page is busy (the app holds the URL). */
const DECIDING_CALLS = ['calculatePrice', 'checkEmail', 'createBooking', 'sendQuote'];

/** Busy exactly while the next screen is the server's answer, or the urgent notice's move to /quoteView (SPEC 8). */
export function waitsOnlyForAnswers(s: BookingSnapshot) {
  const calling = DECIDING_CALLS.some((id) => (s.children as Record<string, unknown>)[id] !== undefined);
  expect(s.hasTag('busy'), 'busy while a deciding call or the urgent redirect is pending').toBe(calling || s.matches({ home: 'urgent' }));
}

/** SPEC 4 'Personal details' and SPEC 8: what the e-mail check's answer does, word for word. */
export function checksTheEmail(s: BookingSnapshot, trail: Trail<BookingSnapshot>) {
  const last = trail.at(-1)?.event as Answer | undefined;
  const c = s.context;
  const mode = trail.at(-2)?.state.context.registrationMode;
  if (last?.type === emailCheck.fails(null).type) {
    expect([s.value, c.error]).toEqual([{ details: 'rejected' }, EMAIL_CHECK_FAILED_PREFIX + (last.error as Error).message]);
  }
  if (last?.type !== emailCheck.done().type) return;
  const r = last.output as { success: boolean; found: boolean; message: string };
  // A new client needs an e-mail no account has; an existing client needs the right password.
  const accepted = mode === 'existing_client' ? r.success === true : r.found === false;
  if (accepted) {
    expect([s.matches('payment'), c.notice]).toEqual([true, mode === 'existing_client' ? EMAIL_FOUND : null]);
  } else {
    expect([s.value, c.error]).toEqual([{ details: 'rejected' }, mode === 'new_client' ? ACCOUNT_EXISTS : r.found ? r.message : EMAIL_NOT_FOUND]);
  }
}

const openings = new Map<BookingInput, BookingSnapshot>();
/** The state an input opens the wizard in. */
function openingOf(input: BookingInput): BookingSnapshot {
  if (!openings.has(input)) openings.set(input, createActor(machine, { input }).getSnapshot());
  return openings.get(input)!;
}

/** What a service is started with (its invoke input), while its state is on. */
const inputOf = (s: BookingSnapshot, id: string) =>
  (s.children as Record<string, { getSnapshot(): { input?: unknown } } | undefined>)[id]?.getSnapshot().input;

/** Each call is made with what the visitor gave: the form of the tab on screen, the e-mail and password typed, the booking. */
export function asksTheServices(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
  const c = s.context;
  if (s.matches({ home: 'pricing' })) {
    expect(inputOf(s, 'calculatePrice')).toEqual({
      bookingType: c.bookingType, form: c.bookingType === 'milleage' ? c.bookingForm : c.hourlyForm, settings: c.settings,
    });
  }
  if (s.matches({ details: 'checkingEmail' })) {
    expect(inputOf(s, 'checkEmail')).toEqual({ email: c.registration!.email, password: c.registration!.password ?? '' });
  }
  const before = trail.length >= 2 ? trail.at(-2)!.state : trail.length === 1 ? openingOf(input) : null;
  const entered = (state: Parameters<BookingSnapshot['matches']>[0]) => s.matches(state) && !before?.matches(state);
  if (entered({ payment: 'booking' })) expect(inputOf(s, 'createBooking')).toEqual(bookingInput(c, c.paymentMethod === 'account' ? 'account' : 'car'));
  // Issue 44: the payment step asks for the signed-in booker's account with their token (a guest's, with none).
  if (entered('payment')) expect(inputOf(s, 'loadBilling')).toEqual({ token: c.session?.token ?? null });
  // The reset form starts with the e-mail of the details (as its input, or in its context for the real machine).
  if (entered('forgotPassword')) {
    const child = (s.children as Record<string, { getSnapshot(): { input?: { email: string }; context?: { email: string } } } | undefined>).forgotPassword;
    const started = child?.getSnapshot();
    expect((started?.input ?? started?.context)?.email).toBe(c.registration?.email ?? '');
  }
  // The card page starts with the intent a reload kept (the intent made later is the child's own).
  if (entered('card')) {
    expect(inputOf(s, 'cardPayment')).toEqual({ booking: bookingInput(c, 'card'), amountPence: amountPence(c), intentId: c.attempt?.intentId ?? null });
  }
}

/**
 * Decision 23: an address a price or booking call refused is shown in the form, under the input it is about, with
 * the text it refused, never in the Error dialog; nothing typed is lost. Refused by the booking call, the trip's
 * prices and vehicle no longer stand.
 */
export function showsRefusedAddressesInTheForm(s: BookingSnapshot, trail: Trail<BookingSnapshot>) {
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
export const pounds = (c: BookingContext) => ((Math.round(Number(c.selectedVehicle!.price) * 100) * c.quantity) / 100).toFixed(2);

/** The way of paying of an attempt the step started: Pay In Car books, and the card page starts (again) on entry. */
export function attemptStarted(event: ModelEvent | null, state: BookingSnapshot): PaymentMethod | null {
  if (event?.type === 'payment.payInCar' && state.matches({ payment: 'booking' })) return 'car';
  if (event?.type === 'payment.payOnAccount' && state.matches({ payment: 'booking' })) return 'account';
  if (state.matches('card') && (event === null || event.type === 'payment.payByCard' || event.type === 'url.changed')) return 'card';
  return null;
}

/**
 * One Idempotency-Key per request and way of paying: an attempt for the same request as the last one (since the
 * last confirmation, or the one stored) keeps its key (and its intent); any other gets a new key and no intent. The
 * card page's intent is kept on the attempt (and stored) when the child makes it.
 */
export function keepsOneKeyPerRequest(s: BookingSnapshot, trail: Trail<BookingSnapshot>, input: BookingInput) {
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
export const serialize = (s: BookingSnapshot) => JSON.stringify([
  s.value, pathOf(s), s.context.priceDetails !== null, s.context.selectedVehicle !== null,
  hasRegistration(s.context), s.context.registrationMode, s.context.booking !== null,
  allowsGuests(s.context.settings) || s.context.session !== null,
  // On the card and payment pages: the card page's URL, and the intent a new card page resumes. (Elsewhere they
  // would only multiply the states the walk meets.)
  ...(s.matches('card') || s.matches('payment') ? [s.context.cardKey !== null, s.context.attempt?.intentId != null] : []),
  // On the payment page: the booker's account as loaded (what Pay on account's guard reads), a field refused.
  ...(s.matches('payment') ? [s.context.billing?.status ?? null, s.context.accountFieldError !== null] : []),
]);

/** SPEC 2, 4 and 8: what a person can do on each screen of the wizard (its forms, buttons and dialogs). */
export function offers(s: BookingSnapshot): ModelEvent<BookingEvent>[] {
  const c = s.context;
  const types = availableBookingTypes(c.settings);
  const dismiss: ModelEvent<BookingEvent> = { type: 'error.dismissed' };
  if (s.matches({ home: 'editing' })) {
    return [
      { type: 'home.submit', bookingType: c.bookingType, form: c.bookingType === 'milleage' ? bookingForm : hourlyForm } as ModelEvent<BookingEvent>,
      ...types.filter((t) => t !== c.bookingType).map((t) => ({ type: 'home.typeChanged', bookingType: t }) as ModelEvent<BookingEvent>),
      ...(types.includes('hourly') ? [{ type: 'home.hourlyChanged', form: hourlyForm } as ModelEvent<BookingEvent>] : []),
    ];
  }
  if (s.matches('quotation')) return [{ type: 'quotation.select', vehicle: prices[1], quantity: 2, selectionType: 'selection' }];
  if (s.matches({ details: 'editing' })) {
    const guest = allowsGuests(c.settings) || c.session !== null;
    return [
      { type: 'details.changed', mode: 'new_client', registration, flights: FLIGHTS },
      guest ? { type: 'details.submit', mode: 'guest_login', registration } : { type: 'details.submit', mode: 'new_client', registration: client },
      { type: 'details.submit', mode: 'existing_client', registration: client },
    ];
  }
  if (s.matches({ payment: 'choosing' })) {
    return [...showsPayInCar(c.settings) ? [{ type: 'payment.payInCar' } as const] : [], ...showsCard(c.settings) ? [{ type: 'payment.payByCard' } as const] : []];
  }
  // A page waiting for a call acts on each of its answers.
  if (s.matches({ home: 'pricing' })) return [price.done({ prices, trip: null }), price.fails(new Error('Network down'))];
  if (s.matches({ details: 'checkingEmail' })) return [emailCheck.done({ success: true, found: true, message: EMAIL_FOUND }), emailCheck.fails(new Error('Network down'))];
  if (s.matches({ payment: 'booking' })) return [create.done(bookingOk), create.fails(new Error('Network down'))];
  if (s.matches({ quote: 'sending' })) return [quote.done({ success: true }), quote.fails(new Error('Network down'))];
  if (s.matches('card')) return [{ type: 'card.keyLoaded', publishableKey: cardKey.publishableKey }, { type: 'card.intentCreated', intentId: INTENT_ID }];
  if (s.matches({ quote: 'form' })) return [{ type: 'quote.submit', request: quoteRequest }];
  // Every dialog closes: the price error, the e-mail check's refusal, the booking error, the quote's answers and notice.
  if (['home.failed', 'details.rejected', 'payment.failed', 'quote.notice', 'quote.sent', 'quote.failed'].some((v) => s.matches(v as never))) {
    return [dismiss];
  }
  return [];
}

export const model: Model<typeof bookingMachine> = {
  name: 'booking machine',
  machine,
  events: EVENTS,
  inputs: INPUTS,
  serialize,
  facts: holdsSpecInvariants,
  factsTitle: "SPEC 2's step rules",
  offers,
  services: SERVICES,
  actions: ['persist', 'clearStoredBooking'],
  describeState: (s) => {
    const v = s.value;
    return (typeof v === 'string' ? v : Object.entries(v).map(([k, x]) => `${k}.${x}`).join(', ')) + (s.matches('home') ? ` at ${pathOf(s)}` : '');
  },
};
