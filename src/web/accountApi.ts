// The corporate and password-reset calls (SPEC 4, 6, 7), a lazy chunk: the
// first page never needs them. ./liveApp.ts loads it on the first such call.
import { FetchError } from 'ofetch';
import { array, assert } from 'superstruct';
import { AuthResponse, CorporateBooking, PassengerLoginResponse, UpdatePassengerResponse, type PassengerProfile } from '../domain/schemas';
import { SESSION_ENDED, SIGN_IN_FAILED } from '../domain/messages';
import type { ProfileChange, Session } from '../../machines/account';
import { api, bearer, errorMessage } from './api';

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
      method: 'PATCH', headers: bearer(session.token),
      body: {
        name: profile.name, email: profile.email, phone: profile.phone, passenger_id: session.passenger.passenger_id,
        ...(profile.currentPassword ? { current_password: profile.currentPassword } : {}),
      },
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
