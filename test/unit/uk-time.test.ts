import { describe, expect, it } from 'vitest';
import {
  formatDateUK, formatTime12, hour12To24, hour24To12, isCalendarDate, toTime24, ukLocalToInstant, ukEarliestPickup, ukToday,
} from '../../src/domain/ukTime';

describe('UK dates and times', () => {
  it('knows real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('1/2/2026')).toBe(false);
  });

  it('takes today from the UK clock, not the server clock', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST).
    expect(ukToday(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    // In winter London is on UTC.
    expect(ukToday(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });

  it('converts UK wall-clock times to instants across the clock changes', () => {
    expect(ukLocalToInstant('2026-07-01', 9, 0).toISOString()).toBe('2026-07-01T08:00:00.000Z');
    expect(ukLocalToInstant('2026-12-01', 9, 0).toISOString()).toBe('2026-12-01T09:00:00.000Z');
    // Clocks go forward at 01:00 on 29 March 2026: 02:30 BST is 01:30 UTC.
    expect(ukLocalToInstant('2026-03-29', 2, 30).toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('maps 12-hour booking-form hours to 24-hour clock and back', () => {
    expect(['12am', '1am', '11am', '12pm', '1pm', '11pm'].map(hour12To24)).toEqual([0, 1, 11, 12, 13, 23]);
    expect([0, 1, 12, 13, 23].map(hour24To12)).toEqual(['12am', '1am', '12pm', '1pm', '11pm']);
    expect(toTime24('3pm', '05')).toBe('15:05');
    expect(() => hour12To24('13pm')).toThrow();
  });

  it('rounds the default pickup time up to the next five minutes in UK time (SPEC 4, GRACE_TIME 0)', () => {
    expect(ukEarliestPickup(0, new Date('2026-07-01T13:02:10Z'))).toEqual({ date: '2026-07-01', hour: '2pm', min: '05' });
    expect(ukEarliestPickup(0, new Date('2026-12-31T23:58:00Z'))).toEqual({ date: '2027-01-01', hour: '12am', min: '00' });
  });

  it('formats the confirmation as dd-mm-yyyy and 12-hour time (SPEC 2)', () => {
    expect(formatDateUK('2026-11-21')).toBe('21-11-2026');
    expect(formatTime12('15:05')).toBe('3:05 PM');
    expect(formatTime12('00:30')).toBe('12:30 AM');
    expect(formatTime12('12:00')).toBe('12:00 PM');
  });
});
