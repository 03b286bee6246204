// SPEC 2 'Screens and routes' for the booking wizard: which path is which
// screen (src/domain/screens.ts), what each screen needs, and where a request
// lands when it lacks it.
import type { PriceDetail, RegistrationData, RegistrationMode } from '../src/domain/schemas';
import type { BookingResult } from '../src/domain/schemas';
import { isStoredPhone, validateDetails } from '../src/domain/detailsValidation';
import {
  areaOfScreen, isPathOf, pathOfScreen, screenOfPath, TURNED_BACK_HOME_PATH, type WizardScreen,
} from '../src/domain/screens';
import { allowsGuests, showsCard, type Settings } from '../src/domain/settings';

/** A screen of the wizard: each is a state of the booking machine, which says so in its meta. */
export type Step = WizardScreen;
/** One of the paths of the home screen (SCREENS.home: its path and aliases). */
export type HomePath = string;

/** The step a path asks for, before the guards: any path that is not a wizard screen asks for home. */
export function stepForPath(path: string): Step {
  const name = screenOfPath(path);
  return name !== null && areaOfScreen(name) === 'wizard' ? (name as Step) : 'home';
}

/** Home keeps the path it was opened by (/, /home or /booktripview); SPEC 2: a failed guard lands on /home, any other path on /. */
export function homePathFor(path: string): HomePath {
  if (isPathOf('home', path)) return path;
  return stepForPath(path) === 'home' ? pathOfScreen('home') : TURNED_BACK_HOME_PATH;
}

export interface StepData {
  priceDetails: PriceDetail[] | null;
  selectedVehicle: PriceDetail | null;
  registration: RegistrationData | null;
  registrationMode: RegistrationMode;
  booking: BookingResult | null;
  settings: Settings;
  /** A signed-in corporate passenger, who may book as a guest whatever GUEST_LOGIN says. */
  session: object | null;
}

export const hasPrices = (c: StepData) => Array.isArray(c.priceDetails);
export const hasVehicle = (c: StepData) => hasPrices(c) && c.selectedVehicle !== null;
/**
 * Saved details are enough to pay when they pass SPEC 5's rules for their mode. Details are saved on every change,
 * so a half-filled form does not count; a client's password is typed in this visit (it is never stored). Phones are
 * checked in their stored form (E.164, as the details form stores a valid number): the full rule and its metadata
 * stay off the first page (decision 20); the server applies it to the booking.
 */
export const hasRegistration = (c: StepData) =>
  hasVehicle(c) && c.registration !== null
  && Object.keys(validateDetails(c.registrationMode, c.registration, isStoredPhone)).length === 0
  // GUEST_LOGIN: details saved as a guest do not count once the operator stops guest bookings.
  && (c.registrationMode !== 'guest_login' || allowsGuests(c.settings) || c.session !== null);
export const hasBooking = (c: StepData) => c.booking !== null;

/**
 * SPEC 2: /paymentview falls back to /personalDetailView, then /quotationview, then /home. The card page needs what
 * the payment step needs, and SHOWCARD; without it, it is the payment step. /checkout, the payment step's review,
 * needs what the payment step needs.
 */
export function landingStep(c: StepData, path: string): Step {
  const wanted = stepForPath(path);
  if (wanted === 'quote' || wanted === 'forgotPassword') return wanted;
  if (wanted === 'success') return hasBooking(c) ? 'success' : 'home';
  if (wanted === 'card' && hasRegistration(c)) return showsCard(c.settings) ? 'card' : 'payment';
  if ((wanted === 'payment' || wanted === 'checkout') && hasRegistration(c)) return wanted;
  if ((wanted === 'payment' || wanted === 'checkout' || wanted === 'card' || wanted === 'details') && hasVehicle(c)) return 'details';
  if (wanted !== 'home' && hasPrices(c)) return 'quotation';
  return 'home';
}
