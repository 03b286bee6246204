// The booking form's quick check (src/server/http/fastForms.ts) against superstruct's create() with the schema:
// whenever the quick check answers, superstruct accepts the same form and returns the same value, keys in the same
// (key order aside: nothing reads it); the common forms are answered quickly.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { create } from 'superstruct';
import { BookingForm } from '../../src/domain/schemas';
import { QUICK_FIELDS, fastBookingForm, quickCheckInStep } from '../../src/server/http/fastForms';
import { validate } from '../../src/server/http/body';

const ABSENT = Symbol('absent');
const odd = [null, true, 0, -1, 1.5, Number.NaN, '', ' ', 'x', '\u0000', [], {}, -0, 1e9, '12pm', '0am', '13pm', '2030-02-30'];
/** A field: mostly one of `valid` (ABSENT for a field that may be left out), now and then one of `invalid` or an odd value. */
const field = (valid: unknown[], invalid: unknown[] = []) => fc.oneof(
  { arbitrary: fc.constantFrom<unknown>(...valid), weight: 40 },
  { arbitrary: fc.constantFrom<unknown>(undefined, ABSENT, ...invalid, ...odd), weight: 1 },
);
const texts = ['Heathrow Airport Terminal 5, Hounslow TW6 2GA', 'a', '  padded  ', 'x'.repeat(300), 'caf\u00e9 \u2019'];
const badTexts = [' ', 'x'.repeat(301), 'tab\there', 'new\nline', '\u0085'];
const optional = (valid: unknown[], invalid: unknown[] = []) => field([ABSENT, undefined, ...valid], invalid);

const form = fc.record({
  pickup: field(texts, badTexts),
  dropoff: field(texts, badTexts),
  pickup_date: field(['2030-06-01', '2028-02-29'], ['2027-02-29', '2030-13-01', '30-06-01']),
  pickup_hour: field(['3pm', '12am', '11pm', '10am'], ['1 pm', '3PM']),
  pickup_min: field(['00', '05', '55'], ['5', '07', '60']),
  select_option: optional(['one_way', 'return'], ['both']),
  return_date: optional(['', '2030-06-08'], ['2030-02-31']),
  return_hour: optional(['', '11am', '12pm'], ['25pm']),
  return_min: optional(['', '30'], ['31']),
  stops: optional([[]], [[{ street_name: 'Euston Station', number: '', postcode: 'NW1 2RT' }], [{}]]),
  passengers: optional([0, 2, 50], [51, 3.5]),
  luggages: optional([0, 20], [21]),
  hand_luggages: optional([1, 20], [21]),
  return_passengers: optional([3], [51]),
  return_luggages: optional([4], [21]),
  return_hand_luggages: optional([5], [-5]),
  meet_and_greet: optional(['yes', 'no'], ['Yes']),
  return_meet_and_greet: optional(['yes', 'no']),
  baby_seats: optional([1, 15], [16]),
  booster_seats: optional([2]),
  return_baby_seats: optional([0]),
  return_booster_seats: optional([15], [16]),
  wheel_chair: optional(['yes', 'no'], ['maybe']),
  return_wheel_chair: optional(['no']),
  special_luggage: optional([3]),
  return_special_luggage: optional([15], [16]),
  waiting_min: optional([0, 5, 15, 100], [7, 105]),
  return_waiting_min: optional([10], [11]),
  pickup_fight_number: optional(['BA 117', '', 'x'.repeat(40)], ['x'.repeat(41)]),
  return_fight_number: optional(['BA 118'], ['bad\u0007']),
  modal: optional(['quote', '', 'x'.repeat(100)], ['x'.repeat(101)]),
  extra_field: optional(['kept as it is', 12, null]),
}).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ABSENT)));

function bySuperstruct(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: create(value, BookingForm) };
  } catch {
    return { ok: false };
  }
}

describe('the quick check of the booking form', () => {
  it('checks exactly the schema\'s fields (a field added to BookingForm turns it off until it is added there too)', () => {
    expect([...QUICK_FIELDS].sort()).toEqual(Object.keys(BookingForm.schema as Record<string, unknown>).sort());
    expect(quickCheckInStep).toBe(true);
  });

  it('answers only what superstruct accepts, with the same value and keys', () => {
    let answered = 0;
    fc.assert(fc.property(form, (value) => {
      const quick = fastBookingForm(structuredClone(value));
      const slow = bySuperstruct(structuredClone(value));
      if (quick === null) return;
      answered++;
      expect(slow.ok).toBe(true);
      const expected = (slow as { value: unknown }).value as Record<string, unknown>;
      expect(quick).toEqual(expected);
      expect(Object.keys(quick).sort()).toEqual(Object.keys(expected).sort());
      // toEqual does not tell 0 from -0: every plain value is the very same.
      for (const key of Object.keys(expected)) {
        if (typeof expected[key] !== 'object') expect(Object.is(quick[key as keyof typeof quick], expected[key])).toBe(true);
      }
    }), { numRuns: 5000 });
    expect(answered).toBeGreaterThan(500);
  });

  it('answers the common forms itself: a one-way and a return trip with every field the wizard sends', () => {
    const oneWay = { pickup: 'Heathrow Airport Terminal 5', dropoff: 'Trafalgar Square', pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 2 };
    const back = { ...oneWay, select_option: 'return', return_date: '2030-06-08', return_hour: '11am', return_min: '30', stops: [], modal: '' };
    for (const f of [oneWay, back]) {
      expect(fastBookingForm(f)).not.toBeNull();
      expect(fastBookingForm(f)).toEqual(create(f, BookingForm));
    }
  });

  it('leaves refusals to the schema: the same field and message as before', () => {
    const bad = { pickup: 'A', dropoff: 'B', pickup_date: '2030-02-30', pickup_hour: '3pm', pickup_min: '05' };
    expect(fastBookingForm(bad)).toBeNull();
    expect(() => validate(bad, BookingForm, 'bookingForm')).toThrow(/bookingForm\.pickup_date/);
  });
});
