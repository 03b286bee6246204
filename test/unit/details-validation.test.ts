import { describe, expect, it } from 'vitest';
import {
  DETAILS_ALERTS, DETAILS_MESSAGES, isStoredPhone, nextAlert, validateDetails as validateWith, type DetailsValues,
} from '../../src/domain/detailsValidation';
import type { RegistrationMode } from '../../src/domain/schemas';
import { isPhone } from '../../src/domain/phone';

/** The details form and the server check with the full phone rule. */
const validateDetails = (mode: RegistrationMode, v: DetailsValues) => validateWith(mode, v, isPhone);

const guest = { firstName: 'Amelia', surname: 'Hart', email: 'amelia@example.com', number: '+44 770 090 012' };

describe('details form rules (SPEC 5)', () => {
  it('accepts a complete guest', () => {
    expect(validateDetails('guest_login', guest)).toEqual({});
  });

  it('requires names, e-mail and phone for guests with the SPEC texts', () => {
    expect(validateDetails('guest_login', {})).toEqual({
      email: 'Email is required', firstName: 'First Name is required', surname: 'Last Name is required',
      number: 'Phone Number is required',
    });
  });

  it('checks the e-mail shape, and the phone with the one phone rule: SPEC\'s +xxx xxx xxx xxx or a valid (UK) number (decision 20)', () => {
    const e = validateDetails('guest_login', { ...guest, email: 'amelia@', number: '07700 90012' });
    expect(e).toEqual({
      email: 'Please enter a valid email address',
      number: 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)',
    });
    for (const ok of ['+1 234 567 890', '+44 770 090 012', '+353 861 234 567', '07700 900123', '+44 7700 900123', '+44 20 7946 0321']) {
      expect(validateDetails('guest_login', { ...guest, number: ok }).number, ok).toBeUndefined();
    }
    for (const bad of ['+4444 770 090 012', '07700 90012', '+44 7911 1234567', '0791 one two three']) {
      expect(validateDetails('guest_login', { ...guest, number: bad }).number, bad).toBe(DETAILS_MESSAGES.phoneInvalid);
    }
  });

  it("checks the other passenger's phone only when booking for someone else and it is given", () => {
    expect(validateDetails('guest_login', { ...guest, passengerDetails: 'yes', passengerPhone: '12345' }).passengerPhone)
      .toBe(DETAILS_MESSAGES.phoneInvalid);
    expect(validateDetails('guest_login', { ...guest, passengerDetails: 'yes', passengerPhone: '020 7946 0321' })).toEqual({});
    expect(validateDetails('guest_login', { ...guest, passengerDetails: 'yes', passengerPhone: '' })).toEqual({});
    expect(validateDetails('guest_login', { ...guest, passengerDetails: 'no', passengerPhone: '12345' })).toEqual({});
  });

  it("lets the booking machine check saved details by the phone's stored form, without the phone rule's metadata", () => {
    const saved = { ...guest, number: '+447700900123' };
    expect(validateWith('guest_login', saved, isStoredPhone)).toEqual({});
    // What the form stores while a number is still being typed does not count as complete details.
    expect(validateWith('guest_login', { ...guest, number: '07700 9001' }, isStoredPhone).number).toBe(DETAILS_MESSAGES.phoneInvalid);
    expect(validateWith('existing_client', { email: 'a@b.co', number: '' }, isStoredPhone)).toEqual({ password: 'Password is required' });
  });

  it('asks new clients for a 6-character password and both agreements', () => {
    expect(validateDetails('new_client', { ...guest, password: 'abc' })).toEqual({
      password: 'Password must be at least 6 characters long',
      privacyAccepted: 'You must accept the Privacy Policy',
      termsAccepted: 'You must accept the Terms and Conditions',
    });
    expect(validateDetails('new_client', { ...guest, password: 'abcdef', privacyAccepted: true, termsAccepted: true })).toEqual({});
  });

  it('asks existing clients only for e-mail and password', () => {
    expect(validateDetails('existing_client', { email: 'a@b.co' })).toEqual({ password: 'Password is required' });
  });

  it('shows the SPEC alert for what is missing when Next is pressed', () => {
    expect(nextAlert('guest_login', {})).toBe('Enter Passenger Email to receive booking details');
    expect(nextAlert('guest_login', guest)).toBeNull();
    expect(nextAlert('existing_client', { email: 'a@b.co' })).toBe('Enter Password for booking');
    expect(nextAlert('new_client', { email: 'a@b.co' })).toBe('Enter Password for booking');
    expect(nextAlert('existing_client', { email: 'a@b.co', password: '   ' })).toBe('Enter Password for booking');
    expect(nextAlert('existing_client', { email: 'a@b.co', password: 'x' })).toBeNull();
    expect(nextAlert('new_client', { email: 'a@b.co', password: 'secret1' })).toBe('Please Accept Our Privacy Policies');
    expect(nextAlert('new_client', { email: 'a@b.co', password: 'secret1', privacyAccepted: true })).toBe('Please Accept Our Term and Conditions');
    expect(Object.values(DETAILS_ALERTS)).toHaveLength(4);
  });
});

describe('e-mail fields of the details form', () => {
  const guest = { firstName: 'A', surname: 'B', number: '+44 770 090 012' };
  it('refuses a list or a named address where one address belongs, with the SPEC 5 message', () => {
    for (const email of ['a@b.co,c@d.co', 'a@b.co; c@d.co', 'Eve <eve@b.co>', 'a@b.co\nBcc: c@d.co']) {
      expect(validateDetails('guest_login', { ...guest, email }).email, email).toBe('Please enter a valid email address');
    }
    expect(validateDetails('guest_login', { ...guest, email: ' a@b.co ' })).toEqual({});
  });

  it('checks the other passenger\'s e-mail only when booking for someone else and it is given', () => {
    const base = { ...guest, email: 'a@b.co' };
    expect(validateDetails('guest_login', { ...base, passengerDetails: 'yes', passengerEmail: 'x@y.co,z@y.co' }).passengerEmail)
      .toBe('Please enter a valid email address');
    expect(validateDetails('guest_login', { ...base, passengerDetails: 'yes', passengerEmail: '' })).toEqual({});
    expect(validateDetails('guest_login', { ...base, passengerDetails: 'no', passengerEmail: 'x@y.co,z@y.co' })).toEqual({});
  });
});

describe('other form rules', () => {
  it('requires date, time, e-mail and telephone on the quote form (SPEC 5)', async () => {
    const { validateQuoteForm } = await import('../../src/domain/contactSchemas');
    expect(validateQuoteForm({})).toEqual({
      pickup_date: 'Choose a date', pickup_time: 'Choose a time', passenger_email: 'Email is required', passenger_phone: 'Telephone is required',
    });
    const ok = { pickup_date: '2030-01-01', pickup_time: '09:00', passenger_email: 'a@b.co' };
    expect(validateQuoteForm({ ...ok, passenger_phone: 447700900123 })).toEqual({});
    expect(validateQuoteForm({ ...ok, passenger_phone: '07700 900123' })).toEqual({});
    expect(validateQuoteForm({ ...ok, passenger_phone: '12345' }))
      .toEqual({ passenger_phone: 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)' });
    expect(validateQuoteForm({ ...ok, passenger_email: 'a@b.co, c@d.co', passenger_phone: 447700900123 }))
      .toEqual({ passenger_email: 'Please enter a valid email address' });
  });

  it('reads SHOWPAYINCAR and GUEST_LOGIN', async () => {
    const { allowsGuests, showsPayInCar } = await import('../../src/domain/settings');
    expect([showsPayInCar({}), showsPayInCar({ SHOWPAYINCAR: 'yes' }), showsPayInCar({ SHOWPAYINCAR: 'no' })]).toEqual([true, true, false]);
    expect([allowsGuests({}), allowsGuests({ GUEST_LOGIN: 'enable' }), allowsGuests({ GUEST_LOGIN: 'disable' })]).toEqual([true, true, false]);
  });
});
