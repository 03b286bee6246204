// Browser storage under SPEC 3's keys, values encoded (base64 of UTF-8 JSON).
// Only the machines' storage actions write here. What is read back is checked
// against the schemas before it reaches a machine: a value that fails (an old
// version, a hand edit, another site's data) is dropped, never trusted.
import {
  array, boolean, enums, integer, nullable, number, optional, record, size, string, type, validate, type Struct,
} from 'superstruct';
import type { BookingContext, StoredBooking } from '../../machines/booking';
import type { Session } from '../../machines/account';
import type { Settings } from '../domain/settings';
import {
  BookingForm, BookingResult, BookingType, HourlyRateDraft, PassengerProfile, PriceDetail, RegistrationDraft, RegistrationMode,
} from '../domain/schemas';

export { encode, decode } from '../domain/encoding';
import { encode, decode } from '../domain/encoding';

const KEYS = {
  bookingForm: 'BookingForm',
  hourlyForm: 'HourlyRateForm',
  bookingType: 'BookingType',
  priceDetails: 'PriceDetails',
  selectedVehicle: 'selectedVehicleData',
  vehicleSelections: 'vehicleSelections',
  vehicleSelectedType: 'vehicle_selected_Type',
  registration: 'registrationData',
  paymentMethod: 'selectedPaymentMethod',
  settings: 'appSettings',
  trip: 'tripEstimate',
  registrationMode: 'registrationMode',
  token: 'passenger_token',
  passenger: 'passenger_corporate_details',
  /** The current booking attempt: its Idempotency-Key and card payment intent (machines/bookingContext.ts, Attempt). */
  attempt: 'bookingAttempt',
} as const;
const CONFIRMATION_KEY = 'confirmedBooking';

/** The stored value when it passes its schema (with the schema's defaults), else undefined. */
function checked<T>(value: unknown, schema: Struct<T, any>): T | undefined {
  if (value === undefined || value === null) return undefined;
  const [error, ok] = validate(value, schema, { coerce: true });
  if (error) console.info(`Dropped a stored value that no longer fits: ${error.message}`);
  return error ? undefined : ok;
}

function read<T>(key: string, schema: Struct<T, any>): T | undefined {
  try {
    return checked(decode(localStorage.getItem(key)), schema);
  } catch {
    return undefined;
  }
}

const TripEstimate = type({
  via_miles: optional(number()), time_duration: optional(number()),
  return_via_miles: optional(number()), return_time_duration: optional(number()), estimated: optional(boolean()),
});

function write(key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, encode(value));
  } catch {
    // Storage full or blocked (private mode): the booking still works for this page view.
  }
}

function readSettings(): Settings | undefined {
  try {
    const raw = localStorage.getItem(KEYS.settings);
    if (!raw) return undefined;
    const map = checked(JSON.parse(raw), record(string(), string()));
    if (!map) return undefined;
    return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, decode<string>(v) ?? '']).filter(([, v]) => typeof v === 'string'));
  } catch {
    return undefined;
  }
}

export function readStoredBooking(): StoredBooking {
  const selected = read(KEYS.selectedVehicle, PriceDetail) ?? null;
  const selections = read(KEYS.vehicleSelections, record(string(), size(integer(), 1, 99))) ?? {};
  let booking: StoredBooking['booking'] = null;
  try {
    booking = checked(decode(sessionStorage.getItem(CONFIRMATION_KEY)), BookingResult) ?? null;
  } catch { /* no session storage */ }
  return {
    settings: readSettings(),
    bookingType: read(KEYS.bookingType, BookingType),
    bookingForm: read(KEYS.bookingForm, BookingForm) ?? null,
    // Saved on every change, so possibly half filled: the form shows it and checks it again on submit.
    hourlyForm: (read(KEYS.hourlyForm, HourlyRateDraft) as StoredBooking['hourlyForm']) ?? null,
    priceDetails: read(KEYS.priceDetails, array(PriceDetail)) ?? null,
    trip: read(KEYS.trip, TripEstimate) ?? null,
    selectedVehicle: selected,
    quantity: selected ? selections[`${selected.vehicle_id}-${selected.company_id}`] ?? 1 : 1,
    registration: read(KEYS.registration, RegistrationDraft) ?? null,
    registrationMode: read(KEYS.registrationMode, RegistrationMode),
    selectionType: read(KEYS.vehicleSelectedType, enums(['lowest', 'selection'])),
    booking,
    attempt: read(KEYS.attempt, Attempt) ?? null,
  };
}

const Attempt = type({ key: size(string(), 8, 200), fingerprint: size(string(), 1, 64), intentId: nullable(size(string(), 3, 255)) });

/** The signed-in corporate passenger (SPEC 3: passenger_token, passenger_corporate_details), when both are stored and sound. */
export function readSession(): Session | null {
  const token = read(KEYS.token, size(string(), 20, 200));
  const passenger = read(KEYS.passenger, PassengerProfile);
  return token && passenger ? { token, passenger } : null;
}

export function storeSession(session: Session | null): void {
  write(KEYS.token, session?.token ?? null);
  write(KEYS.passenger, session?.passenger ?? null);
}

export function storeSettings(settings: Settings): void {
  try {
    localStorage.setItem(KEYS.settings, JSON.stringify(Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, encode(v)]))));
  } catch { /* ignore */ }
}

export function persist(c: BookingContext): void {
  write(KEYS.bookingType, c.bookingType);
  write(KEYS.bookingForm, c.bookingForm);
  write(KEYS.hourlyForm, c.hourlyForm);
  write(KEYS.priceDetails, c.priceDetails);
  write(KEYS.trip, c.trip);
  write(KEYS.selectedVehicle, c.selectedVehicle);
  write(KEYS.vehicleSelections, c.selectedVehicle ? { [`${c.selectedVehicle.vehicle_id}-${c.selectedVehicle.company_id}`]: c.quantity } : null);
  write(KEYS.vehicleSelectedType, c.selectedVehicle ? c.selectionType : null);
  write(KEYS.registrationMode, c.registrationMode);
  write(KEYS.paymentMethod, c.paymentMethod);
  write(KEYS.attempt, c.attempt);
  // Never a password in browser storage.
  const { password: _password, ...registration } = c.registration ?? { password: undefined };
  write(KEYS.registration, c.registration ? registration : null);
}

/**
 * SPEC 2: the confirmation clears all local storage except appSettings (and, so a corporate passenger stays signed
 * in, the session); the booking stays for this tab only.
 */
export function clearStoredBooking(c: BookingContext): void {
  try {
    const kept = [KEYS.settings, KEYS.token, KEYS.passenger].map((k) => [k, localStorage.getItem(k)] as const);
    localStorage.clear();
    for (const [k, v] of kept) if (v !== null) localStorage.setItem(k, v);
    if (c.booking) sessionStorage.setItem(CONFIRMATION_KEY, encode(c.booking));
  } catch { /* ignore */ }
}
