// The booking wizard (SPEC sections 2, 4 and 8): home -> quotation -> details
// -> payment -> success, the urgent-booking redirect to /quoteView and the
// Quote Now form, the registration modes with the e-mail check and the
// forgot-password flow. The URL follows this machine: every location change
// arrives as one `url.changed` event and the step guards of ./bookingSteps
// decide where it lands. Types, services, actions and guards: ./bookingSetup.
import { assign, type SnapshotFrom } from 'xstate';
import type { BookingForm, HourlyRateForm } from '../src/domain/schemas';
import {
  ACCOUNT_EXISTS, EMAIL_CHECK_FAILED_PREFIX, EMAIL_FOUND, EMAIL_NOT_FOUND, PASSWORDS_DO_NOT_MATCH, QUOTE_FAILED, QUOTE_SENT,
} from '../src/domain/messages';
import { homePathFor, STEP_PATHS, type Step } from './bookingSteps';
import {
  bookingSetup, emptyRegistration, errorText, newIdempotencyKey, openingBookingType, routes, type BookingEvent,
} from './bookingSetup';

export * from './bookingSetup';
export { landingStep, stepForPath, STEP_PATHS, type Step } from './bookingSteps';

export const bookingMachine = bookingSetup.createMachine({
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
