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

export const QUOTE_SENT = 'Your booking has been sent!';
export const QUOTE_FAILED = 'There was a problem sending your booking.';
