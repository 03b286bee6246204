// The booking wizard (SPEC sections 2, 4 and 8): home -> quotation -> details
// -> payment -> success, the urgent-booking redirect to /quoteView and the
// Quote Now form, the registration modes with the e-mail check and the
// forgot-password flow (a child machine). The app machine (./app.ts) starts it
// with the settings and hands it every location on a wizard route as one
// `url.changed` event; the step guards of ./bookingSteps decide where it lands.
// States waiting for an answer that decides the next screen are tagged 'busy':
// the app holds the URL still meanwhile. Types, services, actions and guards:
// ./bookingSetup.
import { and, assign, not, type SnapshotFrom } from 'xstate';
import {
  EMAIL_CHECK_FAILED_PREFIX, EMAIL_FOUND, QUOTE_FAILED, QUOTE_SENT,
} from '../src/domain/messages';
import { homePathFor, type Step } from './bookingSteps';
import { pathOfScreen, type Location } from '../src/domain/screens';
import {
  amountPence, bookingInput, bookingSetup, errorText, openingBookingType, registrationFor, routes, type BookingEvent,
} from './bookingSetup';
import { encode } from '../src/domain/encoding';
import { penceToPounds } from '../src/domain/money';

export * from './bookingSetup';
export { landingStep, stepForPath, type Step } from './bookingSteps';

export const bookingMachine = bookingSetup.createMachine({
  id: 'booking',
  context: ({ input }) => ({
    requestedPath: input.path,
    homePath: homePathFor(input.path),
    settings: input.settings,
    session: input.session ?? null,
    bookingType: openingBookingType(input.settings, input.stored?.bookingType ?? null),
    bookingForm: input.stored?.bookingForm ?? null,
    hourlyForm: input.stored?.hourlyForm ?? null,
    priceDetails: input.stored?.priceDetails ?? null,
    trip: input.stored?.trip ?? null,
    selectedVehicle: input.stored?.selectedVehicle ?? null,
    quantity: input.stored?.quantity ?? 1,
    selectionType: input.stored?.selectionType ?? 'selection',
    registrationMode: input.session ? 'guest_login' : input.stored?.registrationMode ?? 'guest_login',
    registration: input.session
      ? registrationFor(input.session.passenger, input.stored?.registration ?? null)
      : input.stored?.registration ?? null,
    attempt: input.stored?.attempt ?? null,
    cardKey: null,
    paymentMethod: null,
    booking: input.stored?.booking ?? null,
    error: null,
    addressError: null,
    urgentReason: null,
    notice: null,
  }),
  initial: 'routing',
  on: {
    'url.changed': routes('.'),
    'session.changed': { actions: ['assignSession', 'persist'] },
  },
  states: {
    routing: { always: routes('') },
    home: {
      meta: { screen: 'home' },
      initial: 'editing',
      on: {
        'home.typeChanged': { actions: [assign({ bookingType: ({ event }) => event.bookingType, addressError: null }), 'persist'] },
        // SPEC 4: the hourly form is saved on every change.
        'home.hourlyChanged': { actions: [assign({ hourlyForm: ({ event }) => event.form }), 'persist'] },
      },
      states: {
        editing: {
          on: {
            'home.submit': {
              target: 'pricing',
              actions: ['assignForm', 'persist'],
            },
          },
        },
        // SPEC 4 'Price calculation'.
        pricing: {
          tags: 'busy',
          entry: 'clearMessages',
          on: { 'home.typeChanged': {}, 'home.hourlyChanged': {} },
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
              actions: ['assignPrices', 'persist'],
            },
            onError: [
              { guard: 'isUrgentError', target: 'urgent', actions: 'assignError' },
              // Decision 23: a refused address is shown in the form, under its input, with everything typed kept.
              { guard: 'isAddressError', target: 'editing', actions: 'assignAddressError' },
              { target: 'failed', actions: 'assignError' },
            ],
          },
        },
        // SPEC 8: the 'Urgent Booking!' notice opens; the app moves to /quoteView after 1 s.
        urgent: {
          tags: 'busy',
          after: { urgentRedirect: { target: '#booking.quote.notice', actions: 'assignUrgentReason' } },
        },
        // SPEC 8: any other price error shows an 'Error' dialog.
        failed: {
          on: { 'error.dismissed': { target: 'editing', actions: 'clearMessages' } },
        },
      },
    },
    // SPEC 2 'Vehicle results'.
    quotation: {
      meta: { screen: 'quotation' },
      on: {
        'quotation.select': {
          target: 'details',
          actions: ['assignVehicle', 'persist'],
        },
      },
    },
    details: {
      meta: { screen: 'details' },
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
                guard: and(['isGuest', 'guestAllowed']),
                target: '#booking.payment',
                actions: ['assignDetails', 'persist'],
              },
              {
                guard: not('isGuest'),
                target: 'checkingEmail',
                actions: ['assignDetails', 'persist'],
              },
            ],
          },
        },
        // SPEC 4 'Email check' and SPEC 8's three outcomes.
        checkingEmail: {
          tags: 'busy',
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
                actions: 'assignEmailRejection',
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
      meta: { screen: 'payment' },
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            'payment.payInCar': {
              guard: 'payInCarAllowed', target: 'booking',
              actions: ['clearMessages', assign({ paymentMethod: 'car' }), { type: 'startAttempt', params: { paymentMethod: 'car' } }, 'persist'],
            },
            // SPEC 4: card goes to the card page.
            'payment.payByCard': {
              guard: 'cardAllowed', target: '#booking.card', actions: ['clearMessages', assign({ paymentMethod: 'card' }), 'persist'],
            },
          },
        },
        booking: {
          tags: 'busy',
          invoke: {
            id: 'createBooking',
            src: 'createBooking',
            input: ({ context }) => bookingInput(context, 'car'),
            onDone: [
              {
                guard: 'bookingSucceeded',
                target: '#booking.success',
                actions: assign({ booking: ({ event }) => event.output.data ?? null }),
              },
              { target: 'failed', actions: assign({ error: ({ event }) => event.output.message }) },
            ],
            onError: [
              // Decision 23: the booking call refused an address: back to the form, which shows it under its input.
              { guard: 'isAddressError', target: '#booking.home', actions: ['assignAddressError', 'voidPrices', 'persist'] },
              { target: 'failed', actions: 'assignError' },
            ],
          },
        },
        // SPEC 4: a booking failure shows an 'Error' dialog with the server's message.
        failed: {
          on: { 'error.dismissed': { target: 'choosing', actions: 'clearMessages' } },
        },
      },
    },
    // SPEC 2 '/checkout': the payment step's review (trip, vehicle, details and total), under its guards.
    checkout: { meta: { screen: 'checkout' } },
    // SPEC 2 '/stripecheckout' and SPEC 4 'Card payment' (./cardPayment.ts): a successful payment creates the booking.
    card: {
      meta: { screen: 'card' },
      // A new visit to the card page shows its key in the URL once this visit has it.
      entry: [assign({ cardKey: null }), { type: 'startAttempt', params: { paymentMethod: 'card' } }, 'persist'],
      on: {
        'card.keyLoaded': { actions: assign({ cardKey: ({ event }) => event.publishableKey }) },
        'card.intentCreated': { actions: ['assignIntent', 'persist'] },
      },
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => ({
          booking: bookingInput(context, 'card'), amountPence: amountPence(context), intentId: context.attempt?.intentId ?? null,
        }),
        onDone: { target: 'success', actions: 'assignCardBooking' },
      },
    },
    success: {
      meta: { screen: 'success' },
      entry: ['forgetTrip', 'clearStoredBooking'],
    },
    // SPEC 2 '/quoteView': the Quote Now form, also where urgent bookings land.
    quote: {
      meta: { screen: 'quote' },
      initial: 'form',
      // Decision 22: the reason for the redirect is explained while the visitor is here, and forgotten when they
      // leave; so is 'quote sent'.
      exit: assign({ urgentReason: null, notice: null }),
      states: {
        // SPEC 8: the urgent notice stays 3 s in all, 1 s of it before the move here.
        notice: {
          after: { urgentNoticeRest: 'form' },
          on: { 'error.dismissed': 'form' },
        },
        form: {
          entry: 'clearMessages',
          on: { 'quote.submit': 'sending' },
        },
        sending: {
          tags: 'busy',
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
        // The 'Thank you' dialog is modal: the form is sent again only after it closes.
        sent: { on: { 'error.dismissed': { target: 'form' } } },
        failed: { on: { 'error.dismissed': { target: 'form' } } },
      },
    },
    // SPEC 2 and 4 'Forgot password' (./forgotPassword.ts): success returns to the details step as an existing client.
    forgotPassword: {
      meta: { screen: 'forgotPassword' },
      invoke: {
        id: 'forgotPassword',
        src: 'forgotPassword',
        input: ({ context }) => ({ email: context.registration?.email ?? '' }),
        onDone: { target: 'routing', actions: 'assignPasswordReset' },
      },
    },
  },
});

export type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;

/** The screen the machine's state shows, as its meta says (null while it routes). */
export function currentStep(s: BookingSnapshot): Step | null {
  for (const meta of Object.values(s.getMeta())) if (meta?.screen) return meta.screen;
  return null;
}

/** The path of the machine's state. */
export function pathOf(s: BookingSnapshot): string | null {
  const step = currentStep(s);
  if (step === null) return null;
  return step === 'home' ? s.context.homePath : pathOfScreen(step);
}

/**
 * The URL of the machine's state: the web layer pushes this to the address bar. SPEC 2: the card page carries the
 * provider's key and the amount, both encoded, once it has the key. (Only written, never read back: a key in a link
 * is not trusted; the page asks the server for it.)
 */
export function bookingLocation(s: BookingSnapshot): Location | null {
  const path = pathOf(s);
  if (path === null) return null;
  if (currentStep(s) !== 'card' || !s.context.cardKey) return { path, search: '' };
  const query = new URLSearchParams({ stripeKey: encode(s.context.cardKey), amount: encode(penceToPounds(amountPence(s.context))) });
  return { path, search: `?${query}` };
}
