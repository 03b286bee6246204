// The booking wizard (SPEC sections 2, 4 and 8): home -> quotation -> details
// -> payment -> success, the urgent-booking redirect to /quoteView and the
// Quote Now form, the registration modes with the e-mail check and the
// forgot-password flow (a child machine). The app machine (./app.ts) starts it
// with the settings and hands it every location on a wizard route as one
// `url.changed` event; the step guards of ./bookingSteps decide where it lands.
// States waiting for an answer that decides the next screen are tagged 'busy':
// the app holds the URL still meanwhile. Its context, input and events are in
// ./bookingContext, its actions, guards and actors in ./bookingActions,
// ./bookingGuards and ./bookingActors, where it is on screen in ./bookingLocation.
import { and, assertEvent, not, sendTo, setup, type SnapshotFrom } from 'xstate';
import { bookingActions } from './bookingActions';
import { bookingActors } from './bookingActors';
import { bookingGuards, routes } from './bookingGuards';
import {
  amountPence, bookingInput, checkEmailInput, flightCheckInput, initialContext, priceInput, type BookingContext, type BookingEvent, type BookingInput,
} from './bookingContext';
import type { Step } from './bookingSteps';
import { failure, output } from './shared';

export * from './bookingContext';
export { landingStep, stepForPath, type Step } from './bookingSteps';
export { errorText } from './shared';

export const bookingMachine = setup({
  types: {
    context: {} as BookingContext,
    events: {} as BookingEvent,
    input: {} as BookingInput,
    /** The screen a state shows (src/domain/screens.ts); the address bar follows it. */
    meta: {} as { screen?: Step },
  },
  actors: bookingActors,
  actions: bookingActions,
  guards: bookingGuards,
  delays: {
    /** SPEC 8: the urgent notice moves the visitor to /quoteView after 1 s ... */
    urgentRedirect: 1000,
    /** ... and closes 3 s after it opened. */
    urgentNoticeRest: 2000,
  },
}).createMachine({
  id: 'booking',
  context: ({ input }) => initialContext(input),
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
        'home.typeChanged': { actions: ['chooseBookingType', 'persist'] },
        'home.hourlyChanged': { actions: ['keepHourlyForm', 'persist'] },
      },
      states: {
        editing: { on: { 'home.submit': { target: 'pricing', actions: ['assignForm', 'persist'] } } },
        // SPEC 4 'Price calculation'.
        pricing: {
          tags: 'busy',
          entry: 'clearMessages',
          on: { 'home.typeChanged': {}, 'home.hourlyChanged': {} },
          invoke: {
            id: 'calculatePrice',
            src: 'calculatePrice',
            input: ({ context }) => priceInput(context),
            onDone: { target: '#booking.quotation', actions: [{ type: 'assignPrices', params: output }, 'persist'] },
            onError: [
              { guard: { type: 'isUrgentError', params: failure }, target: 'urgent', actions: { type: 'assignError', params: failure } },
              // Decision 23: a refused address is shown in the form, under its input, with everything typed kept.
              { guard: { type: 'isAddressError', params: failure }, target: 'editing', actions: { type: 'assignAddressError', params: failure } },
              { target: 'failed', actions: { type: 'assignError', params: failure } },
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
      on: { 'quotation.select': { target: 'details', actions: ['assignVehicle', 'persist'] } },
    },
    details: {
      meta: { screen: 'details' },
      initial: 'editing',
      // Issue 42: the pickup's flight is looked up while the step is open; a flight that does not land there is flagged.
      entry: 'forgetFlightCheck',
      invoke: { id: 'checkFlight', src: 'checkFlight', input: ({ context }) => flightCheckInput(context) },
      on: { 'flight.checked': { actions: 'assignFlightCheck' } },
      states: {
        editing: {
          on: {
            // SPEC 4: the mode and data are saved on every change (never the password); a flight typed is looked up.
            'details.changed': {
              actions: ['assignDetails', 'persist', sendTo('checkFlight', ({ event }) => ({ type: 'flights.typed' as const, number: event.flights?.pickup_fight_number ?? '' }))],
            },
            'details.submit': [
              { guard: and(['isGuest', 'guestAllowed']), target: '#booking.payment', actions: ['assignDetails', 'persist'] },
              { guard: not('isGuest'), target: 'checkingEmail', actions: ['assignDetails', 'persist'] },
            ],
          },
        },
        // SPEC 4 'Email check' and SPEC 8's three outcomes.
        checkingEmail: {
          tags: 'busy',
          invoke: {
            id: 'checkEmail',
            src: 'checkEmail',
            input: ({ context }) => checkEmailInput(context),
            onDone: [
              { guard: { type: 'emailAccepted', params: output }, target: '#booking.payment', actions: 'noteEmailFound' },
              { target: 'rejected', actions: { type: 'assignEmailRejection', params: output } },
            ],
            onError: { target: 'rejected', actions: { type: 'assignEmailCheckFailure', params: failure } },
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
      // Issue 44: a signed-in booker's company account, for "Pay on account" beside the SPEC's ways to pay.
      invoke: {
        id: 'loadBilling', src: 'loadBilling', input: ({ context }) => ({ token: context.session?.token ?? null }),
        onDone: { actions: { type: 'assignBilling', params: ({ event }) => ({ billing: event.output }) } },
        // Not reached: the SPEC's ways to pay stay.
        onError: {},
      },
      states: {
        choosing: {
          on: {
            'payment.payOnAccount': {
              guard: 'accountPayable', target: 'booking',
              actions: ['clearMessages', { type: 'choosePayment', params: { method: 'account' } }, 'assignAccountFields', { type: 'startAttempt', params: { paymentMethod: 'account' } }, 'persist'],
            },
            'payment.payInCar': {
              guard: 'payInCarAllowed', target: 'booking',
              actions: ['clearMessages', { type: 'choosePayment', params: { method: 'car' } }, { type: 'startAttempt', params: { paymentMethod: 'car' } }, 'persist'],
            },
            // SPEC 4: card goes to the card page.
            'payment.payByCard': {
              guard: 'cardAllowed', target: '#booking.card', actions: ['clearMessages', { type: 'choosePayment', params: { method: 'card' } }, 'persist'],
            },
          },
        },
        booking: {
          tags: 'busy',
          invoke: {
            id: 'createBooking',
            src: 'createBooking',
            input: ({ context }) => bookingInput(context, context.paymentMethod === 'account' ? 'account' : 'car'),
            onDone: [
              {
                guard: { type: 'bookingSucceeded', params: output },
                target: '#booking.success',
                actions: { type: 'assignBooking', params: ({ event }) => ({ booking: event.output.data ?? null }) },
              },
              { target: 'failed', actions: { type: 'assignRefusal', params: ({ event }) => ({ message: event.output.message }) } },
            ],
            onError: [
              // Decision 23: the booking call refused an address: back to the form, which shows it under its input.
              {
                guard: { type: 'isAddressError', params: failure },
                target: '#booking.home',
                actions: [{ type: 'assignAddressError', params: failure }, 'voidPrices', 'persist'],
              },
              { guard: { type: 'isAccountFieldError', params: failure }, target: 'choosing', actions: { type: 'assignAccountFieldError', params: failure } },
              { target: 'failed', actions: { type: 'assignError', params: failure } },
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
      entry: ['forgetCardKey', { type: 'startAttempt', params: { paymentMethod: 'card' } }, 'persist'],
      on: {
        'card.keyLoaded': { actions: 'assignCardKey' },
        'card.intentCreated': { actions: ['assignIntent', 'persist'] },
      },
      invoke: {
        id: 'cardPayment',
        src: 'cardPayment',
        input: ({ context }) => ({
          booking: bookingInput(context, 'card'), amountPence: amountPence(context), intentId: context.attempt?.intentId ?? null,
        }),
        onDone: { target: 'success', actions: { type: 'assignCardBooking', params: output } },
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
      exit: 'leaveQuote',
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
            input: ({ event }) => {
              assertEvent(event, 'quote.submit');
              return event.request;
            },
            onDone: [
              // SPEC 4 'Quote send': the saved booking form is removed.
              { guard: { type: 'quoteSent', params: output }, target: 'sent', actions: ['forgetQuotedForm', 'persist'] },
              { target: 'failed', actions: 'quoteFailed' },
            ],
            onError: { target: 'failed', actions: 'quoteFailed' },
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
        onDone: { target: 'routing', actions: [{ type: 'assignPasswordReset', params: output }, 'persist'] },
      },
    },
  },
});

export type BookingSnapshot = SnapshotFrom<typeof bookingMachine>;
