// Decision 20: both home forms open on the earliest bookable pickup (UK now plus
// GRACE_TIME, rounded up to 5 minutes); a saved pickup that has passed is moved
// there; hours are listed in time order with labels nobody misreads; the return
// leg starts as a copy of the outbound one.
import { describe, expect, it } from 'vitest';
import { create } from 'superstruct';
import { HOUR_OPTIONS, newBookingForm, pickupIsPast, restoreBookingForm, returnDateFollowingPickup, returnLegFromOutbound } from '../../src/domain/forms';
import { HOURLY_HOUR_OPTIONS, newHourlyForm, restoreHourlyForm } from '../../src/domain/hourlyForm';
import { BookingForm, Hour12 } from '../../src/domain/schemas';
import { graceMinutes, graceText } from '../../src/domain/settings';
import { hour12To24, ukEarliestPickup } from '../../src/domain/ukTime';
import { checkGracePeriod, pickupInstant } from '../../src/server/pricing/rules';

const at = (iso: string) => new Date(iso);

describe('the earliest bookable pickup', () => {
  it('is UK now plus GRACE_TIME, rounded up to five minutes', () => {
    // 10:02:10 BST; two hours' grace.
    expect(ukEarliestPickup(120, at('2026-07-01T09:02:10Z'))).toEqual({ date: '2026-07-01', hour: '12pm', min: '05' });
    expect(ukEarliestPickup(90, at('2026-01-15T14:31:00Z'))).toEqual({ date: '2026-01-15', hour: '4pm', min: '05' });
    expect(ukEarliestPickup(0, at('2026-01-15T14:35:00.000Z'))).toEqual({ date: '2026-01-15', hour: '2pm', min: '35' });
    expect(ukEarliestPickup(0, at('2026-01-15T14:35:00.001Z'))).toEqual({ date: '2026-01-15', hour: '2pm', min: '40' });
  });

  it('moves the date on: 23:58 plus 0 is 00:00 the next day, in GMT and in BST, across a year end too', () => {
    expect(ukEarliestPickup(0, at('2026-01-15T23:58:00Z'))).toEqual({ date: '2026-01-16', hour: '12am', min: '00' });
    expect(ukEarliestPickup(0, at('2026-07-01T22:58:00Z'))).toEqual({ date: '2026-07-02', hour: '12am', min: '00' });
    expect(ukEarliestPickup(0, at('2026-12-31T23:58:00Z'))).toEqual({ date: '2027-01-01', hour: '12am', min: '00' });
    expect(ukEarliestPickup(120, at('2026-01-15T22:30:00Z'))).toEqual({ date: '2026-01-16', hour: '12am', min: '30' });
  });

  it('keeps to UK clock time when the clocks go forward', () => {
    // 00:28 GMT plus an hour is 01:28 GMT, which is 02:28 BST: rounded up, 02:30.
    expect(ukEarliestPickup(60, at('2026-03-29T00:28:00Z'))).toEqual({ date: '2026-03-29', hour: '2am', min: '30' });
  });

  it('is a pickup the server takes at that moment, whatever the grace period', () => {
    for (const [iso, grace] of [['2026-07-01T09:02:10Z', 120], ['2026-01-15T23:58:00Z', 0], ['2026-03-29T00:28:00Z', 60], ['2026-10-25T00:10:00Z', 45]] as const) {
      const now = at(iso);
      const p = ukEarliestPickup(grace, now);
      expect(() => checkGracePeriod(pickupInstant(p.date, p.hour, p.min), { GRACE_TIME: String(grace) }, now), `${iso} +${grace}`).not.toThrow();
    }
  });

  it('reads GRACE_TIME as minutes, anything unreadable or negative as 0', () => {
    expect(([{ GRACE_TIME: '90' }, { GRACE_TIME: '' }, { GRACE_TIME: 'soon' }, { GRACE_TIME: '-30' }, {}] as Record<string, string>[]).map(graceMinutes))
      .toEqual([90, 0, 0, 0, 0]);
  });

  it('says GRACE_TIME as a person would, for the urgent notice and the /quoteView panel (decision 22)', () => {
    expect(['120', '60', '90', '45', '1', '0', '150'].map((g) => graceText({ GRACE_TIME: g })))
      .toEqual(['2 hours', '1 hour', '1 hour 30 minutes', '45 minutes', '1 minute', '0 minutes', '2 hours 30 minutes']);
  });
});

describe('the home forms open on it', () => {
  const now = at('2026-01-15T14:31:00Z');

  it('both the quote form and the hourly form', () => {
    expect(newBookingForm(120, now)).toMatchObject({ pickup_date: '2026-01-15', pickup_hour: '4pm', pickup_min: '35', select_option: 'one_way' });
    expect(newHourlyForm(120, now)).toEqual({ pickup: '', pickup_date: '2026-01-15', pickup_duration: '4hour', pickup_hour: '4pm', pickup_min: '35' });
  });

  it('keep a saved pickup still ahead, even inside the grace period, and every other saved value', () => {
    const saved = create({
      pickup: 'Paddington', dropoff: 'Euston', pickup_date: '2026-01-15', pickup_hour: '3pm', pickup_min: '00', passengers: 3,
    }, BookingForm);
    expect(restoreBookingForm(saved, 120, now)).toMatchObject({ pickup: 'Paddington', pickup_date: '2026-01-15', pickup_hour: '3pm', pickup_min: '00', passengers: 3 });
    expect(restoreHourlyForm({ pickup: 'Soho', pickup_date: '2026-01-16', pickup_hour: '9am', pickup_min: '30', pickup_duration: '6hour' } as const, 120, now))
      .toEqual({ pickup: 'Soho', pickup_date: '2026-01-16', pickup_hour: '9am', pickup_min: '30', pickup_duration: '6hour' });
  });

  it('move a saved pickup that has passed (earlier today, or an earlier day) to the earliest bookable one', () => {
    for (const past of [{ pickup_date: '2026-01-15', pickup_hour: '2pm', pickup_min: '30' }, { pickup_date: '2026-01-14', pickup_hour: '11pm', pickup_min: '55' }] as const) {
      const saved = create({ pickup: 'Paddington', dropoff: 'Euston', ...past, passengers: 3 }, BookingForm);
      expect(restoreBookingForm(saved, 120, now)).toMatchObject({ pickup: 'Paddington', pickup_date: '2026-01-15', pickup_hour: '4pm', pickup_min: '35', passengers: 3 });
      expect(restoreHourlyForm({ pickup: 'Soho', ...past, pickup_duration: '6hour' }, 120, now))
        .toEqual({ pickup: 'Soho', pickup_date: '2026-01-15', pickup_hour: '4pm', pickup_min: '35', pickup_duration: '6hour' });
    }
  });

  it('count a pickup as passed only when it is complete and before now', () => {
    expect(pickupIsPast({ pickup_date: '2026-01-15', pickup_hour: '2pm', pickup_min: '30' }, now)).toBe(true);
    expect(pickupIsPast({ pickup_date: '2026-01-15', pickup_hour: '2pm', pickup_min: '35' }, now)).toBe(false);
    expect(pickupIsPast({ pickup_date: '', pickup_hour: '2pm', pickup_min: '30' }, now)).toBe(false);
    expect(pickupIsPast({ pickup_date: '2026-01-14', pickup_hour: '', pickup_min: '30' }, now)).toBe(false);
  });
});

describe('hour choices', () => {
  it('lists the hourly form in time order: 12 midnight, 1am .. 11am, 12 noon, 1pm .. 11pm, stored as SPEC 3 text', () => {
    expect(HOURLY_HOUR_OPTIONS.map((o) => o.label)).toEqual([
      '12 midnight', ...Array.from({ length: 11 }, (_, i) => `${i + 1}am`), '12 noon', ...Array.from({ length: 11 }, (_, i) => `${i + 1}pm`),
    ]);
    expect(HOURLY_HOUR_OPTIONS.map((o) => hour12To24(o.value))).toEqual(Array.from({ length: 24 }, (_, h) => h));
    expect(HOURLY_HOUR_OPTIONS.filter((o) => /^12/.test(o.label)).map((o) => [o.label, o.value])).toEqual([['12 midnight', '12am'], ['12 noon', '12pm']]);
    for (const o of HOURLY_HOUR_OPTIONS) expect(() => create(o.value, Hour12)).not.toThrow();
  });

  it('lists the quote form as 00 to 23 in time order, stored as SPEC 3 text', () => {
    expect(HOUR_OPTIONS.map((o) => o.label)).toEqual(Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')));
    expect(HOUR_OPTIONS.map((o) => hour12To24(o.value))).toEqual(Array.from({ length: 24 }, (_, h) => h));
  });
});

describe('the return leg', () => {
  it('starts as a copy of the outbound counts and extras', () => {
    const outbound = {
      passengers: 3, luggages: 2, hand_luggages: 1, meet_and_greet: 'yes', baby_seats: 1, booster_seats: 2, wheel_chair: 'yes',
      special_luggage: 1, waiting_min: 15, return_passengers: 1, pickup: 'Paddington',
    } as const;
    expect(returnLegFromOutbound(outbound)).toEqual({
      return_passengers: 3, return_luggages: 2, return_hand_luggages: 1, return_meet_and_greet: 'yes', return_baby_seats: 1,
      return_booster_seats: 2, return_wheel_chair: 'yes', return_special_luggage: 1, return_waiting_min: 15,
    });
  });
});

describe('the return date', () => {
  const trip = (pickup_date: string, return_date: string, select_option: 'return' | 'one_way' = 'return') => ({ pickup_date, return_date, select_option });

  it('moves along when the pickup date moves past it, and starts on the pickup date when return is chosen', () => {
    expect(returnDateFollowingPickup(trip('2030-06-05', '2030-06-03'))).toBe('2030-06-05');
    expect(returnDateFollowingPickup(trip('2030-06-05', ''))).toBe('2030-06-05');
  });

  it('is left alone when it is still on or after the pickup, or the trip is one way', () => {
    expect(returnDateFollowingPickup(trip('2030-06-05', '2030-06-05'))).toBe('2030-06-05');
    expect(returnDateFollowingPickup(trip('2030-06-05', '2030-06-09'))).toBe('2030-06-09');
    expect(returnDateFollowingPickup(trip('2030-06-05', '2030-06-03', 'one_way'))).toBe('2030-06-03');
    expect(returnDateFollowingPickup(trip('', '2030-06-03'))).toBe('2030-06-03');
  });
});
