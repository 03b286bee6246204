// SPEC 2 'Screens and routes' for the booking wizard: which path is which
// step, what each step needs, and where a request lands when it lacks it.
import type { PriceDetail, RegistrationData, RegistrationMode } from '../src/domain/schemas';
import type { BookingResult } from '../src/domain/schemas';
import { validateDetails } from '../src/domain/detailsValidation';

export type Step = 'home' | 'quotation' | 'details' | 'payment' | 'success' | 'quote' | 'forgotPassword';

export const STEP_PATHS: Record<Exclude<Step, 'home'>, string> = {
  quotation: '/quotationview',
  details: '/personalDetailView',
  payment: '/paymentview',
  success: '/paymentSuccessView',
  quote: '/quoteView',
  forgotPassword: '/forgot_password',
};
export const HOME_PATHS = ['/', '/home', '/booktripview'] as const;
export type HomePath = (typeof HOME_PATHS)[number];

/** SPEC 2 'Step indicator': book trip 0, quotation 1, personal detail 2, payment 3 (the card page counts as payment). */
export function stepIndexOfPath(path: string): number {
  const p = path.toLowerCase();
  if (p === '/quotationview') return 1;
  if (p === '/personaldetailview') return 2;
  if (p === '/paymentview' || p === '/stripecheckout') return 3;
  return 0;
}

/** The step a path asks for, before the guards. */
export function stepForPath(path: string): Step {
  const found = (Object.entries(STEP_PATHS) as [Step, string][]).find(([, p]) => p.toLowerCase() === path.toLowerCase());
  return found ? found[0] : 'home';
}

export function homePathFor(path: string): HomePath {
  if ((HOME_PATHS as readonly string[]).includes(path)) return path as HomePath;
  return stepForPath(path) === 'home' ? '/' : '/home';
}

export interface StepData {
  priceDetails: PriceDetail[] | null;
  selectedVehicle: PriceDetail | null;
  registration: RegistrationData | null;
  registrationMode: RegistrationMode;
  booking: BookingResult | null;
}

export const hasPrices = (c: StepData) => Array.isArray(c.priceDetails);
export const hasVehicle = (c: StepData) => hasPrices(c) && c.selectedVehicle !== null;
/**
 * Saved details are enough to pay when they pass SPEC 5's rules for their mode. Details are saved on every change,
 * so a half-filled form does not count; a client's password is typed in this visit (it is never stored).
 */
export const hasRegistration = (c: StepData) =>
  hasVehicle(c) && c.registration !== null && Object.keys(validateDetails(c.registrationMode, c.registration)).length === 0;
export const hasBooking = (c: StepData) => c.booking !== null;

/** SPEC 2: /paymentview falls back to /personalDetailView, then /quotationview, then /home. */
export function landingStep(c: StepData, path: string): Step {
  const wanted = stepForPath(path);
  if (wanted === 'quote' || wanted === 'forgotPassword') return wanted;
  if (wanted === 'success') return hasBooking(c) ? 'success' : 'home';
  if (wanted === 'payment' && hasRegistration(c)) return 'payment';
  if ((wanted === 'payment' || wanted === 'details') && hasVehicle(c)) return 'details';
  if (wanted !== 'home' && hasPrices(c)) return 'quotation';
  return 'home';
}

/** SPEC 2 'Previous/Next control': Next is hidden when it would go to /, /checkout or /personalDetailView. */
export function showsNext(nextPath: string): boolean {
  return !['/', '/checkout', '/personaldetailview'].includes(nextPath.toLowerCase());
}
