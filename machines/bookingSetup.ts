// The booking machine's types, services, actions and guards (the states are in ./booking.ts).
import { assign, fromPromise, setup } from 'xstate';
import type {
  AuthResponse, BookingForm, BookingResponse, BookingResult, BookingType, CheckEmailResponse, HourlyRateForm, PriceDetail,
  QuoteRequest, RegistrationData, RegistrationMode,
} from '../src/domain/schemas';
import { isEnabled, type Settings } from '../src/domain/settings';
import { isUrgentBookingError } from '../src/domain/messages';
import { homePathFor, landingStep, type HomePath, type Step } from './bookingSteps';

export interface TripEstimate {
  via_miles?: number; time_duration?: number; return_via_miles?: number; return_time_duration?: number; estimated?: boolean;
}

/** What browser storage held when the page opened (the machine's input). */
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
}

export interface BookingInput { path: string; stored?: StoredBooking }

export interface BookingContext {
  requestedPath: string;
  homePath: HomePath;
  settings: Settings;
  settingsError: string | null;
  bookingType: BookingType;
  /** The tab saved in browser storage, if any: it wins over SPEC's opening tab when it is still offered. */
  savedBookingType: BookingType | null;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  priceDetails: PriceDetail[] | null;
  trip: TripEstimate | null;
  selectedVehicle: PriceDetail | null;
  quantity: number;
  selectionType: 'lowest' | 'selection';
  registrationMode: RegistrationMode;
  registration: RegistrationData | null;
  idempotencyKey: string | null;
  paymentMethod: 'car' | 'card' | null;
  booking: BookingResult | null;
  /** The forgot-password flow's e-mail and accepted code. */
  resetEmail: string;
  resetCode: string;
  /** The message of the dialog or notice on screen, if any. */
  error: string | null;
  notice: string | null;
}

export type BookingEvent =
  | { type: 'url.changed'; path: string }
  | { type: 'home.typeChanged'; bookingType: BookingType }
  | { type: 'home.hourlyChanged'; form: HourlyRateForm }
  | { type: 'home.submit'; bookingType: BookingType; form: BookingForm | HourlyRateForm }
  | { type: 'error.dismissed' }
  | { type: 'quotation.select'; vehicle: PriceDetail; quantity: number; selectionType: 'lowest' | 'selection' }
  | { type: 'details.changed'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'details.submit'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'payment.payInCar' }
  | { type: 'quote.submit'; request: QuoteRequest }
  | { type: 'reset.requestCode'; email: string }
  | { type: 'reset.verifyCode'; code: string }
  | { type: 'reset.back' }
  | { type: 'reset.setPassword'; password: string; confirm: string };

/** Flight, train or ferry references, editable again on the details step (SPEC 2). */
export interface Flights { pickup_fight_number: string; return_fight_number: string }

export interface PriceInput { bookingType: BookingType; form: BookingForm | HourlyRateForm; settings: Settings }
export interface PriceOutput { prices: PriceDetail[]; trip: TripEstimate | null }
export interface CheckEmailInput { email: string; password: string }
export interface CreateBookingInput {
  idempotencyKey: string;
  bookingType: BookingType;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  vehicle: PriceDetail;
  quantity: number;
  mode: RegistrationMode;
  registration: RegistrationData;
  paymentMethod: 'car' | 'card';
}

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

export const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong. Please try again.';

export const landsOn = (step: Step) => ({ type: 'landsOn' as const, params: { step } });
export const routes = (prefix: '' | '.') => [
  { guard: landsOn('success'), target: `${prefix}success` },
  { guard: landsOn('payment'), target: `${prefix}payment` },
  { guard: landsOn('details'), target: `${prefix}details` },
  { guard: landsOn('quotation'), target: `${prefix}quotation` },
  { guard: landsOn('quote'), target: `${prefix}quote` },
  { guard: landsOn('forgotPassword'), target: `${prefix}forgotPassword` },
  { target: `${prefix}home`, actions: 'assignHomePath' as const },
];

export const bookingSetup = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
  },
  actors: {
    loadSettings: fromPromise<Settings>(async () => {
      throw new Error('loadSettings is provided by the app');
    }),
    calculatePrice: fromPromise<PriceOutput, PriceInput>(async () => {
      throw new Error('calculatePrice is provided by the app');
    }),
    checkEmail: fromPromise<CheckEmailResponse, CheckEmailInput>(async () => {
      throw new Error('checkEmail is provided by the app');
    }),
    createBooking: fromPromise<BookingResponse, CreateBookingInput>(async () => {
      throw new Error('createBooking is provided by the app');
    }),
    sendQuote: fromPromise<{ success: boolean; message?: string }, QuoteRequest>(async () => {
      throw new Error('sendQuote is provided by the app');
    }),
    requestResetCode: fromPromise<AuthResponse, { email: string }>(async () => {
      throw new Error('requestResetCode is provided by the app');
    }),
    verifyResetCode: fromPromise<AuthResponse, { email: string; code: string }>(async () => {
      throw new Error('verifyResetCode is provided by the app');
    }),
    resetPassword: fromPromise<AuthResponse, { email: string; code: string; password: string }>(async () => {
      throw new Error('resetPassword is provided by the app');
    }),
  },
  actions: {
    /** Writes the context to browser storage under SPEC 3's keys; provided by the app. */
    persist: () => {},
    /** SPEC 2: opening the confirmation clears browser storage except appSettings; provided by the app. */
    clearStoredBooking: () => {},
    assignRequestedPath: assign({
      requestedPath: ({ event }) => (event.type === 'url.changed' ? event.path : '/'),
    }),
    assignHomePath: assign({
      homePath: ({ context, event }) => (event.type === 'url.changed' ? homePathFor(event.path) : homePathFor(context.requestedPath)),
    }),
    assignError: assign({ error: ({ event }) => errorText((event as { error?: unknown }).error) }),
    clearMessages: assign({ error: null, notice: null }),
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
    isGuest: ({ event }) => event.type === 'details.submit' && event.mode === 'guest_login',
    /** SPEC 4 'Email check': an existing client must be found with that password; a new client must not exist yet. */
    emailAccepted: ({ context, event }) => {
      const r = (event as { output?: CheckEmailResponse }).output;
      return context.registrationMode === 'existing_client' ? r?.success === true : r?.found === false;
    },
    bookingSucceeded: ({ event }) => (event as { output?: BookingResponse }).output?.success === true,
    quoteSent: ({ event }) => (event as { output?: { success: boolean } }).output?.success === true,
    passwordsDiffer: ({ event }) => event.type === 'reset.setPassword' && event.password !== event.confirm,
  },
});
