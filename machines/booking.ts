// The booking wizard (SPEC sections 2, 4 and 8): home -> quotation -> details
// -> payment -> success, the urgent-booking redirect to /quoteView and the
// Quote Now form, the registration modes with the e-mail check. The URL follows
// this machine: every location change arrives as one `url.changed` event and
// the step guards of ./bookingSteps decide where it lands.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type {
  AuthResponse, BookingForm, BookingResponse, BookingResult, BookingType, CheckEmailResponse, HourlyRateForm, PriceDetail,
  QuoteRequest, RegistrationData, RegistrationMode,
} from '../src/domain/schemas';
import { isEnabled, type Settings } from '../src/domain/settings';
import {
  ACCOUNT_EXISTS, EMAIL_CHECK_FAILED_PREFIX, EMAIL_FOUND, EMAIL_NOT_FOUND, PASSWORDS_DO_NOT_MATCH, QUOTE_FAILED, QUOTE_SENT,
  isUrgentBookingError,
} from '../src/domain/messages';
import { homePathFor, landingStep, STEP_PATHS, type HomePath, type Step } from './bookingSteps';

export { landingStep, stepForPath, STEP_PATHS, type Step } from './bookingSteps';

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

function openingBookingType(s: Settings, stored: BookingType | null): BookingType {
  const types = availableBookingTypes(s);
  if (stored && types.includes(stored)) return stored;
  return types.includes('hourly') ? 'hourly' : 'milleage';
}

const emptyRegistration = (): RegistrationData => ({
  firstName: '', surname: '', number: '', email: '', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
});

/** A fresh key for each booking attempt; works outside secure contexts too. */
function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong. Please try again.';

const landsOn = (step: Step) => ({ type: 'landsOn' as const, params: { step } });
const routes = (prefix: '' | '.') => [
  { guard: landsOn('success'), target: `${prefix}success` },
  { guard: landsOn('payment'), target: `${prefix}payment` },
  { guard: landsOn('details'), target: `${prefix}details` },
  { guard: landsOn('quotation'), target: `${prefix}quotation` },
  { guard: landsOn('quote'), target: `${prefix}quote` },
  { guard: landsOn('forgotPassword'), target: `${prefix}forgotPassword` },
  { target: `${prefix}home`, actions: 'assignHomePath' as const },
];

export const bookingMachine = setup({
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
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    requestedPath: input.path,
    homePath: homePathFor(input.path),
    settings: input.stored?.settings ?? {},
    settingsError: null,
    bookingType: input.stored?.bookingType ?? 'milleage',
    savedBookingType: input.stored?.bookingType ?? null,
    bookingForm: input.stored?.bookingForm ?? null,
    hourlyForm: input.stored?.hourlyForm ?? null,
    priceDetails: input.stored?.priceDetails ?? null,
    trip: input.stored?.trip ?? null,
    selectedVehicle: input.stored?.selectedVehicle ?? null,
    quantity: input.stored?.quantity ?? 1,
    selectionType: input.stored?.selectionType ?? 'selection',
    registrationMode: input.stored?.registrationMode ?? 'guest_login',
    registration: input.stored?.registration ?? null,
    idempotencyKey: null,
    paymentMethod: null,
    booking: input.stored?.booking ?? null,
    resetEmail: '',
    resetCode: '',
    error: null,
    notice: null,
  }),
  initial: 'boot',
  on: { 'url.changed': routes('.') },
  states: {
    // SPEC 4 'Settings': loaded once at start; the page waits behind an overlay.
    boot: {
      on: { 'url.changed': { actions: 'assignRequestedPath' } },
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: {
          target: 'routing',
          actions: [
            assign({
              settings: ({ event }) => event.output,
              bookingType: ({ context, event }) => openingBookingType(event.output, context.savedBookingType),
            }),
            'persist',
          ],
        },
        // SPEC 8: a failed settings fetch is stored and logged; the settings are not updated.
        onError: { target: 'routing', actions: assign({ settingsError: ({ event }) => errorText(event.error) }) },
      },
    },
    routing: { always: routes('') },
    home: {
      initial: 'editing',
      on: {
        'home.typeChanged': { actions: [assign({ bookingType: ({ event }) => event.bookingType }), 'persist'] },
        // SPEC 4: the hourly form is saved on every change.
        'home.hourlyChanged': { actions: [assign({ hourlyForm: ({ event }) => event.form }), 'persist'] },
      },
      states: {
        editing: {
          on: {
            'home.submit': {
              target: 'pricing',
              actions: [
                assign(({ event }) => (event.bookingType === 'milleage'
                  ? { bookingType: event.bookingType, bookingForm: event.form as BookingForm }
                  : { bookingType: event.bookingType, hourlyForm: event.form as HourlyRateForm })),
                'persist',
              ],
            },
          },
        },
        // SPEC 4 'Price calculation'.
        pricing: {
          entry: 'clearMessages',
          on: { 'url.changed': {}, 'home.typeChanged': {}, 'home.hourlyChanged': {} },
          invoke: {
            id: 'calculatePrice',
            src: 'calculatePrice',
            input: ({ context }) => ({
              bookingType: context.bookingType,
              form: (context.bookingType === 'milleage' ? context.bookingForm : context.hourlyForm)!,
              settings: context.settings,
            }),
            onDone: {
              target: '#booking.quotation',
              actions: [
                assign({
                  priceDetails: ({ event }) => event.output.prices,
                  trip: ({ event }) => event.output.trip,
                  selectedVehicle: null,
                  quantity: 1,
                }),
                'persist',
              ],
            },
            onError: [
              { guard: 'isUrgentError', target: 'urgent', actions: 'assignError' },
              { target: 'failed', actions: 'assignError' },
            ],
          },
        },
        // SPEC 8: the 'Urgent Booking!' notice opens; the app moves to /quoteView after 1 s.
        urgent: {
          after: { 1000: '#booking.quote.notice' },
          on: { 'url.changed': {} },
        },
        // SPEC 8: any other price error shows an 'Error' dialog.
        failed: {
          on: { 'error.dismissed': { target: 'editing', actions: 'clearMessages' } },
        },
      },
    },
    // SPEC 2 'Vehicle results'.
    quotation: {
      on: {
        'quotation.select': {
          target: 'details',
          actions: [
            assign({
              selectedVehicle: ({ event }) => event.vehicle,
              // SPEC 3: 'lowest' means quantity 1.
              quantity: ({ event }) => (event.selectionType === 'lowest' ? 1 : event.quantity),
              selectionType: ({ event }) => event.selectionType,
            }),
            'persist',
          ],
        },
      },
    },
    details: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            // SPEC 4: the mode and data are saved on every change (never the password).
            'details.changed': {
              actions: ['assignDetails', 'persist'],
            },
            'details.submit': [
              {
                guard: 'isGuest',
                target: '#booking.payment',
                actions: ['assignDetails', 'persist'],
              },
              {
                target: 'checkingEmail',
                actions: ['assignDetails', 'persist'],
              },
            ],
          },
        },
        // SPEC 4 'Email check' and SPEC 8's three outcomes.
        checkingEmail: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'checkEmail',
            src: 'checkEmail',
            input: ({ context }) => ({ email: context.registration!.email, password: context.registration!.password ?? '' }),
            onDone: [
              {
                guard: 'emailAccepted',
                target: '#booking.payment',
                actions: assign({ notice: ({ context }) => (context.registrationMode === 'existing_client' ? EMAIL_FOUND : null) }),
              },
              {
                target: 'rejected',
                actions: assign({
                  error: ({ context, event }) => (context.registrationMode === 'new_client'
                    ? ACCOUNT_EXISTS
                    : event.output.found ? event.output.message : EMAIL_NOT_FOUND),
                }),
              },
            ],
            onError: {
              target: 'rejected',
              actions: assign({ error: ({ event }) => EMAIL_CHECK_FAILED_PREFIX + errorText(event.error) }),
            },
          },
        },
        rejected: {
          on: { 'error.dismissed': { target: 'editing', actions: 'clearMessages' } },
        },
      },
    },
    payment: {
      initial: 'choosing',
      entry: assign({ idempotencyKey: ({ context }) => context.idempotencyKey ?? newIdempotencyKey() }),
      states: {
        choosing: {
          on: { 'payment.payInCar': { target: 'booking', actions: ['clearMessages', assign({ paymentMethod: 'car' }), 'persist'] } },
        },
        booking: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'createBooking',
            src: 'createBooking',
            input: ({ context }) => ({
              idempotencyKey: context.idempotencyKey!,
              bookingType: context.bookingType,
              bookingForm: context.bookingForm,
              hourlyForm: context.hourlyForm,
              vehicle: context.selectedVehicle!,
              quantity: context.quantity,
              mode: context.registrationMode,
              registration: context.registration!,
              paymentMethod: 'car',
            }),
            onDone: [
              {
                guard: 'bookingSucceeded',
                target: '#booking.success',
                actions: assign({ booking: ({ event }) => event.output.data ?? null }),
              },
              { target: 'failed', actions: assign({ error: ({ event }) => event.output.message }) },
            ],
            onError: { target: 'failed', actions: 'assignError' },
          },
        },
        // SPEC 4: a booking failure shows an 'Error' dialog with the server's message.
        failed: {
          on: { 'error.dismissed': { target: 'choosing', actions: 'clearMessages' } },
        },
      },
    },
    success: {
      entry: [
        assign({
          priceDetails: null, trip: null, selectedVehicle: null, quantity: 1, registration: null,
          bookingForm: null, hourlyForm: null, idempotencyKey: null, notice: null,
        }),
        'clearStoredBooking',
      ],
    },
    // SPEC 2 '/quoteView': the Quote Now form, also where urgent bookings land.
    quote: {
      initial: 'form',
      states: {
        // SPEC 8: the urgent notice stays 3 s in all, 1 s of it before the move here.
        notice: {
          after: { 2000: 'form' },
          on: { 'error.dismissed': 'form' },
        },
        form: {
          entry: 'clearMessages',
          on: { 'quote.submit': 'sending' },
        },
        sending: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'sendQuote',
            src: 'sendQuote',
            input: ({ event }) => (event as Extract<BookingEvent, { type: 'quote.submit' }>).request,
            onDone: [
              // SPEC 4 'Quote send': the saved booking form is removed.
              { guard: 'quoteSent', target: 'sent', actions: [assign({ bookingForm: null, notice: QUOTE_SENT }), 'persist'] },
              { target: 'failed', actions: assign({ error: QUOTE_FAILED }) },
            ],
            onError: { target: 'failed', actions: assign({ error: QUOTE_FAILED }) },
          },
        },
        sent: { on: { 'error.dismissed': { target: 'form' }, 'quote.submit': 'sending' } },
        failed: { on: { 'error.dismissed': { target: 'form' } } },
      },
    },
    // SPEC 2 and 4 'Forgot password': e-mail, then the code, then a new password; success returns to the details step.
    forgotPassword: {
      initial: 'email',
      states: {
        email: {
          on: {
            'reset.requestCode': { target: 'sendingCode', actions: ['clearMessages', assign({ resetEmail: ({ event }) => event.email })] },
          },
        },
        sendingCode: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'requestResetCode',
            src: 'requestResetCode',
            input: ({ context }) => ({ email: context.resetEmail }),
            onDone: { target: 'code', actions: assign({ notice: ({ event }) => event.output.message }) },
            onError: { target: 'email', actions: 'assignError' },
          },
        },
        code: {
          on: {
            'reset.verifyCode': { target: 'verifying', actions: ['clearMessages', assign({ resetCode: ({ event }) => event.code })] },
            'reset.back': { target: 'email', actions: 'clearMessages' },
          },
        },
        verifying: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'verifyResetCode',
            src: 'verifyResetCode',
            input: ({ context }) => ({ email: context.resetEmail, code: context.resetCode }),
            onDone: { target: 'password', actions: assign({ notice: ({ event }) => event.output.message }) },
            onError: { target: 'code', actions: 'assignError' },
          },
        },
        password: {
          on: {
            'reset.setPassword': [
              { guard: 'passwordsDiffer', actions: assign({ error: PASSWORDS_DO_NOT_MATCH, notice: null }) },
              { target: 'resetting', actions: 'clearMessages' },
            ],
          },
        },
        resetting: {
          on: { 'url.changed': {} },
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: ({ context, event }) => ({
              email: context.resetEmail, code: context.resetCode,
              password: (event as Extract<BookingEvent, { type: 'reset.setPassword' }>).password,
            }),
            onDone: {
              target: '#booking.routing',
              actions: assign({
                notice: ({ event }) => event.output.message, requestedPath: '/personalDetailView', resetCode: '',
                registrationMode: 'existing_client',
                registration: ({ context }) => ({ ...(context.registration ?? emptyRegistration()), email: context.resetEmail }),
              }),
            },
            onError: { target: 'password', actions: 'assignError' },
          },
        },
      },
    },
  },
});

export type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;

/** The step the machine is on (null while settings load). */
export function currentStep(s: BookingSnapshot): Step | null {
  for (const step of ['home', 'quotation', 'details', 'payment', 'success', 'quote', 'forgotPassword'] as const) {
    if (s.matches(step)) return step;
  }
  return null;
}

/** The URL of the machine's state: the web layer pushes this to the address bar. */
export function pathOf(s: BookingSnapshot): string | null {
  const step = currentStep(s);
  if (step === null) return null;
  return step === 'home' ? s.context.homePath : STEP_PATHS[step];
}
