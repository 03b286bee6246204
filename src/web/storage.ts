// Browser storage under SPEC 3's keys, values encoded (base64 of UTF-8 JSON).
// Only the booking machine's persist/clear actions write here.
import type { BookingContext, StoredBooking } from '../../machines/booking';
import type { Settings } from '../domain/settings';

export function encode(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary);
}

export function decode<T>(text: string | null): T | undefined {
  if (!text) return undefined;
  try {
    const binary = atob(text);
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as T;
  } catch {
    return undefined;
  }
}

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
} as const;
const CONFIRMATION_KEY = 'confirmedBooking';

function read<T>(key: string): T | undefined {
  try {
    return decode<T>(localStorage.getItem(key));
  } catch {
    return undefined;
  }
}

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
    const map = JSON.parse(raw) as Record<string, string>;
    return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, decode<string>(v) ?? '']));
  } catch {
    return undefined;
  }
}

export function readStoredBooking(): StoredBooking {
  const selected = read<StoredBooking['selectedVehicle']>(KEYS.selectedVehicle) ?? null;
  const selections = read<Record<string, number>>(KEYS.vehicleSelections) ?? {};
  let booking: StoredBooking['booking'] = null;
  try {
    booking = decode(sessionStorage.getItem(CONFIRMATION_KEY)) ?? null;
  } catch { /* no session storage */ }
  return {
    settings: readSettings(),
    bookingType: read(KEYS.bookingType),
    bookingForm: read(KEYS.bookingForm) ?? null,
    hourlyForm: read(KEYS.hourlyForm) ?? null,
    priceDetails: read(KEYS.priceDetails) ?? null,
    trip: read(KEYS.trip) ?? null,
    selectedVehicle: selected,
    quantity: selected ? selections[`${selected.vehicle_id}-${selected.company_id}`] ?? 1 : 1,
    registration: read(KEYS.registration) ?? null,
    registrationMode: read(KEYS.registrationMode),
    selectionType: read(KEYS.vehicleSelectedType),
    booking,
  };
}

export function persist(c: BookingContext): void {
  try {
    localStorage.setItem(KEYS.settings, JSON.stringify(Object.fromEntries(Object.entries(c.settings).map(([k, v]) => [k, encode(v)]))));
  } catch { /* ignore */ }
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
  // Never a password in browser storage.
  const { password: _password, ...registration } = c.registration ?? { password: undefined };
  write(KEYS.registration, c.registration ? registration : null);
}

/** SPEC 2: the confirmation clears all local storage except appSettings; the booking stays for this tab only. */
export function clearStoredBooking(c: BookingContext): void {
  try {
    const settings = localStorage.getItem(KEYS.settings);
    localStorage.clear();
    if (settings !== null) localStorage.setItem(KEYS.settings, settings);
    if (c.booking) sessionStorage.setItem(CONFIRMATION_KEY, encode(c.booking));
  } catch { /* ignore */ }
}
