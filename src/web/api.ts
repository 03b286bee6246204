// The API client (ofetch) and the calls the first page makes (settings,
// addresses, prices), each checking what it reads back. ./liveApp.ts hands
// them to the machines; the later steps' calls are in ./bookingApi.ts and the
// corporate and password-reset calls in ./accountApi.ts, lazy chunks both.
import { ofetch, FetchError } from 'ofetch';
import { array, assert, is } from 'superstruct';
import { AddressItem, PriceResponse, Setting, type BookingForm } from '../domain/schemas';
import { settingsFromList, type Settings } from '../domain/settings';
import { AddressError, addressField } from '../domain/places';
import { isUrgentBookingError, PART_NOT_LOADED } from '../domain/messages';
import type { PriceInput, PriceOutput } from '../../machines/booking';

declare global {
  interface Window {
    __APP_CONFIG__?: { apiPublicKey: string; apiSecretKey: string };
    /** GET /setting's answer, sent with the page by the server (src/server/http/web.ts); null when it could not read it. */
    __APP_SETTINGS__?: unknown;
  }
}

const config = window.__APP_CONFIG__ ?? { apiPublicKey: '', apiSecretKey: '' };

export const api = ofetch.create({
  baseURL: '/api/v1',
  headers: { 'API-PUBLIC-KEY': config.apiPublicKey, 'API-SECRET-KEY': config.apiSecretKey },
  timeout: 0,
  retry: 0,
});

/**
 * A lazy chunk the browser could not fetch (Chromium, Firefox and Safari word it so). The browser keeps that failure
 * for the rest of the page's life, so only a reload tries again.
 */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed/i;

/** The server's message when it sent one, otherwise the client's error text (SPEC 8). */
export function errorMessage(err: unknown): string {
  if (err instanceof TypeError && CHUNK_FAILED.test(err.message)) {
    return PART_NOT_LOADED;
  }
  if (err instanceof FetchError) {
    const data = err.data as { message?: string; error?: string } | undefined;
    if (data?.message) return data.message;
    if (data?.error) return data.error;
    if (!err.response) return 'We could not reach the booking server. Please check your connection and try again.';
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * What a price or booking call failed with: an AddressError when the server could not place an address of the form
 * (decision 23). A banned address names its field too, but it is SPEC 8's urgent-booking case, not a typing error.
 */
export function callError(err: unknown): Error {
  const message = errorMessage(err);
  const field = err instanceof FetchError && !isUrgentBookingError(message)
    ? addressField((err.data as { field?: string } | undefined)?.field) : null;
  return field ? new AddressError(message, field) : new Error(message);
}

/** The settings the server sent with the page, checked as GET /setting's answer is; null when absent or unsound. */
export function settingsInPage(value: unknown = window.__APP_SETTINGS__): Settings | null {
  return is(value, array(Setting)) ? settingsFromList(value) : null;
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
  // SPEC 5's filtering runs once the prices arrive: a lazy chunk (shared with the quotation page), fetched meanwhile.
  const filtering = import('../domain/priceFiltering');
  filtering.catch(() => {});
  try {
    const path = bookingType === 'milleage' ? '/calculate-distance-price' : '/calculate-hourly-price';
    const res = await api(path, { method: 'POST', body: form });
    assert(res, PriceResponse);
    const { filterDistancePrices, filterHourlyPrices } = await filtering;
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
    throw callError(err);
  }
}

/** The corporate calls' sign-in header. */
export const bearer = (token: string | null): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});


/**
 * A refusal as the lazily loaded areas' machines keep it (the console, a passenger's booking page): the server's
 * message, the field it names and the HTTP status (401: a session ended; 404 and 410: a link that opens nothing).
 */
export function refusalOf(err: unknown): Error & { field?: string; status?: number } {
  const status = err instanceof FetchError ? err.response?.status : undefined;
  const field = err instanceof FetchError ? (err.data as { field?: string } | undefined)?.field : undefined;
  return Object.assign(new Error(errorMessage(err)), { ...(field ? { field } : {}), ...(status ? { status } : {}) });
}
