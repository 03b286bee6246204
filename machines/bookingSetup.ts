// The booking machine's types, services, actions and guards (the states are in ./booking.ts).
import { assign, setup } from 'xstate';
import type {
  BookingForm, BookingResponse, BookingResult, BookingType, CheckEmailResponse, HourlyRateForm, PriceDetail,
  PassengerProfile, QuoteRequest, RegistrationData, RegistrationMode,
} from '../src/domain/schemas';
import { allowsGuests, isEnabled, showsCard, showsPayInCar, type Settings } from '../src/domain/settings';
import { finalPricePence } from '../src/domain/money';
import { ACCOUNT_EXISTS, BANNED_ADDRESS_MESSAGE, EMAIL_NOT_FOUND, isUrgentBookingError } from '../src/domain/messages';
import { AddressError, stopText } from '../src/domain/places';
import { homePathFor, landingStep, type HomePath, type Step } from './bookingSteps';
import { pathOfScreen } from '../src/domain/screens';
import type { CreateBookingInput } from '../src/domain/bookingRequest';

export type { CreateBookingInput };
import { forgotPasswordMachine, type ForgotPasswordOutput } from './forgotPassword';
import { cardPaymentMachine, type CardPaymentOutput, type CardToBooking } from './cardPayment';
import type { Session } from './account';
import { errorText, provided } from './shared';

export { errorText };

export interface TripEstimate {
  via_miles?: number; time_duration?: number; return_via_miles?: number; return_time_duration?: number; estimated?: boolean;
}

/** What browser storage held when the page opened, each value checked against its schema (src/web/storage.ts). */
export interface StoredBooking {
  settings?: Settings;
  bookingType?: BookingType;
  bookingForm?: BookingForm | null;
  hourlyForm?: HourlyRateForm | null;
  priceDetails?: PriceDetail[] | null;
  trip?: TripEstimate | null;
  selectedVehicle?: PriceDetail | null;
  quantity?: number;
  selectionType?: 'lowest' | 'selection';
  registrationMode?: RegistrationMode;
  registration?: RegistrationData | null;
  booking?: BookingResult | null;
  attempt?: Attempt | null;
}

/**
 * One attempt to book: the Idempotency-Key the server knows it by, for one request (trip, vehicle, details, way of
 * paying) and, for a card, the one payment intent made for it. Kept in browser storage, so a reload of the card page
 * continues the same attempt (the same pending booking, the same intent) instead of paying twice. A changed request
 * is a new attempt with a new key.
 */
export interface Attempt { key: string; fingerprint: string; intentId: string | null }

/**
 * An address the server refused (decision 23): the form shows the message under that address's input while it
 * still holds the refused text. `field` is 'pickup', 'dropoff' or 'stops.N'.
 */
export interface AddressProblem { field: string; message: string; text: string }

/** The refusal to show under the input of `field` while it holds `text`, if the server refused that text there. */
export const refusalFor = (p: AddressProblem | null, field: string, text: string): string | undefined =>
  p && p.field === field && p.text.trim() === text.trim() ? p.message : undefined;

/** The app starts the wizard once the settings are known, with the signed-in passenger if any. */
export interface BookingInput { path: string; settings: Settings; stored?: StoredBooking; session?: Session | null }

export interface BookingContext {
  requestedPath: string;
  homePath: HomePath;
  settings: Settings;
  /** The signed-in corporate passenger: bookings are made for this account, with its token. */
  session: Session | null;
  bookingType: BookingType;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  priceDetails: PriceDetail[] | null;
  trip: TripEstimate | null;
  selectedVehicle: PriceDetail | null;
  quantity: number;
  selectionType: 'lowest' | 'selection';
  registrationMode: RegistrationMode;
  registration: RegistrationData | null;
  attempt: Attempt | null;
  /** The card provider's publishable key, once the card page has it (SPEC 2: /stripecheckout?stripeKey=...). */
  cardKey: string | null;
  paymentMethod: 'car' | 'card' | null;
  booking: BookingResult | null;
  /** The message of the dialog or notice on screen, if any. */
  error: string | null;
  /** The address a price or booking call refused, shown in the form (decision 23). */
  addressError: AddressProblem | null;
  notice: string | null;
  /**
   * Why the visitor was sent to /quoteView (decision 22): a pickup inside the grace period, or a banned address.
   * Kept while they are there, for the panel that explains it; null when they came on their own.
   */
  urgentReason: UrgentReason | null;
}

export type UrgentReason = 'grace' | 'banned';

export type BookingEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'session.changed'; session: Session | null }
  | { type: 'home.typeChanged'; bookingType: BookingType }
  | { type: 'home.hourlyChanged'; form: HourlyRateForm }
  | { type: 'home.submit'; bookingType: BookingType; form: BookingForm | HourlyRateForm }
  | { type: 'error.dismissed' }
  | { type: 'quotation.select'; vehicle: PriceDetail; quantity: number; selectionType: 'lowest' | 'selection' }
  | { type: 'details.changed'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'details.submit'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'payment.payInCar' }
  | { type: 'payment.payByCard' }
  | CardToBooking
  | { type: 'quote.submit'; request: QuoteRequest };

/** Flight, train or ferry references, editable again on the details step (SPEC 2). */
export interface Flights { pickup_fight_number: string; return_fight_number: string }

export interface PriceInput { bookingType: BookingType; form: BookingForm | HourlyRateForm; settings: Settings }
export interface PriceOutput { prices: PriceDetail[]; trip: TripEstimate | null }
export interface CheckEmailInput { email: string; password: string }
/** The booking call for the context's trip, paid this way, under the current attempt's key. */
export function bookingInput(c: BookingContext, paymentMethod: 'car' | 'card'): CreateBookingInput {
  return {
    idempotencyKey: c.attempt?.key ?? '',
    bookingType: c.bookingType, bookingForm: c.bookingForm, hourlyForm: c.hourlyForm, vehicle: c.selectedVehicle!,
    quantity: c.quantity, mode: c.registrationMode, registration: c.registration!, paymentMethod, token: c.session?.token ?? null,
  };
}

/** A short digest of what is booked and how it is paid (never the password): the same request keeps its key. */
export function attemptFingerprint(c: BookingContext, paymentMethod: 'car' | 'card'): string {
  const { idempotencyKey: _key, registration, ...rest } = bookingInput(c, paymentMethod);
  const { password: _password, ...reg } = registration ?? ({} as RegistrationData);
  const text = JSON.stringify({ ...rest, registration: reg });
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995) >>> 0;
  }
  return `${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

/** What the card page charges: the chosen vehicle's price times the quantity (SPEC 4), in pence. */
export const amountPence = (c: Pick<BookingContext, 'selectedVehicle' | 'quantity'>) =>
  c.selectedVehicle ? finalPricePence(c.selectedVehicle.price, c.quantity) : 0;

/** SPEC 2 'Home view': which tabs show, and the one that opens first. */
export function availableBookingTypes(s: Settings): BookingType[] {
  const types: BookingType[] = [];
  if (s.IS_QUOTATION !== 'enable') types.push('milleage');
  if (isEnabled(s, 'HOURLY_RATE_STATUS')) types.push('hourly');
  return types.length ? types : ['milleage'];
}

export function openingBookingType(s: Settings, stored: BookingType | null): BookingType {
  const types = availableBookingTypes(s);
  if (stored && types.includes(stored)) return stored;
  return types.includes('hourly') ? 'hourly' : 'milleage';
}

export const emptyRegistration = (): RegistrationData => ({
  firstName: '', surname: '', number: '', email: '', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
});

/** A fresh key for each booking attempt; works outside secure contexts too. */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A signed-in passenger's details fill the personal details they have not typed (their own name, e-mail, phone). */
export function registrationFor(passenger: PassengerProfile, current: RegistrationData | null): RegistrationData {
  const base = current ?? emptyRegistration();
  const [firstName, ...rest] = passenger.passenger_name.trim().split(/\s+/);
  return {
    ...base,
    firstName: base.firstName || firstName || '',
    surname: base.surname || rest.join(' '),
    email: base.email || passenger.passenger_email,
    number: base.number || passenger.passenger_contact_no,
  };
}

export const landsOn = (step: Step) => ({ type: 'landsOn' as const, params: { step } });
/** Where a location lands: the state of the screen landingStep chooses (each screen's state is named after it). */
const LANDINGS: readonly Exclude<Step, 'home'>[] = ['success', 'card', 'payment', 'checkout', 'details', 'quotation', 'quote', 'forgotPassword'];
export const routes = (prefix: '' | '.') => [
  ...LANDINGS.map((step) => ({ guard: landsOn(step), target: `${prefix}${step}` })),
  { target: `${prefix}home`, actions: 'assignHomePath' as const },
];

export const bookingSetup = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
    /** The screen a state shows (src/domain/screens.ts); the address bar follows it. */
    meta: {} as { screen?: Step },
  },
  actors: {
    calculatePrice: provided<PriceOutput, PriceInput>('calculatePrice'),
    checkEmail: provided<CheckEmailResponse, CheckEmailInput>('checkEmail'),
    createBooking: provided<BookingResponse, CreateBookingInput>('createBooking'),
    sendQuote: provided<{ success: boolean; message?: string }, QuoteRequest>('sendQuote'),
    forgotPassword: forgotPasswordMachine,
    cardPayment: cardPaymentMachine,
  },
  actions: {
    /** Writes the context to browser storage under SPEC 3's keys; provided by the app. */
    persist: () => {},
    /** SPEC 2: opening the confirmation clears browser storage except appSettings; provided by the app. */
    clearStoredBooking: () => {},
    assignHomePath: assign({
      homePath: ({ context, event }) => (event.type === 'url.changed' ? homePathFor(event.path) : homePathFor(context.requestedPath)),
    }),
    assignError: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    /** On the move to /quoteView: why the notice opened (its message is still the error on screen). */
    assignUrgentReason: assign({
      urgentReason: ({ context }) => (context.error === BANNED_ADDRESS_MESSAGE ? 'banned' as const : 'grace' as const),
    }),
    /** Decision 23: the refused address, with the text it had, for the form to show under its input. */
    assignAddressError: assign({
      addressError: ({ context, event }) => {
        const { field, message } = (event as unknown as { error: AddressError }).error;
        const form = context.bookingType === 'milleage' ? context.bookingForm : null;
        const stop = /^stops\.(\d+)$/.exec(field);
        const text = stop ? stopText(form?.stops[Number(stop[1])] ?? { street_name: '' })
          : field === 'dropoff' ? form?.dropoff ?? '' : (form ?? context.hourlyForm)?.pickup ?? '';
        return { field, message, text };
      },
    }),
    /** The trip's prices and vehicle no longer stand: its address was refused. */
    voidPrices: assign({ priceDetails: null, trip: null, selectedVehicle: null }),
    assignForm: assign(({ event }) => {
      if (event.type !== 'home.submit') return {};
      return event.bookingType === 'milleage'
        ? { bookingType: event.bookingType, bookingForm: event.form as BookingForm }
        : { bookingType: event.bookingType, hourlyForm: event.form as HourlyRateForm };
    }),
    /** New prices: any earlier choice of vehicle is void. */
    assignPrices: assign(({ event }) => {
      const { prices, trip } = (event as unknown as { output: PriceOutput }).output;
      return { priceDetails: prices, trip, selectedVehicle: null, quantity: 1 };
    }),
    assignVehicle: assign(({ event }) => {
      if (event.type !== 'quotation.select') return {};
      // SPEC 3: 'lowest' means quantity 1.
      return { selectedVehicle: event.vehicle, quantity: event.selectionType === 'lowest' ? 1 : event.quantity, selectionType: event.selectionType };
    }),
    /** SPEC 8's three outcomes of the e-mail check, when it does not lead on. */
    assignEmailRejection: assign(({ context, event }) => {
      const r = (event as unknown as { output: CheckEmailResponse }).output;
      return { error: context.registrationMode === 'new_client' ? ACCOUNT_EXISTS : r.found ? r.message : EMAIL_NOT_FOUND };
    }),
    /** The confirmation: the trip is done; a signed-in passenger's own details stay ready for the next one. */
    forgetTrip: assign(({ context }) => ({
      priceDetails: null, trip: null, selectedVehicle: null, quantity: 1, bookingForm: null, hourlyForm: null,
      attempt: null, cardKey: null, notice: null,
      registration: context.session ? registrationFor(context.session.passenger, null) : null,
    })),
    /** Signing in fills the details with the passenger's own; signing out keeps what was typed. */
    assignSession: assign(({ context, event }) => {
      if (event.type !== 'session.changed') return {};
      if (!event.session) return { session: null };
      return { session: event.session, registration: registrationFor(event.session.passenger, context.registration), registrationMode: 'guest_login' as const };
    }),
    /** Back from the forgot-password flow: an existing client with the e-mail just reset. */
    assignPasswordReset: assign(({ context, event }) => {
      const out = (event as unknown as { output: ForgotPasswordOutput }).output;
      return {
        notice: out.message, requestedPath: pathOfScreen('details'), registrationMode: 'existing_client' as const,
        registration: { ...(context.registration ?? emptyRegistration()), email: out.email },
      };
    }),
    clearMessages: assign({ error: null, notice: null, addressError: null }),
    /** The attempt for this request and way of paying: the current one if the request is the same, else a new key. */
    startAttempt: assign(({ context }, params: { paymentMethod: 'car' | 'card' }) => {
      const fingerprint = attemptFingerprint(context, params.paymentMethod);
      if (context.attempt?.fingerprint === fingerprint) return {};
      return { attempt: { key: newIdempotencyKey(), fingerprint, intentId: null } };
    }),
    assignIntent: assign({
      attempt: ({ context, event }) => (event.type === 'card.intentCreated' && context.attempt ? { ...context.attempt, intentId: event.intentId } : context.attempt),
    }),
    assignCardBooking: assign({ booking: ({ event }) => (event as unknown as { output: CardPaymentOutput }).output.booking }),
    assignDetails: assign(({ context, event }) => {
      if (event.type !== 'details.changed' && event.type !== 'details.submit') return {};
      return {
        registrationMode: event.mode,
        registration: event.registration,
        bookingForm: context.bookingForm && event.flights ? { ...context.bookingForm, ...event.flights } : context.bookingForm,
      };
    }),
  },
  guards: {
    landsOn: ({ context, event }, params: { step: Step }) => {
      const path = event.type === 'url.changed' ? event.path : context.requestedPath;
      return landingStep(context, path) === params.step;
    },
    isUrgentError: ({ event }) => isUrgentBookingError(errorText((event as { error?: unknown }).error)),
    /** Decision 23: the server refused an address of the form; the form shows it, not a dialog. */
    isAddressError: ({ event }) => (event as { error?: unknown }).error instanceof AddressError,
    isGuest: ({ event }) => event.type === 'details.submit' && event.mode === 'guest_login',
    /** GUEST_LOGIN: a guest booking is offered unless the operator turned it off; a signed-in passenger books as themself. */
    guestAllowed: ({ context }) => allowsGuests(context.settings) || context.session !== null,
    /** SHOWPAYINCAR (SPEC 9). */
    payInCarAllowed: ({ context }) => showsPayInCar(context.settings),
    /** SHOWCARD (SPEC 9). */
    cardAllowed: ({ context }) => showsCard(context.settings),
    /** SPEC 4 'Email check': an existing client must be found with that password; a new client must not exist yet. */
    emailAccepted: ({ context, event }) => {
      const r = (event as { output?: CheckEmailResponse }).output;
      return context.registrationMode === 'existing_client' ? r?.success === true : r?.found === false;
    },
    bookingSucceeded: ({ event }) => (event as { output?: BookingResponse }).output?.success === true,
    quoteSent: ({ event }) => (event as { output?: { success: boolean } }).output?.success === true,
  },
  delays: {
    /** SPEC 8: the urgent notice moves the visitor to /quoteView after 1 s ... */
    urgentRedirect: 1000,
    /** ... and closes 3 s after it opened. */
    urgentNoticeRest: 2000,
  },
});
