import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatDateLong, formatDateUK, formatTime12, hour12To24, hour24To12, isCalendarDate, toTime24, ukLocalToInstant, ukEarliestPickup, ukPartsAt, ukToday,
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

describe('UK dates and times as the site shows them', () => {
  it('takes only real calendar dates written YYYY-MM-DD', () => {
    for (const ok of ['2026-01-31', '2028-02-29', '2026-12-01']) expect(isCalendarDate(ok), ok).toBe(true);
    for (const bad of ['2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '2026-04-31', 'x2026-01-01', '2026-01-01x', '26-01-01', '']) {
      expect(isCalendarDate(bad), bad).toBe(false);
    }
  });

  it("writes a date day first for the confirmation, and leaves what is not a date as it is", () => {
    expect(formatDateUK('2026-11-21')).toBe('21-11-2026');
    expect(formatDateUK('2026-02-30')).toBe('2026-02-30');
    expect(formatDateUK('')).toBe('');
    expect(formatDateUK(null)).toBe('');
    expect(formatDateUK(undefined)).toBe('');
  });

  it('writes a time on the 12-hour clock, and leaves what is not a time as it is', () => {
    expect(['00:05', '09:30', '12:00', '13:45', '23:59', '7:05'].map(formatTime12)).toEqual(['12:05 AM', '9:30 AM', '12:00 PM', '1:45 PM', '11:59 PM', '7:05 AM']);
    expect(formatTime12('15:05:00')).toBe('3:05 PM');
    expect(formatTime12('soon')).toBe('soon');
    expect(formatTime12('')).toBe('');
    expect(formatTime12(null)).toBe('');
    expect(formatTime12('at 15:05')).toBe('at 15:05');
  });

  it('stores a 12-hour choice as a 24-hour time, and refuses an hour that is not one', () => {
    expect([toTime24('12am', '05'), toTime24('3pm', '05'), toTime24('12pm', '30'), toTime24('9am', '00')]).toEqual(['00:05', '15:05', '12:30', '09:00']);
    for (const bad of ['13pm', '0am', '3', '3pm ', ' 3pm', '3PM']) expect(() => hour12To24(bad), bad).toThrow(`Not a 12-hour clock hour: ${bad}`);
  });

  it('writes a long date with the weekday for the e-mail and calendar', () => {
    expect(formatDateLong('2026-11-21')).toBe('Sat, 21 Nov 2026');
    expect(formatDateLong('2026-01-01')).toBe('Thu, 1 Jan 2026');
    expect(formatDateLong('not a date')).toBe('not a date');
  });
});

describe('UK parts by the summer-time rule (decision 30: no time-zone formatter on the first render)', () => {
  const byDatabase = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  });
  const expected = (t: number) => {
    const parts = byDatabase.formatToParts(new Date(t));
    const get = (k: string) => parts.find((p) => p.type === k)!.value;
    return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')), minute: Number(get('minute')) };
  };

  it('agrees with the time-zone database every hour from 2024 to 2035', () => {
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2035, 0, 1); t += 3_600_000) {
      const got = ukPartsAt(new Date(t));
      if (got.date !== expected(t).date || got.hour !== expected(t).hour) expect([new Date(t).toISOString(), got]).toEqual([new Date(t).toISOString(), expected(t)]);
    }
  });

  it('agrees every minute around each clock change from 1996 to 2100, and at any instant from 1990 to 2200', () => {
    for (let year = 1996; year <= 2100; year++) {
      for (const month of [2, 9]) {
        const last = new Date(Date.UTC(year, month + 1, 0));
        const change = Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
        for (let t = change - 7_200_000; t <= change + 7_200_000; t += 60_000) expect(ukPartsAt(new Date(t))).toEqual(expected(t));
      }
    }
    fc.assert(fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2200, 0, 1) }), (t) => {
      expect(ukPartsAt(new Date(t))).toEqual(expected(t));
    }), { numRuns: 5000 });
  });
});
