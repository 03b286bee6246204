// The booking wizard's actions (./booking.ts), each named for the rule it carries. An action that takes a call's
// answer or error gets it as params from its transition (typed there); one that reads an event asserts its type.
import { assertEvent, assign } from 'xstate';
import type { BookingForm, BookingResult, CheckEmailResponse, HourlyRateForm } from '../src/domain/schemas';
import {
  ACCOUNT_EXISTS, BANNED_ADDRESS_MESSAGE, EMAIL_CHECK_FAILED_PREFIX, EMAIL_FOUND, EMAIL_NOT_FOUND, QUOTE_FAILED, QUOTE_SENT,
} from '../src/domain/messages';
import { pathOfScreen } from '../src/domain/screens';
import type { AddressError } from '../src/domain/places';
import { stopText } from '../src/domain/places';
import { homePathFor } from './bookingSteps';
import type { ForgotPasswordOutput } from './forgotPassword';
import type { CardPaymentOutput } from './cardPayment';
import { errorText } from './shared';
import {
  attemptFingerprint, emptyRegistration, newIdempotencyKey, registrationFor, type BookingContext, type BookingEvent, type PaymentMethod,
  type PriceOutput,
} from './bookingContext';
import type { AccountBilling, AccountFieldError } from '../src/domain/accountPayment';

type Args = { context: BookingContext; event: BookingEvent };
/** An assign on the wizard's context, with the params its transitions give it. */
const change = <P extends object | undefined = undefined>(
  assignment: (args: Args, params: P) => Partial<BookingContext>,
) => assign<BookingContext, BookingEvent, P, BookingEvent, never>(assignment);

export const bookingActions = {
  /** Writes the context to browser storage under SPEC 3's keys; provided by the app. */
  persist: () => {},
  /** SPEC 2: opening the confirmation clears browser storage except appSettings; provided by the app. */
  clearStoredBooking: () => {},
  /** Home keeps the path it was opened by (bookingSteps.ts homePathFor). */
  assignHomePath: change(({ context, event }) => ({
    homePath: homePathFor(event.type === 'url.changed' ? event.path : context.requestedPath),
  })),
  assignError: change<{ error: unknown }>((_, { error }) => ({ error: errorText(error) })),
  clearMessages: change(() => ({ error: null, notice: null, addressError: null, accountFieldError: null })),

  // Home: the trip form.
  chooseBookingType: change(({ event }) => {
    assertEvent(event, 'home.typeChanged');
    return { bookingType: event.bookingType, addressError: null };
  }),
  /** SPEC 4: the hourly form is saved on every change. */
  keepHourlyForm: change(({ event }) => {
    assertEvent(event, 'home.hourlyChanged');
    return { hourlyForm: event.form };
  }),
  assignForm: change(({ event }) => {
    assertEvent(event, 'home.submit');
    return event.bookingType === 'milleage'
      ? { bookingType: event.bookingType, bookingForm: event.form as BookingForm }
      : { bookingType: event.bookingType, hourlyForm: event.form as HourlyRateForm };
  }),
  /** New prices: any earlier choice of vehicle is void. */
  assignPrices: change<PriceOutput>((_, { prices, trip }) => ({ priceDetails: prices, trip, selectedVehicle: null, quantity: 1 })),
  /** On the move to /quoteView: why the notice opened (its message is still the error on screen). */
  assignUrgentReason: change(({ context }) => ({ urgentReason: context.error === BANNED_ADDRESS_MESSAGE ? 'banned' : 'grace' })),
  /** Decision 23: the refused address, with the text it had, for the form to show under its input. */
  assignAddressError: change<{ error: unknown }>(({ context }, params) => {
    const { field, message } = params.error as AddressError;
    const form = context.bookingType === 'milleage' ? context.bookingForm : null;
    const stop = /^stops\.(\d+)$/.exec(field);
    const text = stop ? stopText(form?.stops[Number(stop[1])] ?? { street_name: '' })
      : field === 'dropoff' ? form?.dropoff ?? '' : (form ?? context.hourlyForm)?.pickup ?? '';
    return { addressError: { field, message, text } };
  }),
  /** The trip's prices and vehicle no longer stand: its address was refused. */
  voidPrices: change(() => ({ priceDetails: null, trip: null, selectedVehicle: null })),

  // Quotation and details.
  assignVehicle: change(({ event }) => {
    assertEvent(event, 'quotation.select');
    // SPEC 3: 'lowest' means quantity 1.
    return { selectedVehicle: event.vehicle, quantity: event.selectionType === 'lowest' ? 1 : event.quantity, selectionType: event.selectionType };
  }),
  /** SPEC 4: the mode and data are saved on every change (never the password); flight numbers may be edited here. */
  assignDetails: change(({ context, event }) => {
    assertEvent(event, ['details.changed', 'details.submit']);
    return {
      registrationMode: event.mode,
      registration: event.registration,
      bookingForm: context.bookingForm && event.flights ? { ...context.bookingForm, ...event.flights } : context.bookingForm,
    };
  }),
  /** Issue 42: a new visit to the details step shows no answer of an earlier one (another date or place). */
  forgetFlightCheck: change(() => ({ flightCheck: null })),
  /** Issue 42: what the flight look-up said, for the details step to show. */
  assignFlightCheck: change(({ event }) => {
    assertEvent(event, 'flight.checked');
    return { flightCheck: event.check };
  }),
  /** SPEC 8: an existing client found with that password is told so on the payment step. */
  noteEmailFound: change(({ context }) => ({ notice: context.registrationMode === 'existing_client' ? EMAIL_FOUND : null })),
  /** SPEC 8's three outcomes of the e-mail check, when it does not lead on. */
  assignEmailRejection: change<CheckEmailResponse>(({ context }, r) => ({
    error: context.registrationMode === 'new_client' ? ACCOUNT_EXISTS : r.found ? r.message : EMAIL_NOT_FOUND,
  })),
  assignEmailCheckFailure: change<{ error: unknown }>((_, { error }) => ({ error: EMAIL_CHECK_FAILED_PREFIX + errorText(error) })),
  /** Back from the forgot-password flow: an existing client with the e-mail just reset. */
  assignPasswordReset: change<ForgotPasswordOutput>(({ context }, out) => ({
    notice: out.message, requestedPath: pathOfScreen('details'), registrationMode: 'existing_client',
    registration: { ...(context.registration ?? emptyRegistration()), email: out.email },
  })),
  /** Signing in fills the details with the passenger's own; signing out keeps what was typed. */
  assignSession: change(({ context, event }) => {
    assertEvent(event, 'session.changed');
    if (!event.session) return { session: null };
    return { session: event.session, registration: registrationFor(event.session.passenger, context.registration), registrationMode: 'guest_login' };
  }),

  // Payment.
  choosePayment: change<{ method: PaymentMethod }>((_, { method }) => ({ paymentMethod: method })),
  /** Issue 44: the booker's company account as the payment step loaded it. */
  assignBilling: change<{ billing: AccountBilling | null }>((_, { billing }) => ({ billing })),
  /** Issue 44: paying on account, with these values of its fields (a new attempt when they change). */
  assignAccountFields: change(({ event }) => {
    assertEvent(event, 'payment.payOnAccount');
    return { accountFields: event.fields };
  }),
  assignAccountFieldError: change<{ error: unknown }>((_, { error }) => {
    const e = error as AccountFieldError;
    return { accountFieldError: { fieldId: e.fieldId, message: e.message } };
  }),
  /** The attempt for this request and way of paying: the current one if the request is the same, else a new key. */
  startAttempt: change<{ paymentMethod: PaymentMethod }>(({ context }, params) => {
    const fingerprint = attemptFingerprint(context, params.paymentMethod);
    if (context.attempt?.fingerprint === fingerprint) return {};
    return { attempt: { key: newIdempotencyKey(), fingerprint, intentId: null } };
  }),
  assignBooking: change<{ booking: BookingResult | null }>((_, { booking }) => ({ booking })),
  /** SPEC 4: a refused booking shows the server's message. */
  assignRefusal: change<{ message: string }>((_, { message }) => ({ error: message })),
  /** A new visit to the card page shows its key in the URL only once this visit has it. */
  forgetCardKey: change(() => ({ cardKey: null })),
  assignCardKey: change(({ event }) => {
    assertEvent(event, 'card.keyLoaded');
    return { cardKey: event.publishableKey };
  }),
  assignIntent: change(({ context, event }) => {
    assertEvent(event, 'card.intentCreated');
    return { attempt: context.attempt ? { ...context.attempt, intentId: event.intentId } : context.attempt };
  }),
  assignCardBooking: change<CardPaymentOutput>((_, out) => ({ booking: out.booking })),
  /** The confirmation: the trip is done; a signed-in passenger's own details stay ready for the next one. */
  forgetTrip: change(({ context }) => ({
    priceDetails: null, trip: null, selectedVehicle: null, quantity: 1, bookingForm: null, hourlyForm: null,
    attempt: null, cardKey: null, notice: null,
    registration: context.session ? registrationFor(context.session.passenger, null) : null,
  })),

  // Quote Now.
  /** Decision 22: the reason for the redirect is explained while the visitor is here, and forgotten when they leave; so is 'quote sent'. */
  leaveQuote: change(() => ({ urgentReason: null, notice: null })),
  /** SPEC 4 'Quote send': the saved booking form is removed. */
  forgetQuotedForm: change(() => ({ bookingForm: null, notice: QUOTE_SENT })),
  quoteFailed: change(() => ({ error: QUOTE_FAILED })),
};
