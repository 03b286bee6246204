// The wizard's pure pieces (machines/bookingContext.ts): which tabs show, a signed-in passenger's details, the refused
// address shown under its input, and the Idempotency-Key's request digest.
import { describe, expect, it } from 'vitest';
import {
  attemptFingerprint, availableBookingTypes, bookingInput, emptyRegistration, newIdempotencyKey, openingBookingType, refusalFor,
  registrationFor, type BookingContext,
} from '../../machines/bookingContext';
import { createActor } from 'xstate';
import { bookingMachine } from '../../machines/booking';
import { bookingForm, passenger, prices, registration, settings } from '../machine/fixtures';

describe('the tabs of the home page (SPEC 2)', () => {
  it('shows the quote tab unless IS_QUOTATION is enable, and the hourly tab when HOURLY_RATE_STATUS is enable', () => {
    expect(availableBookingTypes({})).toEqual(['milleage']);
    expect(availableBookingTypes({ IS_QUOTATION: 'disable' })).toEqual(['milleage']);
    expect(availableBookingTypes({ HOURLY_RATE_STATUS: 'enable' })).toEqual(['milleage', 'hourly']);
    expect(availableBookingTypes({ IS_QUOTATION: 'enable', HOURLY_RATE_STATUS: 'enable' })).toEqual(['hourly']);
  });

  it('still shows the quote form when the settings turn both off', () => {
    expect(availableBookingTypes({ IS_QUOTATION: 'enable', HOURLY_RATE_STATUS: 'disable' })).toEqual(['milleage']);
  });

  it('opens on the saved tab if it still shows, else hourly when it shows, else the quote', () => {
    const both = { HOURLY_RATE_STATUS: 'enable' };
    expect(openingBookingType(both, null)).toBe('hourly');
    expect(openingBookingType(both, 'milleage')).toBe('milleage');
    expect(openingBookingType({}, 'hourly')).toBe('milleage');
    expect(openingBookingType({ IS_QUOTATION: 'enable', HOURLY_RATE_STATUS: 'enable' }, 'milleage')).toBe('hourly');
  });
});

describe("a signed-in passenger's details", () => {
  it('fill what was not typed: first name, the rest of the name as surname, e-mail and phone', () => {
    const filled = registrationFor({ ...passenger, passenger_name: '  Amelia   Rose Hart ' }, null);
    expect(filled).toEqual({
      ...emptyRegistration(), firstName: 'Amelia', surname: 'Rose Hart', email: passenger.passenger_email, number: passenger.passenger_contact_no,
    });
  });

  it('never replace what the visitor typed', () => {
    const typed = { ...registration, firstName: 'Bea', surname: 'Stone', email: 'bea@example.com', number: '+44 7700 900001' };
    expect(registrationFor(passenger, typed)).toEqual(typed);
  });

  it('leave a one-word name without a surname', () => {
    expect(registrationFor({ ...passenger, passenger_name: 'Cher' }, null)).toMatchObject({ firstName: 'Cher', surname: '' });
  });

  it('start from empty details with no other passenger', () => {
    expect(emptyRegistration()).toEqual({
      firstName: '', surname: '', number: '', email: '', passengerDetails: 'no', additionalInfo: '', return_additionalInfo: '',
    });
  });
});

describe('a refused address under its input (decision 23)', () => {
  const problem = { field: 'dropoff', message: 'We could not find "Nowhere". Pick a suggestion or add the postcode.', text: 'Nowhere' };

  it('shows under the input it is about while that input still holds the refused text (spaces aside)', () => {
    expect(refusalFor(problem, 'dropoff', 'Nowhere')).toBe(problem.message);
    expect(refusalFor(problem, 'dropoff', '  Nowhere ')).toBe(problem.message);
    expect(refusalFor({ ...problem, text: ' Nowhere  ' }, 'dropoff', 'Nowhere')).toBe(problem.message);
  });

  it('goes once the text changes, and never shows under another input or without a refusal', () => {
    expect(refusalFor(problem, 'dropoff', 'Nowhere Lane')).toBeUndefined();
    expect(refusalFor(problem, 'pickup', 'Nowhere')).toBeUndefined();
    expect(refusalFor(null, 'dropoff', 'Nowhere')).toBeUndefined();
  });
});

describe('the request an Idempotency-Key belongs to', () => {
  const context = (): BookingContext => ({
    ...createActor(bookingMachine, { input: { path: '/', settings } }).getSnapshot().context,
    bookingForm, priceDetails: prices, selectedVehicle: prices[0], quantity: 1, registration: { ...registration, password: 'secret-1' },
  });

  it('makes keys of 32 hex digits, a new one each time', () => {
    const keys = new Set(Array.from({ length: 20 }, newIdempotencyKey));
    expect(keys.size).toBe(20);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{32}$/);
  });

  it('books without a key until an attempt starts', () => {
    expect(bookingInput(context(), 'car').idempotencyKey).toBe('');
    expect(bookingInput({ ...context(), attempt: { key: 'k'.repeat(32), fingerprint: 'f', intentId: null } }, 'card'))
      .toMatchObject({ idempotencyKey: 'k'.repeat(32), paymentMethod: 'card', token: null });
  });

  it('digests the request into 16 hex digits: the same for the same request, another for another vehicle, quantity or way of paying', () => {
    const c = context();
    const digest = attemptFingerprint(c, 'car');
    expect(digest).toMatch(/^[0-9a-f]{16}$/);
    expect(attemptFingerprint(context(), 'car')).toBe(digest);
    expect(attemptFingerprint(c, 'card')).not.toBe(digest);
    expect(attemptFingerprint({ ...c, quantity: 2 }, 'car')).not.toBe(digest);
    expect(attemptFingerprint({ ...c, selectedVehicle: prices[1] }, 'car')).not.toBe(digest);
  });

  it('leaves the password out of the digest', () => {
    const c = context();
    expect(attemptFingerprint({ ...c, registration: { ...c.registration!, password: 'another-1' } }, 'car')).toBe(attemptFingerprint(c, 'car'));
  });
});
