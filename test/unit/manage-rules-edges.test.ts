// Issue 27 (decisions 0042 and 0043, README "Managing a booking"): the deadlines at their edges, the status in words, receipts, Find my booking.
import { describe, expect, it } from 'vitest';
import {
  cancelDeadline, changeDeadline, cleanReference, findErrors, hasReceipt, isReference, manageStatus, passengerMay, STATUS_WORDS, ukMoment,
} from '../../src/domain/manageRules';

/** A booking whose pickup never moved: its deadlines count from it. */
const booked = (pickupAt: Date) => ({ pickupAt, originalPickupAt: pickupAt });

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('the deadlines at their edges', () => {
  const pickup = new Date('2030-09-12T06:15:00Z'); // 07:15 BST
  const confirmed = { status: 'confirmed', pickupAt: pickup, originalPickupAt: pickup };
  const at = (ms: number) => new Date(ms);

  it('let a change be made up to the last moment before 2 hours ahead of the pickup, and not at 2 hours', () => {
    const deadline = pickup.getTime() - 2 * HOUR;
    expect(passengerMay(confirmed, {}, at(deadline - MINUTE)).change).toBe(true);
    expect(passengerMay(confirmed, {}, at(deadline - 1)).change).toBe(true);
    expect(passengerMay(confirmed, {}, at(deadline)).change).toBe(false);
    expect(passengerMay(confirmed, {}, at(deadline + MINUTE)).change).toBe(false);
  });

  it('let a booking be cancelled free up to the last moment before 24 hours ahead of the pickup, and not at 24 hours', () => {
    const deadline = pickup.getTime() - 24 * HOUR;
    expect(passengerMay(confirmed, {}, at(deadline - 1)).cancel).toBe(true);
    expect(passengerMay(confirmed, {}, at(deadline)).cancel).toBe(false);
    expect(passengerMay(confirmed, {}, at(deadline + MINUTE))).toEqual({ change: true, cancel: false });
  });

  it('use the defaults (2 and 24 hours) when the operator left a setting empty, even with spaces in it', () => {
    for (const empty of ['', '   ', '\t']) {
      const settings = { CHANGE_CUTOFF_HOURS: empty, CANCELLATION_WINDOW_HOURS: empty };
      expect(ukMoment(changeDeadline(booked(pickup), settings)), JSON.stringify(empty)).toBe('Thursday 12 September 2030 at 05:15');
      expect(ukMoment(cancelDeadline(booked(pickup), settings)), JSON.stringify(empty)).toBe('Wednesday 11 September 2030 at 07:15');
    }
  });

  it("take the operator's hours with spaces around them, and 0 hours as up to the pickup itself", () => {
    expect(ukMoment(changeDeadline(booked(pickup), { CHANGE_CUTOFF_HOURS: ' 6 ' }))).toBe('Thursday 12 September 2030 at 01:15');
    const none = { CHANGE_CUTOFF_HOURS: '0', CANCELLATION_WINDOW_HOURS: '0' };
    expect(passengerMay(confirmed, none, at(pickup.getTime() - 1))).toEqual({ change: true, cancel: true });
    expect(passengerMay(confirmed, none, pickup)).toEqual({ change: false, cancel: false });
  });

  it('count real hours across the October clock change: 2 hours before 02:30 GMT is the first 01:30 (BST)', () => {
    const afterChange = new Date('2030-10-27T02:30:00Z'); // 02:30 GMT, the clocks went back at 02:00 BST
    expect(ukMoment(changeDeadline(booked(afterChange), {}))).toBe('Sunday 27 October 2030 at 01:30 BST');
    expect(passengerMay({ status: 'confirmed', pickupAt: afterChange, originalPickupAt: afterChange }, {}, new Date('2030-10-27T00:29:00Z')).change).toBe(true);
    expect(passengerMay({ status: 'confirmed', pickupAt: afterChange, originalPickupAt: afterChange }, {}, new Date('2030-10-27T00:30:00Z')).change).toBe(false);
  });

  it('count real hours across the March clock change: 2 hours before 03:00 BST is 00:00 GMT', () => {
    const afterChange = new Date('2030-03-31T02:00:00Z'); // 03:00 BST, the clocks went forward at 01:00 GMT
    expect(ukMoment(changeDeadline(booked(afterChange), {}))).toBe('Sunday 31 March 2030 at 00:00');
  });
});

describe('the status as the passenger reads it', () => {
  const words = (status: string, driver: unknown = null) => STATUS_WORDS[manageStatus({ status, driver })];

  it('says each status in words', () => {
    expect(words('confirmed')).toBe('Confirmed');
    expect(words('confirmed', { name: 'Dan' })).toBe('Confirmed: your driver is assigned');
    expect(words('completed')).toBe('Completed');
    expect(words('no_show')).toBe('Marked as a no-show');
    expect(words('cancelled')).toBe('Cancelled');
    expect(words('pending')).toBe('Waiting for the card payment');
    expect(words('expired')).toBe('Not booked: the payment was never made');
  });

  it('keeps a completed or cancelled booking so, whether or not a driver was assigned', () => {
    expect(manageStatus({ status: 'completed', driver: { name: 'Dan' } })).toBe('completed');
    expect(manageStatus({ status: 'completed', driver: null })).toBe('completed');
    expect(manageStatus({ status: 'cancelled', driver: { name: 'Dan' } })).toBe('cancelled');
    expect(manageStatus({ status: 'cancelled', driver: null })).toBe('cancelled');
    expect(manageStatus({ status: 'expired', driver: null })).toBe('expired');
  });
});

describe('a receipt', () => {
  it('is ready once a booking is confirmed, paid by card or to be paid in the car, and stays after the trip', () => {
    for (const status of ['confirmed', 'completed', 'no_show']) {
      expect(hasReceipt(status, 'card'), `${status} card`).toBe(true);
      expect(hasReceipt(status, 'car'), `${status} car`).toBe(true);
    }
  });

  it('is not there while a card payment is awaited or when it was never made', () => {
    for (const status of ['pending', 'expired']) {
      expect(hasReceipt(status, 'card'), `${status} card`).toBe(false);
      expect(hasReceipt(status, 'car'), `${status} car`).toBe(false);
    }
  });

  it('is kept for a cancelled card booking (it was paid, then refunded), and there is none for a cancelled booking nothing was paid for', () => {
    expect(hasReceipt('cancelled', 'card')).toBe(true);
    expect(hasReceipt('cancelled', 'car')).toBe(false);
  });
});

describe('Find my booking', () => {
  it('reads a reference as people type it: spaces dropped, capitals', () => {
    expect(cleanReference(' bk-7kq2 m9xd ')).toBe('BK-7KQ2M9XD');
    expect(cleanReference('BK - 7KQ2\tM9XD\n')).toBe('BK-7KQ2M9XD');
    expect(cleanReference('BK-7KQ2M9XD')).toBe('BK-7KQ2M9XD');
  });

  it('takes BK- and 8 letters or digits, however spaced or cased, and nothing more or less', () => {
    for (const ref of ['BK-7KQ2M9XD', 'bk-7kq2m9xd', ' BK-7KQ2 M9XD ', 'BK-00000000']) expect(isReference(ref), ref).toBe(true);
    for (const ref of ['', 'BK-7KQ2M9X', 'BK-7KQ2M9XDD', 'XBK-7KQ2M9XD', 'BK7KQ2M9XD', 'BK-7KQ2M9X!', 'BK-7KQ2-9XD', 'BK-', 'BK-7']) {
      expect(isReference(ref), ref).toBe(false);
    }
  });

  it('says what is wrong with the form in its own words, and nothing when both are fine', () => {
    const reference = 'Enter the reference as it is on your confirmation, like BK-7KQ2M9XD.';
    const email = 'Enter the e-mail address the booking was made with.';
    expect(findErrors({})).toEqual({ reference, email });
    expect(findErrors({ reference: 'BK-7KQ2M9X', email: 'amelia@example' })).toEqual({ reference, email });
    expect(findErrors({ reference: ' bk-7kq2m9xd ', email: 'amelia@example.com' })).toEqual({});
    expect(findErrors({ reference: 'BK-7KQ2M9XD' })).toEqual({ email });
    expect(findErrors({ email: 'amelia@example.com' })).toEqual({ reference });
  });
});
