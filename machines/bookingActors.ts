// What the booking wizard calls (./booking.ts): the services the app provides (src/web/liveApp.ts; the tests give
// their own) and the two child machines.
import type {
  BookingResponse, CheckEmailResponse, QuoteRequest,
} from '../src/domain/schemas';
import type { CreateBookingInput } from '../src/domain/bookingRequest';
import { forgotPasswordMachine } from './forgotPassword';
import { cardPaymentMachine } from './cardPayment';
import { provided } from './shared';
import type { CheckEmailInput, PriceInput, PriceOutput } from './bookingContext';

export const bookingActors = {
  calculatePrice: provided<PriceOutput, PriceInput>('calculatePrice'),
  checkEmail: provided<CheckEmailResponse, CheckEmailInput>('checkEmail'),
  createBooking: provided<BookingResponse, CreateBookingInput>('createBooking'),
  sendQuote: provided<{ success: boolean; message?: string }, QuoteRequest>('sendQuote'),
  forgotPassword: forgotPasswordMachine,
  cardPayment: cardPaymentMachine,
};
