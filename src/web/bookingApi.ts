// The calls of the steps after the vehicle results (SPEC 4, 7): the e-mail check, the booking, the quote request,
// and the fleet of the home page's sections. A lazy chunk: the first page never makes them. ./liveApp.ts loads it on
// the first such call; the views that fetch the fleet import it themselves.
import { array, assert } from 'superstruct';
import { BookingResponse, CheckEmailResponse, FleetVehicle, type QuoteRequest } from '../domain/schemas';
import type { CheckEmailInput, CreateBookingInput } from '../../machines/booking';
import { FetchError } from 'ofetch';
import { api, bearer, callError, errorMessage } from './api';
import { AccountFieldError, type AccountBilling } from '../domain/accountPayment';

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
    ...(input.paymentMethod === 'account' ? { account_fields: input.accountFields ?? {} } : {}),
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
    // Issue 44: a value of the account's fields the server refused is shown under its field.
    const field = err instanceof FetchError ? (err.data as { field?: string } | undefined)?.field ?? '' : '';
    const id = /^account_fields\.(\d+)$/.exec(field)?.[1];
    if (id) throw new AccountFieldError(errorMessage(err), id);
    throw callError(err);
  }
}

/** Issue 44: the signed-in booker's company account, for "Pay on account" (null: none, or nobody signed in). */
export async function loadBilling(input: { token: string | null }): Promise<AccountBilling | null> {
  if (!input.token) return null;
  const res = await api('/account/billing', { headers: bearer(input.token) });
  return (res as { account: AccountBilling | null }).account ?? null;
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
