// Issue 27: until when a passenger may change or cancel, and moments read in UK time on both sides of the clock
// changes (the last Sundays of March and October).
import { describe, expect, it } from 'vitest';
import { cancelDeadline, changeDeadline, manageStatus, passengerMay, ukMoment } from '../../src/domain/manageRules';

/** A booking whose pickup never moved: its deadlines count from it. */
const booked = (pickupAt: Date) => ({ pickupAt, originalPickupAt: pickupAt });

describe('a moment as a person in the UK reads it', () => {
  it('is UK time, GMT in winter and BST in summer, on both sides of each clock change', () => {
    expect(ukMoment(new Date('2030-03-31T00:59:00Z'))).toBe('Sunday 31 March 2030 at 00:59');
    expect(ukMoment(new Date('2030-03-31T01:00:00Z'))).toBe('Sunday 31 March 2030 at 02:00');
    // 01:30 on the last Sunday of October happens twice: first in BST, then in GMT, and the words say which.
    expect(ukMoment(new Date('2030-10-27T00:30:00Z'))).toBe('Sunday 27 October 2030 at 01:30 BST');
    expect(ukMoment(new Date('2030-10-27T01:30:00Z'))).toBe('Sunday 27 October 2030 at 01:30 GMT');
    expect(ukMoment(new Date('2030-10-27T00:59:00Z'))).toBe('Sunday 27 October 2030 at 01:59 BST');
    expect(ukMoment(new Date('2030-10-27T02:00:00Z'))).toBe('Sunday 27 October 2030 at 02:00');
    expect(ukMoment(new Date('2030-10-26T23:59:00Z'))).toBe('Sunday 27 October 2030 at 00:59');
    expect(ukMoment(new Date('2030-12-31T23:59:00Z'))).toBe('Tuesday 31 December 2030 at 23:59');
  });
});

describe('the deadlines', () => {
  const pickup = new Date('2030-09-12T06:15:00Z'); // 07:15 BST
  it('are 2 hours (changes) and 24 hours (free cancelling) before the pickup unless the operator says otherwise', () => {
    expect(ukMoment(changeDeadline(booked(pickup), {}))).toBe('Thursday 12 September 2030 at 05:15');
    expect(ukMoment(cancelDeadline(booked(pickup), {}))).toBe('Wednesday 11 September 2030 at 07:15');
    expect(ukMoment(changeDeadline(booked(pickup), { CHANGE_CUTOFF_HOURS: '6' }))).toBe('Thursday 12 September 2030 at 01:15');
    expect(ukMoment(cancelDeadline(booked(pickup), { CANCELLATION_WINDOW_HOURS: '48' }))).toBe('Tuesday 10 September 2030 at 07:15');
    expect(ukMoment(cancelDeadline(booked(pickup), { CANCELLATION_WINDOW_HOURS: '0' }))).toBe('Thursday 12 September 2030 at 07:15');
  });

  it('count real hours across a clock change: 24 hours before 09:00 on the Monday after the October change is 10:00 on Sunday', () => {
    const monday = new Date('2030-10-28T09:00:00Z'); // 09:00 GMT
    expect(ukMoment(cancelDeadline(booked(monday), {}))).toBe('Sunday 27 October 2030 at 09:00');
    const afterSpring = new Date('2030-04-01T08:00:00Z'); // 09:00 BST on Monday 1 April
    expect(ukMoment(cancelDeadline(booked(afterSpring), {}))).toBe('Sunday 31 March 2030 at 09:00');
  });

  it('let a confirmed booking be changed and cancelled before them, and nothing else', () => {
    const before = new Date('2030-09-11T06:14:00Z');
    expect(passengerMay({ status: 'confirmed', pickupAt: pickup, originalPickupAt: pickup }, {}, before)).toEqual({ change: true, cancel: true });
    expect(passengerMay({ status: 'confirmed', pickupAt: pickup, originalPickupAt: pickup }, {}, new Date('2030-09-11T06:15:00Z'))).toEqual({ change: true, cancel: false });
    expect(passengerMay({ status: 'confirmed', pickupAt: pickup, originalPickupAt: pickup }, {}, new Date('2030-09-12T04:15:00Z'))).toEqual({ change: false, cancel: false });
    for (const status of ['pending', 'cancelled', 'completed', 'no_show', 'expired']) {
      expect(passengerMay({ status, pickupAt: pickup, originalPickupAt: pickup }, {}, before), status).toEqual({ change: false, cancel: false });
    }
  });
});

describe('the status in words', () => {
  it('tells a driver assigned apart from a plain confirmation', () => {
    expect(manageStatus({ status: 'confirmed', driver: null })).toBe('confirmed');
    expect(manageStatus({ status: 'confirmed', driver: { name: 'Dan' } })).toBe('driverAssigned');
    expect(manageStatus({ status: 'no_show', driver: null })).toBe('noShow');
    expect(manageStatus({ status: 'pending', driver: null })).toBe('awaitingPayment');
  });
});

describe('the change form', () => {
  it('refuses the hour the clocks skip in March, names the field, and takes the same time in October', async () => {
    const { changeErrors } = await import('../../src/domain/manageChanges');
    const { SKIPPED_HOUR_MESSAGE, ukTimeSkipped } = await import('../../src/domain/clockChanges');
    const ok = () => true;
    const base = { passenger_name: 'A', passenger_phone: '+447700900012', passenger_email: 'a@example.com', pickup_date: '2031-03-30', pickup_min: '30' };
    expect(changeErrors({ ...base, pickup_hour: '1am' }, ok)).toEqual({ pickup_hour: SKIPPED_HOUR_MESSAGE });
    expect(changeErrors({ ...base, pickup_hour: '2am' }, ok)).toEqual({});
    expect(changeErrors({ ...base, pickup_hour: '12am', pickup_min: '55' }, ok)).toEqual({});
    expect(changeErrors({ ...base, pickup_date: '2030-10-27', pickup_hour: '1am' }, ok)).toEqual({});
    expect([ukTimeSkipped('2031-03-30', 1, 0), ukTimeSkipped('2031-03-30', 1, 59), ukTimeSkipped('2031-03-30', 2, 0), ukTimeSkipped('2031-03-23', 1, 30)])
      .toEqual([true, true, false, false]);
  });

  it('gives back a refund from the latest payment first, never more than is left of one', async () => {
    const { allocateRefund, priceOutcome } = await import('../../src/domain/manageChanges');
    const paid = [{ paymentIntentId: 'first', leftPence: 5000 }, { paymentIntentId: 'difference', leftPence: 2000 }];
    expect(allocateRefund(paid, 7000)).toEqual([{ paymentIntentId: 'difference', pence: 2000 }, { paymentIntentId: 'first', pence: 5000 }]);
    expect(allocateRefund(paid, 1500)).toEqual([{ paymentIntentId: 'difference', pence: 1500 }]);
    expect(allocateRefund(paid, 2500)).toEqual([{ paymentIntentId: 'difference', pence: 2000 }, { paymentIntentId: 'first', pence: 500 }]);
    expect(() => allocateRefund(paid, 7001)).toThrow();
    expect([priceOutcome('card', 100, 100), priceOutcome('card', 100, 120), priceOutcome('card', 100, 80), priceOutcome('car', 100, 120)])
      .toEqual(['same', 'pay', 'refund', 'confirm']);
  });
});

describe('free waiting', () => {
  it('is 45 minutes after landing at airports and 15 elsewhere unless the operator says otherwise, in words', async () => {
    const { freeWaitingFor, freeWaitingRule, freeWaitingText } = await import('../../src/domain/freeWaiting');
    expect([freeWaitingFor({}, true), freeWaitingFor({}, false)]).toEqual([45, 15]);
    expect([freeWaitingFor({ FREE_WAITING_AIRPORT_MINUTES: '60', FREE_WAITING_MINUTES: '0' }, true), freeWaitingFor({ FREE_WAITING_MINUTES: '0' }, false)]).toEqual([60, 0]);
    expect(freeWaitingFor({ FREE_WAITING_MINUTES: 'lots' }, false)).toBe(15);
    expect(freeWaitingRule({})).toBe('Free waiting: 45 minutes after landing at airports, 15 minutes elsewhere.');
    expect([freeWaitingText(45, true), freeWaitingText(1, false), freeWaitingText(0, false)])
      .toEqual(['45 minutes of free waiting after the flight lands', '1 minute of free waiting after the pickup time', 'No free waiting time']);
    const { isAirportAddress } = await import('../../src/server/geo/places');
    expect([isAirportAddress('Heathrow Airport Terminal 5, Hounslow TW6 2GA'), isAirportAddress('Trafalgar Square, London WC2N 5DN')]).toEqual([true, false]);
  });
});
