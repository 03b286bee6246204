// The app machine with the browser's real services: the API calls of ./api.ts
// and browser storage (./storage.ts). main.tsx hands it to the Provider.
import { checkFlight } from './flightCheck';
import { fromPromise } from 'xstate';
import { appMachine } from '../../machines/app';
import { bookingMachine, type CheckEmailInput, type CreateBookingInput, type PriceInput } from '../../machines/booking';
import { forgotPasswordMachine } from '../../machines/forgotPassword';
import { accountMachine } from '../../machines/account';
import { contactMachine } from '../../machines/contact';
import { cardPaymentMachine, type CardCompletion, type CardOrder } from '../../machines/cardPayment';
import { cardProviderActors, loadCardProvider } from './cardActors';
import type { ContactForm, QuoteRequest } from '../domain/schemas';
import { RESET_FAILED } from '../domain/messages';
import * as api from './api';
import { clearStoredBooking, persist, storeSession, storeSettings } from './storage';

// The later steps' calls, and the corporate and password-reset calls, load on first use, never with the first page.
const bookingCalls = () => import('./bookingApi');
const accountCalls = () => import('./accountApi');

const forgotPassword = forgotPasswordMachine.provide({
  actors: {
    requestResetCode: fromPromise(async ({ input }: { input: { email: string } }) =>
      (await accountCalls()).authCall('/auth/forgot-password', { email: input.email, type: 'website' }, RESET_FAILED)),
    verifyResetCode: fromPromise(async ({ input }: { input: { email: string; code: string } }) =>
      (await accountCalls()).authCall('/auth/verify-code', input, RESET_FAILED)),
    resetPassword: fromPromise(async ({ input }: { input: { email: string; code: string; password: string } }) =>
      (await accountCalls()).authCall('/auth/reset-password', { email: input.email, code: input.code, new_password: input.password, type: 'website' }, RESET_FAILED)),
  },
});

// Stripe.js, the card form's code and the card calls load with the card page, never with the first page.
type CreateIntentInput = Parameters<typeof import('./cardProvider').createIntent>[0];

const cardPayment = cardPaymentMachine.provide({
  actors: {
    ...cardProviderActors,
    // The wizard's card page pays for new bookings only (a change's difference is the manage page's: views/manage).
    createIntent: fromPromise(async ({ input }: { input: { booking: CardOrder; paymentMethodId: string; amountPence: number } }) =>
      (await loadCardProvider()).createIntent(input as CreateIntentInput)),
    completeBooking: fromPromise(async ({ input }: { input: CardCompletion }) => (await bookingCalls()).createBooking(input as CreateBookingInput)),
  },
});

const booking = bookingMachine.provide({
  actors: {
    calculatePrice: fromPromise(({ input }: { input: PriceInput }) => api.calculatePrice(input)),
    checkEmail: fromPromise(async ({ input }: { input: CheckEmailInput }) => (await bookingCalls()).checkEmail(input)),
    createBooking: fromPromise(async ({ input }: { input: CreateBookingInput }) => (await bookingCalls()).createBooking(input)),
    loadBilling: fromPromise(async ({ input }: { input: { token: string | null } }) => (input.token ? (await bookingCalls()).loadBilling(input) : null)),
    sendQuote: fromPromise(async ({ input }: { input: QuoteRequest }) => (await bookingCalls()).sendQuote(input)),
    checkFlight,
    forgotPassword,
    cardPayment,
  },
  actions: {
    persist: ({ context }) => persist(context),
    clearStoredBooking: ({ context }) => clearStoredBooking(context),
  },
});

const account = accountMachine.provide({
  actors: {
    login: fromPromise(async ({ input }) => (await accountCalls()).login(input)),
    validateToken: fromPromise(async ({ input }) => (await accountCalls()).validateToken(input)),
    fetchBookings: fromPromise(async ({ input }) => (await accountCalls()).fetchBookings(input)),
    updateProfile: fromPromise(async ({ input }) => (await accountCalls()).updateProfile(input)),
    logout: fromPromise(async ({ input }) => (await accountCalls()).logout(input)),
  },
});

// The site pages' calls load with those pages.
const siteCalls = () => import('./siteApi');
const contact = contactMachine.provide({
  actors: { sendContact: fromPromise(async ({ input }: { input: ContactForm }) => (await siteCalls()).sendContact(input)) },
});

export const liveApp = appMachine.provide({
  actors: { loadSettings: fromPromise(() => api.fetchSettings()), booking, account, contact },
  actions: {
    storeSettings: (_, { settings }) => storeSettings(settings),
    storeSession: (_, { session }) => storeSession(session),
  },
});
