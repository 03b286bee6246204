// What the booking wizard calls (./booking.ts): the services the app provides (src/web/liveApp.ts; the tests give
// their own) and the two child machines.
import type {
  BookingResponse, CheckEmailResponse, QuoteRequest,
} from '../src/domain/schemas';
import type { CreateBookingInput } from '../src/domain/bookingRequest';
import type { AccountBilling } from '../src/domain/accountPayment';
import { forgotPasswordMachine } from './forgotPassword';
import { cardPaymentMachine } from './cardPayment';
import { provided } from './shared';
import { fromCallback } from 'xstate';
import type { CheckEmailInput, FlightCheckInput, PriceInput, PriceOutput } from './bookingContext';

/** The flight look-up unprovided: it never answers, as a service that does not (nothing to stop either). */
function saysNothing(): void {}

export const bookingActors = {
  calculatePrice: provided<PriceOutput, PriceInput>('calculatePrice'),
  checkEmail: provided<CheckEmailResponse, CheckEmailInput>('checkEmail'),
  createBooking: provided<BookingResponse, CreateBookingInput>('createBooking'),
  /** Issue 44: the signed-in booker's company account for "Pay on account" (null: none, or nobody signed in). */
  loadBilling: provided<AccountBilling | null, { token: string | null }>('loadBilling'),
  sendQuote: provided<{ success: boolean; message?: string }, QuoteRequest>('sendQuote'),
  /**
   * The details step's flight look-up (issue 42): asks for the input's number at once and again for each number typed
   * (`flights.typed`), and sends back `flight.checked`. The app provides it (src/web/flightCheck.ts); unprovided, it
   * says nothing, as a service that does not answer.
   */
  checkFlight: fromCallback<{ type: 'flights.typed'; number: string }, FlightCheckInput>(saysNothing),
  forgotPassword: forgotPasswordMachine,
  cardPayment: cardPaymentMachine,
};
