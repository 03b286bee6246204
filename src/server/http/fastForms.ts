// A quick check of the booking form for the common case, in front of superstruct (decision 29).
//
// superstruct's create() walks generators and builds an object per field; on a price call it was a fifth of the CPU.
// fastBookingForm answers only when it is certain: a form whose every field is absent or plainly valid, and no
// stops. It then returns exactly what create(value, BookingForm) returns (the same fields, defaults and order); for
// anything else (an error to describe, stops, a value it does not handle) it returns null and superstruct runs as
// before, so every refusal and its message still come from the one schema in src/domain/schemas.ts.
// test/api/fast-forms.test.ts compares the two on generated forms.
import type { BookingForm } from '../../domain/schemas';
import { hasControlCharacters } from '../../domain/fields';
import { isCalendarDate } from '../../domain/ukTime';

/** Not certain: let superstruct decide. */
const UNSURE = Symbol('unsure');
type Rule = (value: unknown) => unknown;

const text = (min: number, max: number): Rule => (v) =>
  typeof v === 'string' && v.length >= min && v.length <= max && !hasControlCharacters(v) && (min === 0 || v.trim() !== '') ? v : UNSURE;
const withDefault = (rule: Rule, fallback: unknown): Rule => (v) => (v === undefined ? fallback : rule(v));
const oneOf = (...values: string[]): Rule => (v) => (typeof v === 'string' && values.includes(v) ? v : UNSURE);
const integerIn = (max: number, step = 1): Rule => (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max && v % step === 0 ? v : UNSURE;
const calendarDate: Rule = (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && isCalendarDate(v) ? v : UNSURE);
const hour12: Rule = (v) => (typeof v === 'string' && /^(1[0-2]|[1-9])(am|pm)$/.test(v) ? v : UNSURE);
const minute = oneOf('00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55');
const emptyOr = (rule: Rule): Rule => withDefault((v) => (v === '' ? '' : rule(v)), '');
const count = (max: number) => withDefault(integerIn(max), 0);
const yesNo = withDefault(oneOf('yes', 'no'), 'no');
const optionalText = (max: number) => withDefault(text(0, max), '');

/** BookingForm's fields in the schema's order, each with its rule (src/domain/schemas.ts). */
const BOOKING_FORM: [string, Rule][] = [
  ['pickup', text(1, 300)],
  ['dropoff', text(1, 300)],
  ['pickup_date', calendarDate],
  ['pickup_hour', hour12],
  ['pickup_min', minute],
  ['select_option', withDefault(oneOf('one_way', 'return'), 'one_way')],
  ['return_date', emptyOr(calendarDate)],
  ['return_hour', emptyOr(hour12)],
  ['return_min', emptyOr(minute)],
  // Stops are left to superstruct (each is an object of its own rules).
  ['stops', (v) => (v === undefined || (Array.isArray(v) && v.length === 0) ? [] : UNSURE)],
  ['passengers', count(50)],
  ['luggages', count(20)],
  ['hand_luggages', count(20)],
  ['return_passengers', count(50)],
  ['return_luggages', count(20)],
  ['return_hand_luggages', count(20)],
  ['meet_and_greet', yesNo],
  ['return_meet_and_greet', yesNo],
  ['baby_seats', count(15)],
  ['booster_seats', count(15)],
  ['return_baby_seats', count(15)],
  ['return_booster_seats', count(15)],
  ['wheel_chair', yesNo],
  ['return_wheel_chair', yesNo],
  ['special_luggage', count(15)],
  ['return_special_luggage', count(15)],
  ['waiting_min', withDefault(integerIn(100, 5), 0)],
  ['return_waiting_min', withDefault(integerIn(100, 5), 0)],
  ['pickup_fight_number', optionalText(40)],
  ['return_fight_number', optionalText(40)],
  ['modal', (v) => (v === undefined ? undefined : text(0, 100)(v))],
];

/** create(value, BookingForm) for a plainly valid form without stops; null when superstruct must decide. */
export function fastBookingForm(value: unknown): BookingForm | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const given = value as Record<string, unknown>;
  const form: Record<string, unknown> = { ...given };
  for (const [key, rule] of BOOKING_FORM) {
    const checked = rule(given[key]);
    if (checked === UNSURE) return null;
    // As superstruct: a field left out stays out unless a default fills it.
    if (checked !== undefined || key in form) form[key] = checked;
  }
  return form as BookingForm;
}
