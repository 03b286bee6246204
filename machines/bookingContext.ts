// The booking wizard's context, input and events (./booking.ts), and the plain functions on them: the booking call
// a context makes, its attempt's fingerprint, the amount a card is charged, the tabs the home page offers.
import type { FlightCheck } from '../src/domain/flights';
import type { AccountBilling } from '../src/domain/accountPayment';
import type {
  BookingForm, BookingResult, BookingType, HourlyRateForm, PriceDetail, PassengerProfile, QuoteRequest, RegistrationData,
  RegistrationMode,
} from '../src/domain/schemas';
import { isEnabled, type Settings } from '../src/domain/settings';
import { finalPricePence } from '../src/domain/money';
import type { CreateBookingInput } from '../src/domain/bookingRequest';
import { homePathFor, type HomePath } from './bookingSteps';
import type { CardToBooking } from './cardPayment';
import type { Session } from './account';

export type { CreateBookingInput };

export interface TripEstimate {
  via_miles?: number; time_duration?: number; return_via_miles?: number; return_time_duration?: number; estimated?: boolean;
}

/** What browser storage held when the page opened, each value checked against its schema (src/web/storage.ts). */
export interface StoredBooking {
  settings?: Settings;
  bookingType?: BookingType;
  bookingForm?: BookingForm | null;
  hourlyForm?: HourlyRateForm | null;
  priceDetails?: PriceDetail[] | null;
  trip?: TripEstimate | null;
  selectedVehicle?: PriceDetail | null;
  quantity?: number;
  selectionType?: 'lowest' | 'selection';
  registrationMode?: RegistrationMode;
  registration?: RegistrationData | null;
  booking?: BookingResult | null;
  attempt?: Attempt | null;
}

/**
 * One attempt to book: the Idempotency-Key the server knows it by, for one request (trip, vehicle, details, way of
 * paying) and, for a card, the one payment intent made for it. Kept in browser storage, so a reload of the card page
 * continues the same attempt (the same pending booking, the same intent) instead of paying twice. A changed request
 * is a new attempt with a new key.
 */
export interface Attempt { key: string; fingerprint: string; intentId: string | null }

/**
 * An address the server refused (decision 23): the form shows the message under that address's input while it
 * still holds the refused text. `field` is 'pickup', 'dropoff' or 'stops.N'.
 */
export interface AddressProblem { field: string; message: string; text: string }

/** The refusal to show under the input of `field` while it holds `text`, if the server refused that text there. */
export const refusalFor = (p: AddressProblem | null, field: string, text: string): string | undefined =>
  p && p.field === field && p.text.trim() === text.trim() ? p.message : undefined;

/** The app starts the wizard once the settings are known, with the signed-in passenger if any. */
export interface BookingInput { path: string; settings: Settings; stored?: StoredBooking; session?: Session | null }

export interface BookingContext {
  requestedPath: string;
  homePath: HomePath;
  settings: Settings;
  /** The signed-in corporate passenger: bookings are made for this account, with its token. */
  session: Session | null;
  bookingType: BookingType;
  bookingForm: BookingForm | null;
  hourlyForm: HourlyRateForm | null;
  priceDetails: PriceDetail[] | null;
  trip: TripEstimate | null;
  selectedVehicle: PriceDetail | null;
  quantity: number;
  selectionType: 'lowest' | 'selection';
  registrationMode: RegistrationMode;
  registration: RegistrationData | null;
  attempt: Attempt | null;
  /** The card provider's publishable key, once the card page has it (SPEC 2: /stripecheckout?stripeKey=...). */
  cardKey: string | null;
  paymentMethod: PaymentMethod | null;
  /**
   * Issue 44: the signed-in booker's company account, as the payment step loads it (null: none, or not signed in),
   * the values of its booking fields given with "Pay on account", and a value the server refused (shown under it).
   */
  billing: AccountBilling | null;
  accountFields: Record<string, string>;
  accountFieldError: { fieldId: string; message: string } | null;
  booking: BookingResult | null;
  /** The message of the dialog or notice on screen, if any. */
  error: string | null;
  /** The address a price or booking call refused, shown in the form (decision 23). */
  addressError: AddressProblem | null;
  notice: string | null;
  /**
   * Why the visitor was sent to /quoteView (decision 22): a pickup inside the grace period, or a banned address.
   * Kept while they are there, for the panel that explains it; null when they came on their own.
   */
  urgentReason: UrgentReason | null;
  /**
   * What the flight status service said of the pickup's flight on the details step (issue 42): a flight that does not
   * land at the pickup's airport that day is flagged there, the booking goes on.
   */
  flightCheck: FlightCheck | null;
}

export type UrgentReason = 'grace' | 'banned';
export type PaymentMethod = 'car' | 'card' | 'account';

export type BookingEvent =
  | { type: 'url.changed'; path: string; search: string }
  | { type: 'session.changed'; session: Session | null }
  | { type: 'home.typeChanged'; bookingType: BookingType }
  | { type: 'home.hourlyChanged'; form: HourlyRateForm }
  | { type: 'home.submit'; bookingType: BookingType; form: BookingForm | HourlyRateForm }
  | { type: 'error.dismissed' }
  | { type: 'quotation.select'; vehicle: PriceDetail; quantity: number; selectionType: 'lowest' | 'selection' }
  | { type: 'details.changed'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'details.submit'; mode: RegistrationMode; registration: RegistrationData; flights?: Flights }
  | { type: 'payment.payInCar' }
  | { type: 'payment.payByCard' }
  /** Issue 44: a booker pays on their company's account, with the values of its booking fields (by field id). */
  | { type: 'payment.payOnAccount'; fields: Record<string, string> }
  | CardToBooking
  | { type: 'quote.submit'; request: QuoteRequest }
  /** The details step's flight look-up answered (issue 42; the checkFlight actor sends it). */
  | { type: 'flight.checked'; check: FlightCheck };

/** What the details step's flight look-up asks (GET /flights/check): the number typed, the pickup's date and place. */
export interface FlightCheckInput { number: string; date: string; pickup: string }

/** The look-up of the pickup's flight: the number typed, the day and the place of the pickup (issue 42). */
export function flightCheckInput(c: Pick<BookingContext, 'bookingForm' | 'bookingType'>): FlightCheckInput {
  const form = c.bookingType === 'milleage' ? c.bookingForm : null;
  return { number: form?.pickup_fight_number ?? '', date: form?.pickup_date ?? '', pickup: form?.pickup ?? '' };
}

/** Flight, train or ferry references, editable again on the details step (SPEC 2). */
export interface Flights { pickup_fight_number: string; return_fight_number: string }

export interface PriceInput { bookingType: BookingType; form: BookingForm | HourlyRateForm; settings: Settings }
export interface PriceOutput { prices: PriceDetail[]; trip: TripEstimate | null }
export interface CheckEmailInput { email: string; password: string }

/** What the price call is given: the form of the chosen booking type. */
export const priceInput = (c: BookingContext): PriceInput => ({
  bookingType: c.bookingType, form: (c.bookingType === 'milleage' ? c.bookingForm : c.hourlyForm)!, settings: c.settings,
});
/** What the e-mail check (SPEC 4) is given. */
export const checkEmailInput = (c: BookingContext): CheckEmailInput => ({ email: c.registration!.email, password: c.registration!.password ?? '' });
/** The booking call for the context's trip, paid this way, under the current attempt's key. */
export function bookingInput(c: BookingContext, paymentMethod: PaymentMethod): CreateBookingInput {
  return {
    idempotencyKey: c.attempt?.key ?? '',
    bookingType: c.bookingType, bookingForm: c.bookingForm, hourlyForm: c.hourlyForm, vehicle: c.selectedVehicle!,
    quantity: c.quantity, mode: c.registrationMode, registration: c.registration!, paymentMethod, token: c.session?.token ?? null,
    ...(paymentMethod === 'account' ? { accountFields: c.accountFields } : {}),
  };
}

/** A short digest of what is booked and how it is paid (never the password): the same request keeps its key. */
export function attemptFingerprint(c: BookingContext, paymentMethod: PaymentMethod): string {
  const { idempotencyKey: _key, registration, ...rest } = bookingInput(c, paymentMethod);
  const { password: _password, ...reg } = registration ?? ({} as RegistrationData);
  const text = JSON.stringify({ ...rest, registration: reg });
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 0x5bd1e995) >>> 0;
  }
  return `${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}

/** What the card page charges: the chosen vehicle's price times the quantity (SPEC 4), in pence. */
export const amountPence = (c: Pick<BookingContext, 'selectedVehicle' | 'quantity'>) =>
  c.selectedVehicle ? finalPricePence(c.selectedVehicle.price, c.quantity) : 0;

/** SPEC 2 'Home view': which tabs show, and the one that opens first. */
export function availableBookingTypes(s: Settings): BookingType[] {
  const types: BookingType[] = [];
  if (s.IS_QUOTATION !== 'enable') types.push('milleage');
  if (isEnabled(s, 'HOURLY_RATE_STATUS')) types.push('hourly');
  return types.length ? types : ['milleage'];
}

export function openingBookingType(s: Settings, stored: BookingType | null): BookingType {
  const types = availableBookingTypes(s);
  if (stored && types.includes(stored)) return stored;
  return types.includes('hourly') ? 'hourly' : 'milleage';
}

export const emptyRegistration = (): RegistrationData => ({
  firstName: '', surname: '', number: '', email: '', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
});

/** A fresh key for each booking attempt; works outside secure contexts too. */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A signed-in passenger's details fill the personal details they have not typed (their own name, e-mail, phone). */
export function registrationFor(passenger: PassengerProfile, current: RegistrationData | null): RegistrationData {
  const base = current ?? emptyRegistration();
  const [firstName, ...rest] = passenger.passenger_name.trim().split(/\s+/);
  return {
    ...base,
    firstName: base.firstName || firstName || '',
    surname: base.surname || rest.join(' '),
    email: base.email || passenger.passenger_email,
    number: base.number || passenger.passenger_contact_no,
  };
}

/** The context a new wizard starts with: what browser storage kept, and the signed-in passenger's own details. */
export function initialContext(input: BookingInput): BookingContext {
  const { stored, session } = input;
  return {
    requestedPath: input.path,
    homePath: homePathFor(input.path),
    settings: input.settings,
    session: session ?? null,
    bookingType: openingBookingType(input.settings, stored?.bookingType ?? null),
    bookingForm: stored?.bookingForm ?? null,
    hourlyForm: stored?.hourlyForm ?? null,
    priceDetails: stored?.priceDetails ?? null,
    trip: stored?.trip ?? null,
    selectedVehicle: stored?.selectedVehicle ?? null,
    quantity: stored?.quantity ?? 1,
    selectionType: stored?.selectionType ?? 'selection',
    registrationMode: session ? 'guest_login' : stored?.registrationMode ?? 'guest_login',
    registration: session ? registrationFor(session.passenger, stored?.registration ?? null) : stored?.registration ?? null,
    attempt: stored?.attempt ?? null,
    cardKey: null,
    paymentMethod: null,
    billing: null,
    accountFields: {},
    accountFieldError: null,
    booking: stored?.booking ?? null,
    error: null,
    addressError: null,
    urgentReason: null,
    notice: null,
    flightCheck: null,
  };
}
