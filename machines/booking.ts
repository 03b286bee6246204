// The booking wizard (SPEC sections 2 and 4): home -> quotation -> details ->
// payment -> success. The URL follows this machine: every location change
// arrives as one `url.changed` event and the step guards below decide where it
// lands, so SPEC 2's fallbacks live here and nowhere else.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type {
  BookingForm, BookingResponse, BookingResult, BookingType, HourlyRateForm, PriceDetail, RegistrationData,
} from '../src/domain/schemas';
import type { Settings } from '../src/domain/settings';

export type Step = 'home' | 'quotation' | 'details' | 'payment' | 'success';

export const STEP_PATHS: Record<Exclude<Step, 'home'>, string> = {
  quotation: '/quotationview',
  details: '/personalDetailView',
  payment: '/paymentview',
  success: '/paymentSuccessView',
};
const HOME_PATHS = ['/', '/home', '/booktripview'] as const;
export type HomePath = (typeof HOME_PATHS)[number];

export interface TripEstimate { via_miles?: number; time_duration?: number; estimated?: boolean }

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
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  priceDetails: PriceDetail[] | null;
  trip: TripEstimate | null;
  selectedVehicle: PriceDetail | null;
  quantity: number;
  registration: RegistrationData | null;
  idempotencyKey: string | null;
  booking: BookingResult | null;
  error: string | null;
}

export type BookingEvent =
  | { type: 'url.changed'; path: string }
  | { type: 'home.submit'; bookingType: BookingType; form: BookingForm | HourlyRateForm }
  | { type: 'error.dismissed' }
  | { type: 'quotation.select'; vehicle: PriceDetail; quantity: number }
  | { type: 'details.submit'; registration: RegistrationData }
  | { type: 'payment.payInCar' };

export interface PriceInput { bookingType: BookingType; form: BookingForm | HourlyRateForm; settings: Settings }
export interface PriceOutput { prices: PriceDetail[]; trip: TripEstimate | null }
export interface CreateBookingInput {
  idempotencyKey: string;
  bookingType: BookingType;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  vehicle: PriceDetail;
  quantity: number;
  registration: RegistrationData;
  paymentMethod: 'car' | 'card';
}

/** The step a path asks for, before the guards. */
export function stepForPath(path: string): Step {
  const found = (Object.entries(STEP_PATHS) as [Step, string][]).find(([, p]) => p.toLowerCase() === path.toLowerCase());
  return found ? found[0] : 'home';
}

const hasPrices = (c: BookingContext) => Array.isArray(c.priceDetails);
const hasVehicle = (c: BookingContext) => hasPrices(c) && c.selectedVehicle !== null;
const hasRegistration = (c: BookingContext) => hasVehicle(c) && c.registration !== null;
const hasBooking = (c: BookingContext) => c.booking !== null;

/** SPEC 2: where a request for `path` lands given the data so far. */
export function landingStep(c: BookingContext, path: string): Step {
  const wanted = stepForPath(path);
  if (wanted === 'success') return hasBooking(c) ? 'success' : 'home';
  if (wanted === 'payment' && hasRegistration(c)) return 'payment';
  if ((wanted === 'payment' || wanted === 'details') && hasVehicle(c)) return 'details';
  if (wanted !== 'home' && hasPrices(c)) return 'quotation';
  return 'home';
}

function homePathFor(path: string): HomePath {
  if ((HOME_PATHS as readonly string[]).includes(path)) return path as HomePath;
  return stepForPath(path) === 'home' ? '/' : '/home';
}

/** A fresh key for each booking attempt; works outside secure contexts too. */
function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const routeGuard = (step: Step) => ({ type: 'landsOn' as const, params: { step } });

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
    createBooking: fromPromise<BookingResponse, CreateBookingInput>(async () => {
      throw new Error('createBooking is provided by the app');
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
      homePath: ({ context, event }) => (event.type === 'url.changed' ? homePathFor(event.path) : context.homePath),
    }),
    assignError: assign({
      error: ({ event }) => {
        const e = (event as { error?: unknown }).error;
        return e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong. Please try again.';
      },
    }),
    clearError: assign({ error: null }),
  },
  guards: {
    landsOn: ({ context, event }, params: { step: Step }) => {
      const path = event.type === 'url.changed' ? event.path : context.requestedPath;
      return landingStep(context, path) === params.step;
    },
    bookingSucceeded: ({ event }) => (event as { output?: BookingResponse }).output?.success === true,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => ({
    requestedPath: input.path,
    homePath: homePathFor(input.path),
    settings: input.stored?.settings ?? {},
    settingsError: null,
    bookingType: input.stored?.bookingType ?? 'milleage',
    bookingForm: input.stored?.bookingForm ?? null,
    hourlyForm: input.stored?.hourlyForm ?? null,
    priceDetails: input.stored?.priceDetails ?? null,
    trip: input.stored?.trip ?? null,
    selectedVehicle: input.stored?.selectedVehicle ?? null,
    quantity: input.stored?.quantity ?? 1,
    registration: input.stored?.registration ?? null,
    idempotencyKey: null,
    booking: input.stored?.booking ?? null,
    error: null,
  }),
  initial: 'boot',
  on: {
    'url.changed': [
      { guard: routeGuard('success'), target: '.success' },
      { guard: routeGuard('payment'), target: '.payment' },
      { guard: routeGuard('details'), target: '.details' },
      { guard: routeGuard('quotation'), target: '.quotation' },
      { target: '.home', actions: 'assignHomePath' },
    ],
  },
  states: {
    // SPEC 4 'Settings': loaded once at start; the page waits behind an overlay.
    boot: {
      on: { 'url.changed': { actions: 'assignRequestedPath' } },
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'routing', actions: [assign({ settings: ({ event }) => event.output }), 'persist'] },
        // SPEC 8: a failed settings fetch is stored and logged; the settings are not updated.
        onError: { target: 'routing', actions: assign({ settingsError: ({ event }) => String(event.error) }) },
      },
    },
    routing: {
      always: [
        { guard: routeGuard('success'), target: 'success' },
        { guard: routeGuard('payment'), target: 'payment' },
        { guard: routeGuard('details'), target: 'details' },
        { guard: routeGuard('quotation'), target: 'quotation' },
        { target: 'home' },
      ],
    },
    home: {
      initial: 'editing',
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
          entry: 'clearError',
          on: { 'url.changed': {} },
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
            onError: { target: 'failed', actions: 'assignError' },
          },
        },
        // SPEC 8: any other price error shows an 'Error' dialog.
        failed: {
          on: { 'error.dismissed': { target: 'editing', actions: 'clearError' } },
        },
      },
    },
    // SPEC 2 'Vehicle results'.
    quotation: {
      on: {
        'quotation.select': {
          target: 'details',
          actions: [
            assign({ selectedVehicle: ({ event }) => event.vehicle, quantity: ({ event }) => event.quantity }),
            'persist',
          ],
        },
      },
    },
    details: {
      on: {
        'details.submit': {
          target: 'payment',
          actions: [assign({ registration: ({ event }) => event.registration }), 'persist'],
        },
      },
    },
    payment: {
      initial: 'choosing',
      entry: assign({ idempotencyKey: ({ context }) => context.idempotencyKey ?? newIdempotencyKey() }),
      states: {
        choosing: {
          on: { 'payment.payInCar': 'booking' },
        },
        booking: {
          entry: 'clearError',
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
          on: {
            'error.dismissed': { target: 'choosing', actions: 'clearError' },
          },
        },
      },
    },
    success: {
      entry: [
        assign({
          priceDetails: null, trip: null, selectedVehicle: null, quantity: 1, registration: null,
          bookingForm: null, hourlyForm: null, idempotencyKey: null,
        }),
        'clearStoredBooking',
      ],
    },
  },
});

export type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;

/** The step the machine is on (null while settings load). */
export function currentStep(s: BookingSnapshot): Step | null {
  for (const step of ['home', 'quotation', 'details', 'payment', 'success'] as const) {
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
