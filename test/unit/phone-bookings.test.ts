// Issue 43 §1 (bookings the office takes on the telephone, src/domain/phoneBookings.ts): how such a booking is paid
// and the body of its call, a price set by hand (its amount in pounds, at most £5000 a vehicle, and a reason of 3 to
// 300 characters, each with its message word for word), the price in pence it books, the messages of a pickup passed
// and of a link too late, when a card payment link sent now stops working (its hours, never later than 30 minutes
// before the pickup, not sent at all for less than 15 minutes), and where a link stands: paid, cancelled, expired or
// awaiting.
import { describe, expect, it } from 'vitest';
import { create, validate } from 'superstruct';
import {
  LINK_CLOSES_BEFORE_PICKUP_MINUTES, LINK_SHORTEST_MINUTES, LINK_TOO_LATE, MANUAL_PRICE_MAX_PENCE, PAYMENT_LINK_HOURS,
  PHONE_PAYMENTS, PHONE_PAYMENT_LABELS, PICKUP_PASSED, PhoneBookingBody, REASON_MAX, REASON_MIN, linkExpiry, linkState,
  manualPriceErrors, manualPricePence, officeAccountRefusal,
} from '../../src/domain/phoneBookings';
import { bookingForm, registration } from '../machine/fixtures';

const AMOUNT = 'Enter the price in pounds, e.g. 85 or 85.50.';
const AMOUNT_MAX = 'A price set by hand is at most £5000 a vehicle.';
const REASON = 'Give the reason for the price: it is kept with the booking and audited.';
const REASON_LONG = 'Keep the reason to 300 characters.';
const why = 'Regular passenger, agreed fare';

const amountError = (amount: string) => manualPriceErrors({ amount, reason: why }).amount;
const reasonError = (reason: string) => manualPriceErrors({ amount: '85', reason }).reason;

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;

describe('how a telephone booking is paid', () => {
  it('is in the car, by a card payment link or on the passenger\'s company account, each with its label', () => {
    expect(PHONE_PAYMENTS).toEqual(['car', 'link', 'account']);
    expect(PHONE_PAYMENT_LABELS).toEqual({ car: 'Pay in the car', link: 'Send a card payment link', account: 'On account' });
  });

  it("is on account only for a passenger found on record who books for an active company account, the office told why not", () => {
    const account = { name: 'Northbridge Consulting', status: 'active' as const, reason: '' };
    expect(officeAccountRefusal(account)).toBeNull();
    expect(officeAccountRefusal(null)).toBe(
      'Only a passenger found on record who books for a company account can book on account: find them first, or choose another way to pay.');
    expect(officeAccountRefusal({ ...account, status: 'suspended', reason: 'March unpaid' })).toBe(
      "Northbridge Consulting's account is on hold: March unpaid. Choose pay in the car or a payment link.");
    expect(officeAccountRefusal({ ...account, status: 'suspended' })).toBe("Northbridge Consulting's account is on hold. Choose pay in the car or a payment link.");
    expect(officeAccountRefusal({ ...account, status: 'closed', reason: 'Moved away' })).toBe(
      "Northbridge Consulting's account is closed. Choose pay in the car or a payment link.");
  });
});

describe('the body of a telephone booking', () => {
  const booking = {
    selectedVehicleData: { vehicle_id: 1, company_id: 2 }, bookingType: 'milleage', bookingForm, registrationData: registration,
    payment_method: 'car',
  };
  const failingKey = (value: unknown) => validate(value, PhoneBookingBody, { coerce: true })[0]?.path.join('.') ?? null;

  it('is the website\'s booking, how it is paid, and perhaps a passenger on record and a price set by hand', () => {
    expect(failingKey({ booking, payment: 'car' })).toBeNull();
    expect(failingKey({ booking, payment: 'link', passenger_id: 12, price: { amount: '85.50', reason: why } })).toBeNull();
    expect(failingKey({ booking, payment: 'car', passenger_id: null, price: null })).toBeNull();
    expect(failingKey({ booking: { ...booking, account_fields: { 7: 'PO-1' } }, payment: 'account', passenger_id: 12 })).toBeNull();
    expect(create({ booking, payment: 'link', passenger_id: 12 }, PhoneBookingBody)).toMatchObject({ payment: 'link', passenger_id: 12 });
  });

  it('refuses a body without a booking or a way to pay, another way to pay, or a price without its reason', () => {
    expect(failingKey({ payment: 'car' })).toBe('booking');
    expect(failingKey({ booking })).toBe('payment');
    expect(failingKey({ booking, payment: 'card' })).toBe('payment');
    expect(failingKey({ booking, payment: 'cash' })).toBe('payment');
    expect(failingKey({ booking, payment: 'car', passenger_id: '12' })).toBe('passenger_id');
    for (const id of [1.5, 0, -3, 2 ** 31, 1e10]) expect(failingKey({ booking, payment: 'car', passenger_id: id }), String(id)).toBe('passenger_id');
    expect(failingKey({ booking, payment: 'car', passenger_id: 2 ** 31 - 1 })).toBeNull();
    expect(failingKey({ booking, payment: 'car', price: { amount: '85' } })).toBe('price.reason');
    expect(failingKey({ booking, payment: 'car', price: { amount: 85, reason: why } })).toBe('price.amount');
    expect(failingKey({ booking, payment: 'car', price: { amount: '85', reason: why, discount: '10' } })).toBe('price.discount');
    expect(failingKey({ booking: { ...booking, payment_method: 'cash' }, payment: 'car' })).toBe('booking.payment_method');
  });
});

describe('a price set by hand', () => {
  it('takes pounds, with or without pence, a pound sign or spaces around it', () => {
    for (const amount of ['85', '85.5', '85.50', '£85', '£85.50', ' 85 ', ' £85.50 ', '0.01', '1', '1234', '5000', '5000.00', '£5000']) {
      expect(amountError(amount), amount).toBeUndefined();
    }
    expect(manualPriceErrors({ amount: '85.50', reason: why })).toEqual({});
  });

  it('asks for pounds when it is not an amount: empty, nothing, letters, a comma, three decimals or six digits', () => {
    for (const amount of [
      '', ' ', '£', 'eighty', '85p', '£ 85', '85£', '8£5', '£85£', '1,000', '85.', '.50', '85.505', '85x5', 'a85', '85x', '-5', '+5',
      '123456', '1e3', '85 50',
    ]) {
      expect(amountError(amount), amount).toBe(AMOUNT);
    }
  });

  it('asks for pounds when it is nothing at all', () => {
    for (const amount of ['0', '0.0', '0.00', '£0', '00000']) expect(amountError(amount), amount).toBe(AMOUNT);
  });

  it('is at most £5000 a vehicle: a penny more is refused, with five digits of pounds', () => {
    expect(MANUAL_PRICE_MAX_PENCE).toBe(500_000);
    expect(amountError('5000')).toBeUndefined();
    expect(amountError('4999.99')).toBeUndefined();
    expect(amountError('5000.01')).toBe(AMOUNT_MAX);
    expect(amountError('5000.1')).toBe(AMOUNT_MAX);
    expect(amountError('5001')).toBe(AMOUNT_MAX);
    expect(amountError('£12345')).toBe(AMOUNT_MAX);
    expect(amountError('99999.99')).toBe(AMOUNT_MAX);
  });

  it('gives its reason in 3 to 300 characters, the spaces around it not counted', () => {
    expect([REASON_MIN, REASON_MAX]).toEqual([3, 300]);
    for (const reason of ['abc', ' abc ', 'x'.repeat(300), ` ${'x'.repeat(300)} `, why]) expect(reasonError(reason), reason).toBeUndefined();
    for (const reason of ['', '  ', 'ab', '  ab  ', ' a\n ']) expect(reasonError(reason), JSON.stringify(reason)).toBe(REASON);
    expect(reasonError('x'.repeat(301))).toBe(REASON_LONG);
    expect(reasonError(` ${'x'.repeat(301)} `)).toBe(REASON_LONG);
  });

  it('says what is wrong with the amount and the reason at once, each on its field', () => {
    expect(manualPriceErrors({ amount: 'eighty', reason: '' })).toEqual({ amount: AMOUNT, reason: REASON });
    expect(manualPriceErrors({ amount: '6000', reason: 'x'.repeat(301) })).toEqual({ amount: AMOUNT_MAX, reason: REASON_LONG });
    expect(manualPriceErrors({ amount: '6000', reason: why })).toEqual({ amount: AMOUNT_MAX });
    expect(manualPriceErrors({ amount: '60', reason: 'no' })).toEqual({ reason: REASON });
  });

  it('books the amount in pence, however it was typed', () => {
    expect(manualPricePence({ amount: '85', reason: why })).toBe(8500);
    expect(manualPricePence({ amount: '85.5', reason: why })).toBe(8550);
    expect(manualPricePence({ amount: ' £85.05 ', reason: why })).toBe(8505);
    expect(manualPricePence({ amount: '£5000', reason: why })).toBe(500_000);
    expect(manualPricePence({ amount: '0.01', reason: why })).toBe(1);
  });
});

describe('what the office is told', () => {
  it('when the pickup has passed, and when it is too soon for a payment link', () => {
    expect(PICKUP_PASSED).toBe('The pickup time has passed: choose a later time.');
    expect(LINK_TOO_LATE).toBe('The pickup is too soon for a payment link. Choose pay in the car, or a later pickup.');
  });
});

describe('when a payment link sent now stops working', () => {
  const now = at('2026-11-24T10:00:00Z');

  it('is 24 hours by default, 30 minutes before the pickup at the latest, and never sent to work under 15 minutes', () => {
    expect([PAYMENT_LINK_HOURS, LINK_CLOSES_BEFORE_PICKUP_MINUTES, LINK_SHORTEST_MINUTES]).toEqual([24, 30, 15]);
  });

  it('is after its hours when the pickup is further off', () => {
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 24)?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 48)?.toISOString()).toBe('2026-11-26T10:00:00.000Z');
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 1)?.toISOString()).toBe('2026-11-24T11:00:00.000Z');
    // The hours run to exactly 30 minutes before the pickup: either way is the same instant.
    expect(linkExpiry(now, at('2026-11-25T10:30:00Z'), 24)?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
  });

  it('is 30 minutes before the pickup when that comes first', () => {
    expect(linkExpiry(now, at('2026-11-24T20:00:00Z'), 24)?.toISOString()).toBe('2026-11-24T19:30:00.000Z');
    expect(linkExpiry(now, at('2026-11-25T10:30:00.001Z'), 24)?.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(linkExpiry(now, at('2026-11-25T10:29:59.999Z'), 24)?.toISOString()).toBe('2026-11-25T09:59:59.999Z');
  });

  it('counts its hours as time passing, across the clocks going forward and back', () => {
    // 28 March 2027 01:00 UTC the clocks go forward; 31 October 2027 01:00 UTC they go back.
    expect(linkExpiry(at('2027-03-27T12:00:00Z'), at('2027-04-01T12:00:00Z'), 24)?.toISOString()).toBe('2027-03-28T12:00:00.000Z');
    expect(linkExpiry(at('2027-10-30T12:00:00Z'), at('2027-11-04T12:00:00Z'), 24)?.toISOString()).toBe('2027-10-31T12:00:00.000Z');
  });

  it('is sent when it works for 15 minutes or more, and not for a millisecond less', () => {
    expect(linkExpiry(now, at('2026-11-24T10:45:00Z'), 24)?.toISOString()).toBe('2026-11-24T10:15:00.000Z');
    expect(linkExpiry(now, at('2026-11-24T10:44:59.999Z'), 24)).toBeNull();
    expect(linkExpiry(now, at('2026-11-24T10:30:00Z'), 24)).toBeNull();
    expect(linkExpiry(now, at('2026-11-24T09:00:00Z'), 24)).toBeNull();
    // Its hours alone can make it too short.
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 0.25)?.getTime()).toBe(now.getTime() + 15 * MINUTE);
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 0.25 - 1 / 3_600_000)).toBeNull();
    expect(linkExpiry(now, at('2026-11-27T10:00:00Z'), 0)).toBeNull();
  });
});

describe('where a payment link stands', () => {
  const expires = at('2026-11-25T10:00:00Z');
  const before = at('2026-11-25T09:59:59.999Z');
  const after = at('2026-11-25T10:00:00.001Z');

  it('is awaiting while its booking waits unpaid and its time has not come', () => {
    expect(linkState({ status: 'pending', paid: false }, expires, before)).toBe('awaiting');
    expect(linkState({ status: 'pending', paid: false }, expires, at('2026-11-24T10:00:00Z'))).toBe('awaiting');
  });

  it('is expired from its very time, and once its booking no longer waits for the payment', () => {
    expect(linkState({ status: 'pending', paid: false }, expires, expires)).toBe('expired');
    expect(linkState({ status: 'pending', paid: false }, expires, after)).toBe('expired');
    for (const status of ['confirmed', 'expired', 'completed', 'no_show']) {
      expect(linkState({ status, paid: false }, expires, before), status).toBe('expired');
    }
  });

  it('is cancelled when its booking is, unpaid, whenever it is looked at', () => {
    expect(linkState({ status: 'cancelled', paid: false }, expires, before)).toBe('cancelled');
    expect(linkState({ status: 'cancelled', paid: false }, expires, after)).toBe('cancelled');
  });

  it('is paid once its booking is, whatever its status and time', () => {
    for (const status of ['pending', 'confirmed', 'cancelled', 'completed']) {
      expect(linkState({ status, paid: true }, expires, before), status).toBe('paid');
      expect(linkState({ status, paid: true }, expires, after), status).toBe('paid');
    }
  });
});
