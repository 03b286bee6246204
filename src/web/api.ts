// The API client (ofetch): one function per SPEC 7 call, each checking what
// it reads back. ./liveApp.ts hands them to the machines.
import { ofetch, FetchError } from 'ofetch';
import { array, assert } from 'superstruct';
import {
  AddressItem, AuthResponse, BookingResponse, CheckEmailResponse, CorporateBooking, FleetVehicle, PassengerLoginResponse,
  PriceResponse, Setting, UpdatePassengerResponse, type BookingForm, type PassengerProfile, type QuoteRequest,
} from '../domain/schemas';
import { settingsFromList, type Settings } from '../domain/settings';
import { filterDistancePrices, filterHourlyPrices } from '../domain/priceFiltering';
import { SESSION_ENDED, SIGN_IN_FAILED } from '../domain/messages';
import type { CheckEmailInput, CreateBookingInput, PriceInput, PriceOutput } from '../../machines/booking';
import type { ProfileChange, Session } from '../../machines/account';

declare global {
  interface Window { __APP_CONFIG__?: { apiPublicKey: string; apiSecretKey: string } }
}

const config = window.__APP_CONFIG__ ?? { apiPublicKey: '', apiSecretKey: '' };

export const api = ofetch.create({
  baseURL: '/api/v1',
  headers: { 'API-PUBLIC-KEY': config.apiPublicKey, 'API-SECRET-KEY': config.apiSecretKey },
  timeout: 0,
  retry: 0,
});

/** The server's message when it sent one, otherwise the client's error text (SPEC 8). */
export function errorMessage(err: unknown): string {
  if (err instanceof FetchError) {
    const data = err.data as { message?: string; error?: string } | undefined;
    if (data?.message) return data.message;
    if (data?.error) return data.error;
    if (!err.response) return 'We could not reach the booking server. Please check your connection and try again.';
  }
  return err instanceof Error ? err.message : String(err);
}

export async function fetchSettings(): Promise<Settings> {
  const list = await api('/setting');
  assert(list, array(Setting));
  return settingsFromList(list);
}

let addresses: Promise<AddressItem[]> | null = null;
/** The operator's known addresses, fetched once per page (SPEC 8: a failure is kept, the list stays empty). */
export function fetchAddresses(): Promise<AddressItem[]> {
  addresses ??= api('/ai-addresses').then((list) => {
    assert(list, array(AddressItem));
    return list;
  }).catch((err) => {
    console.error('Address list unavailable:', errorMessage(err));
    addresses = null;
    return [];
  });
  return addresses;
}

export async function calculatePrice({ bookingType, form, settings }: PriceInput): Promise<PriceOutput> {
  try {
    const path = bookingType === 'milleage' ? '/calculate-distance-price' : '/calculate-hourly-price';
    const res = await api(path, { method: 'POST', body: form });
    assert(res, PriceResponse);
    const filtered = bookingType === 'milleage'
      ? filterDistancePrices(res.price_details, form as BookingForm, settings)
      : filterHourlyPrices(res.price_details, form, settings);
    if (!filtered.ok) throw new Error(filtered.error);
    const r = res as typeof res & { return_via_miles?: number; return_time_duration?: number };
    return {
      prices: filtered.prices,
      trip: {
        via_miles: r.via_miles, time_duration: r.time_duration, estimated: r.estimated,
        return_via_miles: r.return_via_miles, return_time_duration: r.return_time_duration,
      },
    };
  } catch (err) {
    throw new Error(errorMessage(err));
  }
}

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
    throw new Error(errorMessage(err));
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

/** SPEC 8: the reset calls show the server's message, or this when there is none. */
export async function authCall(path: string, body: object, fallback: string): Promise<AuthResponse> {
  try {
    const res = await api(path, { method: 'POST', body });
    assert(res, AuthResponse);
    return res;
  } catch (err) {
    const data = err instanceof FetchError ? (err.data as { message?: string } | undefined) : undefined;
    throw new Error(data?.message ?? fallback);
  }
}

const bearer = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
const status = (err: unknown) => (err instanceof FetchError ? err.response?.status : undefined);

/**
 * The corporate calls' failures: an ended session (401) is told apart so the machine can send the passenger to sign
 * in again; a limit (429) keeps the server's message, which says when to try again; anything else is SPEC 8's text.
 */
function accountError(err: unknown): Error {
  if (status(err) === 401) return new Error(SESSION_ENDED);
  if (status(err) === 429 || status(err) === 422 || status(err) === 403) return new Error(errorMessage(err));
  return new Error(SIGN_IN_FAILED);
}

/** SPEC 4 'Sign-in': wrong credentials are an answer (success false); anything else is an error. */
export async function login(input: { email: string; password: string }): Promise<PassengerLoginResponse> {
  try {
    const res = await api('/check-passenger-login', { method: 'POST', body: input });
    assert(res, PassengerLoginResponse);
    return res;
  } catch (err) {
    if (status(err) === 401) return { success: false, message: errorMessage(err) };
    throw accountError(err);
  }
}

/** SPEC 2 'Route guard': the token is checked on each protected navigation. */
export async function validateToken({ token }: { token: string }): Promise<boolean> {
  const res = await api<{ valid?: unknown }>('/passenger/validate-token', { method: 'POST', headers: bearer(token) });
  return res.valid === true;
}

export async function fetchBookings(session: Session): Promise<CorporateBooking[]> {
  try {
    const list = await api(`/get_booking/${session.passenger.passenger_id}`, { headers: bearer(session.token) });
    assert(list, array(CorporateBooking));
    return list;
  } catch (err) {
    throw accountError(err);
  }
}

/** SPEC 8 'Profile': the server's message on failure, or 'An error occurred. Please try again later.'. */
export async function updateProfile({ session, profile }: { session: Session; profile: ProfileChange }): Promise<PassengerProfile> {
  try {
    const res = await api('/update-passenger', {
      method: 'PATCH', headers: bearer(session.token), body: { ...profile, passenger_id: session.passenger.passenger_id },
    });
    assert(res, UpdatePassengerResponse);
    if (!res.success || !res.passenger) throw new Error(res.message || SIGN_IN_FAILED);
    return res.passenger;
  } catch (err) {
    if (err instanceof Error && !(err instanceof FetchError)) throw err;
    throw accountError(err);
  }
}

/** SPEC 4: the passenger is signed out here whatever the server answers. */
export async function logout({ token }: { token: string }): Promise<void> {
  await api('/passenger/logout', { method: 'POST', headers: bearer(token) });
}
