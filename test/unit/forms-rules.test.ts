// The quote form's own rules (src/domain/forms.ts), SPEC 4 and 5 and decisions 20 and 23: the checks before prices
// are asked for, word for word; the extras offered; the flight field; a saved form restored.
import { describe, expect, it } from 'vitest';
import {
  needsTravelReference, newBookingForm, pickupDateError, pickupIsPast, restoreBookingForm, returnDateFollowingPickup,
  validateBookingForm, type BookingFormDraft,
} from '../../src/domain/forms';
import { SAME_PLACE } from '../../src/domain/messages';
import { extraOffered } from '../../src/domain/extras';
import type { BookingForm } from '../../src/domain/schemas';

// 10:00 in London on 1 June 2026 (BST).
const NOW = new Date('2026-06-01T09:00:00Z');
const draft = (more: Partial<BookingFormDraft> = {}): BookingFormDraft => ({
  ...newBookingForm(0, NOW), pickup: 'Heathrow Airport Terminal 5', dropoff: 'Trafalgar Square, London', pickup_date: '2026-06-02', ...more,
});

describe('the quote form before prices are asked for (SPEC 5)', () => {
  it('passes a complete one-way trip, with no message at all (not even an empty one)', () => {
    expect(validateBookingForm(draft(), NOW)).toStrictEqual({});
    // A draft saved before stops existed has none to check.
    expect(validateBookingForm(draft({ stops: undefined as never }), NOW)).toStrictEqual({});
  });

  it('asks for both addresses, spaces counting as nothing', () => {
    expect(validateBookingForm(draft({ pickup: '  ', dropoff: '' }), NOW)).toEqual({ pickup: 'Enter a pickup address', dropoff: 'Enter a drop-off address' });
    expect(validateBookingForm(draft({ pickup: undefined as never, dropoff: undefined as never }), NOW))
      .toEqual({ pickup: 'Enter a pickup address', dropoff: 'Enter a drop-off address' });
    expect(validateBookingForm(draft({ dropoff: '   ' }), NOW)).toEqual({ dropoff: 'Enter a drop-off address' });
    expect(validateBookingForm(draft({ pickup: undefined as never, stops: undefined as never }), NOW)).toEqual({ pickup: 'Enter a pickup address' });
  });

  it('refuses a trip to where it starts, unless it has stops (decision 23)', () => {
    expect(validateBookingForm(draft({ dropoff: ' heathrow airport terminal 5 ' }), NOW)).toEqual({ dropoff: SAME_PLACE });
    expect(validateBookingForm(draft({ dropoff: 'Heathrow Airport Terminal 5', stops: [{ street_name: 'Slough', postcode: '' }] as never }), NOW)).toEqual({});
  });

  it('asks for a pickup date, and never one before today in the UK', () => {
    expect(validateBookingForm(draft({ pickup_date: '' }), NOW)).toEqual({ pickup_date: 'Choose a pickup date' });
    expect(validateBookingForm(draft({ pickup_date: '2026-05-31' }), NOW)).toEqual({ pickup_date: 'Pickup date cannot be earlier than today' });
    expect(validateBookingForm(draft({ pickup_date: '2026-06-01' }), NOW)).toEqual({});
  });

  it('asks a return trip for a return date on or after the pickup date', () => {
    const back = (return_date: string) => validateBookingForm(draft({ select_option: 'return', return_date }), NOW);
    expect(back('')).toEqual({ return_date: 'Choose a return date' });
    expect(back('2026-06-01')).toEqual({ return_date: 'The return cannot be before the pickup date' });
    expect(back('2026-06-02')).toEqual({});
    expect(back('2026-06-03')).toEqual({});
    // A one-way trip has no return to check.
    expect(validateBookingForm(draft({ select_option: 'one_way', return_date: '' }), NOW)).toEqual({});
  });

  it('asks each stop for its street or place, and says which', () => {
    const stops = [{ street_name: 'Slough Station', postcode: '' }, { street_name: '  ', postcode: '' }, { postcode: 'SL1' }] as never;
    expect(validateBookingForm(draft({ stops }), NOW)).toEqual({
      stops: [{}, { street_name: 'Enter the street name or place' }, { street_name: 'Enter the street name or place' }],
    });
  });
});

describe('pickup dates and times', () => {
  it('says the pickup date error on its own as well', () => {
    expect(pickupDateError('', NOW)).toBe('Choose a pickup date');
    expect(pickupDateError('2026-05-31', NOW)).toBe('Pickup date cannot be earlier than today');
    expect(pickupDateError('2026-06-01', NOW)).toBeUndefined();
  });

  it('knows a pickup in the past, to the minute, and not one without a date or hour', () => {
    expect(pickupIsPast({ pickup_date: '2026-06-01', pickup_hour: '9am', pickup_min: '55' }, NOW)).toBe(true);
    expect(pickupIsPast({ pickup_date: '2026-06-01', pickup_hour: '10am', pickup_min: '00' }, NOW)).toBe(false);
    expect(pickupIsPast({ pickup_date: '2026-06-01', pickup_hour: '10am', pickup_min: '05' }, NOW)).toBe(false);
    expect(pickupIsPast({ pickup_date: '', pickup_hour: '9am', pickup_min: '00' }, NOW)).toBe(false);
    expect(pickupIsPast({ pickup_date: '2026-06-01', pickup_min: '00' }, NOW)).toBe(false);
  });

  it('moves the return date along with the pickup date, only for a return trip', () => {
    expect(returnDateFollowingPickup({ select_option: 'return', pickup_date: '2026-06-05', return_date: '' })).toBe('2026-06-05');
    expect(returnDateFollowingPickup({ select_option: 'return', pickup_date: '2026-06-05', return_date: '2026-06-04' })).toBe('2026-06-05');
    expect(returnDateFollowingPickup({ select_option: 'return', pickup_date: '2026-06-05', return_date: '2026-06-05' })).toBe('2026-06-05');
    expect(returnDateFollowingPickup({ select_option: 'return', pickup_date: '2026-06-05', return_date: '2026-06-07' })).toBe('2026-06-07');
    expect(returnDateFollowingPickup({ select_option: 'one_way', pickup_date: '2026-06-05', return_date: '2026-06-01' })).toBe('2026-06-01');
    expect(returnDateFollowingPickup({ select_option: 'return', pickup_date: '', return_date: '2026-06-01' })).toBe('2026-06-01');
  });
});

describe('a saved quote form (SPEC 3, decision 20)', () => {
  const saved = (more: Partial<BookingForm>): BookingForm => ({ ...draft(), ...more } as BookingForm);

  it('opens a new form with empty addresses, one passenger and a 12pm return time', () => {
    expect(newBookingForm(0, NOW)).toMatchObject({ pickup: '', dropoff: '', passengers: 1, return_hour: '12pm', return_min: '00', pickup_date: '2026-06-01' });
  });

  it('keeps what was saved, and a return time never saved takes the default', () => {
    const restored = restoreBookingForm(saved({ passengers: 3, return_hour: '' as never, return_min: '' as never }), 0, NOW);
    expect(restored).toMatchObject({ passengers: 3, pickup: 'Heathrow Airport Terminal 5', return_hour: '12pm', return_min: '00' });
    expect(restoreBookingForm(saved({ return_hour: '6pm', return_min: '30' }), 0, NOW)).toMatchObject({ return_hour: '6pm', return_min: '30' });
  });

  it('keeps a pickup still ahead, and opens a passed one on the earliest bookable pickup', () => {
    expect(restoreBookingForm(saved({ pickup_date: '2026-06-02', pickup_hour: '3pm', pickup_min: '05' }), 0, NOW))
      .toMatchObject({ pickup_date: '2026-06-02', pickup_hour: '3pm', pickup_min: '05' });
    const fresh = newBookingForm(120, NOW);
    expect(restoreBookingForm(saved({ pickup_date: '2026-05-30', pickup_hour: '3pm', pickup_min: '05' }), 120, NOW))
      .toMatchObject({ pickup_date: fresh.pickup_date, pickup_hour: fresh.pickup_hour, pickup_min: fresh.pickup_min });
    expect(restoreBookingForm(null, 120, NOW)).toEqual(fresh);
  });
});

describe('what the form offers (SPEC 5)', () => {
  it('asks for a flight, train or ferry number only for an airport or terminal, in any case', () => {
    expect(needsTravelReference('Heathrow AIRPORT')).toBe(true);
    expect(needsTravelReference('Dover Ferry Terminal')).toBe(true);
    expect(needsTravelReference('Trafalgar Square')).toBe(false);
    expect(needsTravelReference(undefined)).toBe(false);
  });

  it('offers an extra only when its price setting is above 0', () => {
    expect(extraOffered({ MEET_AND_GREET: '15' }, 'meet_and_greet')).toBe(true);
    expect(extraOffered({ MEET_AND_GREET: '0.01' }, 'meet_and_greet')).toBe(true);
    expect(extraOffered({ MEET_AND_GREET: '0' }, 'meet_and_greet')).toBe(false);
    expect(extraOffered({ MEET_AND_GREET: '-5' }, 'meet_and_greet')).toBe(false);
    expect(extraOffered({}, 'meet_and_greet')).toBe(false);
    // Each extra reads its own setting.
    const one = { WHEEL_CHAIR: '1', BABY_PRICE_PER_SEAT: '0', BOOSTER_PRICE_PER_SEAT: '2', SPECIAL_LUGGAGE_PER_PRICE: '0', PRICE_PER_FIVE_WAITING_MIN: '3' };
    expect((['wheel_chair', 'baby_seats', 'booster_seats', 'special_luggage', 'waiting_min'] as const).map((x) => extraOffered(one, x)))
      .toEqual([true, false, true, false, true]);
  });
});
