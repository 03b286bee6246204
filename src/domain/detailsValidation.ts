// SPEC 5 'Details form': the field messages shown under the inputs, and the
// alerts shown when Next is pressed. The phone rule is an argument: the form and
// the server pass the full rule (isPhone of ./phone), the booking machine on the
// first page the cheap check of the stored form (isStoredPhone, below).
import type { RegistrationMode } from './schemas';
import { emailProblem, isEmail } from './fields';
import { EMAIL_INVALID, EMAIL_REQUIRED, PHONE_MESSAGE } from './messages';

/** Whether a phone number is acceptable: `isPhone` (./phone) for what is typed or sent, `isStoredPhone` for what forms stored. */
export type PhoneRule = (text: string) => boolean;

/**
 * The stored form of a phone number: E.164, a + and up to 15 digits. A cheap check for code on the first page (the
 * booking machine's guard on saved details), which must not carry libphonenumber-js: forms store numbers already
 * normalised by the one phone rule (./phone.ts), which the forms and the server apply in full.
 */
export const isStoredPhone: PhoneRule = (value) => /^\+\d{6,15}$/.test(value);

export const DETAILS_MESSAGES = {
  emailRequired: EMAIL_REQUIRED,
  emailInvalid: EMAIL_INVALID,
  firstNameRequired: 'First Name is required',
  lastNameRequired: 'Last Name is required',
  phoneRequired: 'Phone Number is required',
  phoneInvalid: PHONE_MESSAGE,
  passwordShort: 'Password must be at least 6 characters long',
  passwordRequired: 'Password is required',
  privacy: 'You must accept the Privacy Policy',
  terms: 'You must accept the Terms and Conditions',
} as const;

export const DETAILS_ALERTS = {
  emailEmpty: 'Enter Passenger Email to receive booking details',
  passwordEmpty: 'Enter Password for booking',
  privacy: 'Please Accept Our Privacy Policies',
  terms: 'Please Accept Our Term and Conditions',
} as const;

export interface DetailsValues {
  firstName?: string; surname?: string; number?: string; email?: string; password?: string;
  privacyAccepted?: boolean; termsAccepted?: boolean;
  /** Booking for someone else: their e-mail, when given, must be one valid address. */
  passengerDetails?: 'yes' | 'no'; passengerEmail?: string; passengerPhone?: string;
}

export type DetailsErrors = Partial<Record<keyof DetailsValues, string>>;

const blank = (v: string | undefined) => !v || v.trim() === '';

export function validateDetails(mode: RegistrationMode, v: DetailsValues, isValidPhone: PhoneRule): DetailsErrors {
  const e: DetailsErrors = {};
  const email = emailProblem(v.email);
  if (email) e.email = email;
  if (v.passengerDetails === 'yes' && !blank(v.passengerEmail) && !isEmail(v.passengerEmail)) {
    e.passengerEmail = DETAILS_MESSAGES.emailInvalid;
  }
  // Booking for someone else: their phone, when given, follows the same rule.
  if (v.passengerDetails === 'yes' && !blank(v.passengerPhone) && !isValidPhone(v.passengerPhone!.trim())) {
    e.passengerPhone = DETAILS_MESSAGES.phoneInvalid;
  }
  if (mode !== 'existing_client') {
    if (blank(v.firstName)) e.firstName = DETAILS_MESSAGES.firstNameRequired;
    if (blank(v.surname)) e.surname = DETAILS_MESSAGES.lastNameRequired;
    if (blank(v.number)) e.number = DETAILS_MESSAGES.phoneRequired;
    else if (!isValidPhone(v.number!.trim())) e.number = DETAILS_MESSAGES.phoneInvalid;
  }
  if (mode === 'new_client') {
    if (blank(v.password)) e.password = DETAILS_MESSAGES.passwordRequired;
    else if (v.password!.length < 6) e.password = DETAILS_MESSAGES.passwordShort;
    if (!v.privacyAccepted) e.privacyAccepted = DETAILS_MESSAGES.privacy;
    if (!v.termsAccepted) e.termsAccepted = DETAILS_MESSAGES.terms;
  }
  if (mode === 'existing_client' && blank(v.password)) e.password = DETAILS_MESSAGES.passwordRequired;
  return e;
}

/** The first alert SPEC 5 lists for what is missing when Next is pressed, or null. */
export function nextAlert(mode: RegistrationMode, v: DetailsValues): string | null {
  if (blank(v.email)) return DETAILS_ALERTS.emailEmpty;
  if (mode !== 'guest_login' && blank(v.password)) return DETAILS_ALERTS.passwordEmpty;
  if (mode === 'new_client' && !v.privacyAccepted) return DETAILS_ALERTS.privacy;
  if (mode === 'new_client' && !v.termsAccepted) return DETAILS_ALERTS.terms;
  return null;
}
