// The calls of the steps after the vehicle results (SPEC 4, 7): the e-mail check, the booking, the quote request,
// and the fleet of the home page's sections. A lazy chunk: the first page never makes them. ./liveApp.ts loads it on
// the first such call; the views that fetch the fleet import it themselves.
import { array, assert } from 'superstruct';
import { BookingResponse, CheckEmailResponse, FleetVehicle, type QuoteRequest } from '../domain/schemas';
import type { CheckEmailInput, CreateBookingInput } from '../../machines/booking';
import { api, bearer, callError, errorMessage } from './api';

/** SPEC 7 booking's body; the card calls send the same booking, so the server knows it by the same key. */
export function bookingBody(input: CreateBookingInput) {
  return {
    selectedVehicleData: input.vehicle,
    selectedVehicle: input.quantity,
    bookingType: input.bookingType,
    bookingForm: input.bookingForm,
    hourlyRateForm: input.hourlyForm,
    registrationData: input.registration,
    payment_method: input.paymentMethod,
    selected_passenger: input.mode,
    stripe_session_id: input.stripeSessionId ?? null,
    paymentId: input.paymentId ?? null,
  };
}

/** SPEC 6: a signed-in corporate passenger's booking carries the bearer token and is theirs. */
export const bookingHeaders = (input: CreateBookingInput) => ({ 'Idempotency-Key': input.idempotencyKey, ...bearer(input.token) });

export async function createBooking(input: CreateBookingInput): Promise<BookingResponse> {
  try {
    const res = await api('/booking', { method: 'POST', headers: bookingHeaders(input), body: bookingBody(input) });
    assert(res, BookingResponse);
    return res;
  } catch (err) {
    throw callError(err);
  }
}

/** SPEC 4 'Email check'. */
export async function checkEmail(input: CheckEmailInput): Promise<CheckEmailResponse> {
  try {
    const res = await api('/check-passenger-email', { method: 'POST', body: input });
    assert(res, CheckEmailResponse);
    return res;
  } catch (err) {
    throw new Error(errorMessage(err));
  }
}

/** SPEC 4 'Quote send'. */
export async function sendQuote(request: QuoteRequest): Promise<{ success: boolean; message?: string }> {
  return api('/send-instant-email', { method: 'POST', body: request });
}

/** SPEC 8: a fleet fetch failure is logged only. */
export async function fetchFleet(): Promise<FleetVehicle[]> {
  try {
    const list = await api('/fetch_vehicles');
    assert(list, array(FleetVehicle));
    return list;
  } catch (err) {
    console.error('Fleet unavailable:', errorMessage(err));
    return [];
  }
}
