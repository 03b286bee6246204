// Decision 39 (the office's inbox, a setting never sent to browsers), issue 24 (the words once declined card tries
// are used up) and the words the server and the browser share (src/domain/messages.ts). Each test loads its own copy of the module (an import with a query of its own), so a mutation
// run tries it on what the module builds as it loads (docs/mutation.md).
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../src/domain/settings';

let copies = 0;
const COPY = Math.random().toString(36).slice(2);
const loadSettings = (): Promise<typeof import('../../src/domain/settings')> =>
  import(/* @vite-ignore */ `../../src/domain/settings.ts?copy=${COPY}-${++copies}`);
const loadMessages = (): Promise<typeof import('../../src/domain/messages')> =>
  import(/* @vite-ignore */ `../../src/domain/messages.ts?copy=${COPY}-${++copies}`);

describe("the office's inbox (decision 39)", () => {
  it('is OPERATOR_EMAIL when set, else FROM_EMAIL, else the published Company_Email, each trimmed', async () => {
    const { operatorEmail } = await loadSettings();
    const all = { OPERATOR_EMAIL: ' desk@albion.example ', FROM_EMAIL: ' from@albion.example ', Company_Email: ' hello@albion.example ' } as Settings;
    expect(operatorEmail(all)).toBe('desk@albion.example');
    expect(operatorEmail({ ...all, OPERATOR_EMAIL: '  ' })).toBe('from@albion.example');
    expect(operatorEmail({ ...all, OPERATOR_EMAIL: '', FROM_EMAIL: ' ' })).toBe('hello@albion.example');
  });

  it('falls back to a local address when none is set, so a notice is never addressed to nobody', async () => {
    const { operatorEmail } = await loadSettings();
    expect(operatorEmail({} as Settings)).toBe('bookings@localhost');
    expect(operatorEmail({ OPERATOR_EMAIL: ' ', FROM_EMAIL: '', Company_Email: '  ' } as Settings)).toBe('bookings@localhost');
  });

  it('is the one setting kept from browsers', async () => {
    const { SERVER_ONLY_SETTINGS } = await loadSettings();
    expect(SERVER_ONLY_SETTINGS).toEqual(['OPERATOR_EMAIL']);
  });
});

describe('card tries used up (issue 24)', () => {
  it('say no payment was taken and offer Pay in Car where the operator offers it, and the phone', async () => {
    const { cardTriesUsedUp } = await loadMessages();
    expect(cardTriesUsedUp(false, true, ' 020 7946 0321 ')).toBe(
      'Too many card payments were declined. No payment was taken. Please choose Pay in Car, or call us on 020 7946 0321 to book.');
    expect(cardTriesUsedUp(true, false, '')).toBe(
      "This booking's card payment was declined too many times. No payment was taken. Please call us to book.");
    expect(cardTriesUsedUp(false, false, '  ')).toBe('Too many card payments were declined. No payment was taken. Please call us to book.');
  });

  it('are told apart from other refusals by how they begin', async () => {
    const { cardTriesUsedUp, isCardTriesUsedUp } = await loadMessages();
    expect(isCardTriesUsedUp(cardTriesUsedUp(false, true, '1'))).toBe(true);
    expect(isCardTriesUsedUp(cardTriesUsedUp(true, true, '1'))).toBe(true);
    expect(isCardTriesUsedUp('Your card was declined. Too many card payments were declined.')).toBe(false);
    expect(isCardTriesUsedUp('Payment failed. Please try again.')).toBe(false);
  });
});

describe("the words the server and the browser share (SPEC 4, 5 and 8)", () => {
  it('are SPEC 8\'s, word for word', async () => {
    const m = await loadMessages();
    expect({
      grace: m.GRACE_PERIOD_MESSAGE, banned: m.BANNED_ADDRESS_MESSAGE, notFound: m.EMAIL_NOT_FOUND, found: m.EMAIL_FOUND,
      checkFailed: m.EMAIL_CHECK_FAILED_PREFIX, required: m.EMAIL_REQUIRED, invalid: m.EMAIL_INVALID, phone: m.PHONE_MESSAGE,
      quoteSent: m.QUOTE_SENT, quoteFailed: m.QUOTE_FAILED, resetNotFound: m.RESET_EMAIL_NOT_FOUND, codeSent: m.RESET_CODE_SENT,
      codeExpired: m.RESET_CODE_EXPIRED, codeInvalid: m.RESET_CODE_INVALID, codeVerified: m.RESET_CODE_VERIFIED,
      mismatch: m.PASSWORDS_DO_NOT_MATCH, resetFailed: m.RESET_FAILED, resetDone: m.PASSWORD_RESET_DONE, login: m.LOGIN_OK,
      credentials: m.INVALID_CREDENTIALS, signInFailed: m.SIGN_IN_FAILED, profile: m.PROFILE_UPDATED,
      paid: m.PAYMENT_SUCCESSFUL, failed: m.PAYMENT_FAILED, intentFailed: m.INTENT_FAILED,
    }).toEqual({
      grace: 'Pickup time is within the grace period', banned: 'Address is banned',
      notFound: 'Email not found in the system, Enter new email inside new client or try with another email',
      found: 'Email found. Proceeding to payment.', checkFailed: 'An error occurred while checking email: ',
      required: 'Email is required', invalid: 'Please enter a valid email address',
      phone: 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)',
      quoteSent: 'Your booking has been sent!', quoteFailed: 'There was a problem sending your booking.',
      resetNotFound: 'Email not found', codeSent: 'A reset code has been sent to your email.', codeExpired: 'Reset code has expired',
      codeInvalid: 'Invalid reset code', codeVerified: 'Code verified successfully', mismatch: 'Passwords do not match',
      resetFailed: 'An error occurred while resetting the password', resetDone: 'Password has been reset successfully',
      login: 'Login Successfully', credentials: 'Invalid credentials. Please try again.',
      signInFailed: 'An error occurred. Please try again later.', profile: 'Passenger Details Updated',
      paid: 'Payment successful!', failed: 'Payment failed', intentFailed: 'Payment failed. Please try again.',
    });
  });

  it('say what the issues decided: an account that exists, the e-mail a password guards, an ended session, the card service, a payment taken but not confirmed', async () => {
    const m = await loadMessages();
    expect(m.ACCOUNT_EXISTS).toBe('An account already exists for this email. Choose "Existing client" and enter your password.');
    expect(m.EMAIL_TAKEN).toBe('This email is already used by another account.');
    expect(m.CURRENT_PASSWORD_NEEDED).toBe('Enter your current password to change your e-mail.');
    expect(m.CURRENT_PASSWORD_WRONG).toBe('Your current password is not correct.');
    expect(m.SESSION_ENDED).toBe('Your session has ended. Please sign in again.');
    expect(m.CARD_SERVICE_UNAVAILABLE).toBe('Card payments cannot be taken at the moment. No payment was taken.');
    expect(m.PAID_NOT_CONFIRMED).toBe('Your payment was taken, but we could not confirm your booking on this page. Your booking is safe: '
      + 'it is completed with the payment and its confirmation is e-mailed to you. You can try again here to see it.');
  });

  it('tell a person which address was not found and that a trip must go somewhere (decision 23), and that a reload keeps the booking (decision 32)', async () => {
    const m = await loadMessages();
    expect(m.unknownPlaceMessage('  Narnia Road ')).toBe('We could not find "Narnia Road". Pick a suggestion or add the postcode.');
    expect(m.SAME_PLACE).toBe('The pickup and drop-off are the same place. Please enter where you are going.');
    expect(m.PAGE_NOT_LOADED).toBe('This page could not be loaded. Please check your connection and reload the page; your booking so far is kept.');
    expect(m.PART_NOT_LOADED).toBe('A part of this site could not be loaded. Please check your connection and reload the page; your booking so far is kept.');
  });

  it('open the urgent-booking notice for the grace period and a banned address only (SPEC 4 step 2)', async () => {
    const m = await loadMessages();
    expect([m.GRACE_PERIOD_MESSAGE, m.BANNED_ADDRESS_MESSAGE, 'Address is banned ', 'Payment failed', '', null, undefined]
      .map((x) => m.isUrgentBookingError(x))).toEqual([true, true, false, false, false, false, false]);
  });
});
