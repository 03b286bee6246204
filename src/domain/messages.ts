// Messages the server and the browser must agree on word for word (SPEC 8).
export const GRACE_PERIOD_MESSAGE = 'Pickup time is within the grace period';
export const BANNED_ADDRESS_MESSAGE = 'Address is banned';

/** SPEC 4 step 2: these price errors open the urgent-booking notice instead of the error dialog. */
export function isUrgentBookingError(message: string | null | undefined): boolean {
  return message === GRACE_PERIOD_MESSAGE || message === BANNED_ADDRESS_MESSAGE;
}

export const EMAIL_NOT_FOUND = 'Email not found in the system, Enter new email inside new client or try with another email';
export const EMAIL_FOUND = 'Email found. Proceeding to payment.';
export const EMAIL_CHECK_FAILED_PREFIX = 'An error occurred while checking email: ';
export const ACCOUNT_EXISTS = 'An account already exists for this email. Choose "Existing client" and enter your password.';

// SPEC 5: the e-mail field of every form.
export const EMAIL_REQUIRED = 'Email is required';
export const EMAIL_INVALID = 'Please enter a valid email address';

/** SPEC 5's text for a phone number that is not valid, kept for every phone field (decision 20). */
export const PHONE_MESSAGE = 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)';

export const QUOTE_SENT = 'Your booking has been sent!';
export const QUOTE_FAILED = 'There was a problem sending your booking.';

// SPEC 8 'Forgot password'.
export const RESET_EMAIL_NOT_FOUND = 'Email not found';
export const RESET_CODE_SENT = 'A reset code has been sent to your email.';
export const RESET_CODE_EXPIRED = 'Reset code has expired';
export const RESET_CODE_INVALID = 'Invalid reset code';
export const RESET_CODE_VERIFIED = 'Code verified successfully';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
export const RESET_FAILED = 'An error occurred while resetting the password';
export const PASSWORD_RESET_DONE = 'Password has been reset successfully';

// SPEC 8 'Sign-in' and 'Profile'.
export const LOGIN_OK = 'Login Successfully';
export const INVALID_CREDENTIALS = 'Invalid credentials. Please try again.';
export const SIGN_IN_FAILED = 'An error occurred. Please try again later.';
export const PROFILE_UPDATED = 'Passenger Details Updated';
export const EMAIL_TAKEN = 'This email is already used by another account.';
/** Issue 24: the e-mail an account signs in with changes only with its password. */
export const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your e-mail.';
export const CURRENT_PASSWORD_WRONG = 'Your current password is not correct.';
/** A 401 on a passenger call: the token expired or was revoked. */
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';

// SPEC 4 'Card payment' and SPEC 8 'Card errors'.
export const PAYMENT_SUCCESSFUL = 'Payment successful!';
export const PAYMENT_FAILED = 'Payment failed';
/** An intent that could not be created. */
export const INTENT_FAILED = 'Payment failed. Please try again.';
export const CARD_SERVICE_UNAVAILABLE = 'Card payments cannot be taken at the moment. No payment was taken.';
/** The bank approved, but the booking call did not get through: the webhook completes it; the visitor is told the truth. */
export const PAID_NOT_CONFIRMED =
  'Your payment was taken, but we could not confirm your booking on this page. Your booking is safe: it is completed with the payment and its confirmation is e-mailed to you. You can try again here to see it.';

/**
 * Issue 24: once declined card tries are used up (per client address, or per booking), the card page shows the
 * server's words, which offer the other ways to book, instead of SPEC 8's 'Payment failed. Please try again.'.
 */
export const CARD_TRIES_USED_UP = 'Too many card payments were declined.';
export const BOOKING_CARD_TRIES_USED_UP = "This booking's card payment was declined too many times.";
export function cardTriesUsedUp(perBooking: boolean, payInCar: boolean, phone: string): string {
  const call = `call us${phone.trim() ? ` on ${phone.trim()}` : ''}`;
  const offer = payInCar ? `Please choose Pay in Car, or ${call} to book.` : `Please ${call} to book.`;
  return `${perBooking ? BOOKING_CARD_TRIES_USED_UP : CARD_TRIES_USED_UP} No payment was taken. ${offer}`;
}
export const isCardTriesUsedUp = (message: string) => message.startsWith(CARD_TRIES_USED_UP) || message.startsWith(BOOKING_CARD_TRIES_USED_UP);

// Decision 23 'Addresses: never price a guess': shown under the address input they are about.
export const unknownPlaceMessage = (text: string) => `We could not find "${text.trim()}". Pick a suggestion or add the postcode.`;
export const SAME_PLACE = 'The pickup and drop-off are the same place. Please enter where you are going.';

// A lazy part of the site its browser could not fetch (decision 32): only a reload tries again; the booking is in
// browser storage, so nothing is lost.
export const PAGE_NOT_LOADED = 'This page could not be loaded. Please check your connection and reload the page; your booking so far is kept.';
export const PART_NOT_LOADED = 'A part of this site could not be loaded. Please check your connection and reload the page; your booking so far is kept.';
