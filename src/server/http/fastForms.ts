// A quick check of the booking form for the common case, in front of superstruct (decision 29).
//
// superstruct's create() walks generators and builds an object per field; on a price call it was a fifth of the CPU.
// fastBookingForm answers only when it is certain: a form whose every field is absent or plainly valid, and no
// stops. It then returns exactly what create(value, BookingForm) returns (the same fields, defaults and order); for
// anything else (an error to describe, stops, a value it does not handle) it returns null and superstruct runs as
// before, so every refusal and its message still come from the one schema in src/domain/schemas.ts.
// test/api/fast-forms.test.ts compares the two on generated forms.
import { BookingForm } from '../../domain/schemas';
import { hasControlCharacters } from '../../domain/fields';
import { isCalendarDate } from '../../domain/ukTime';
import { normaliseTravelReference, travelReferenceFailure } from '../../domain/flightNumbers';

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

/** The fields checked below. A schema with other fields turns the quick check off (test/api/fast-forms.test.ts fails). */
export const QUICK_FIELDS = [
  'pickup', 'dropoff', 'pickup_date', 'pickup_hour', 'pickup_min', 'select_option', 'return_date', 'return_hour', 'return_min',
  'stops', 'passengers', 'luggages', 'hand_luggages', 'return_passengers', 'return_luggages', 'return_hand_luggages',
  'meet_and_greet', 'return_meet_and_greet', 'baby_seats', 'booster_seats', 'return_baby_seats', 'return_booster_seats',
  'wheel_chair', 'return_wheel_chair', 'special_luggage', 'return_special_luggage', 'waiting_min', 'return_waiting_min',
  'pickup_fight_number', 'return_fight_number', 'modal',
];
export const quickCheckInStep = ((schema: string[]) => schema.length === QUICK_FIELDS.length && schema.every((k) => QUICK_FIELDS.includes(k)))(
  Object.keys(BookingForm.schema as Record<string, unknown>));

/** create(value, BookingForm) for a plainly valid form without stops; null when superstruct must decide. */
export function fastBookingForm(value: unknown): BookingForm | null {
  if (!quickCheckInStep || typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const g = value as Record<string, unknown>;
  // One object literal of every field (a fixed shape: adding thirty keys one by one to a copy cost 20 µs).
  const form = {
    pickup: text300(g.pickup),
    dropoff: text300(g.dropoff),
    pickup_date: calendarDate(g.pickup_date),
    pickup_hour: hour12(g.pickup_hour),
    pickup_min: minute(g.pickup_min),
    select_option: selectOption(g.select_option),
    return_date: emptyOrDate(g.return_date),
    return_hour: emptyOrHour(g.return_hour),
    return_min: emptyOrMinute(g.return_min),
    // Stops are left to superstruct (each is an object of its own rules).
    stops: g.stops === undefined || (Array.isArray(g.stops) && g.stops.length === 0) ? [] : UNSURE,
    passengers: count50(g.passengers),
    luggages: count20(g.luggages),
    hand_luggages: count20(g.hand_luggages),
    return_passengers: count50(g.return_passengers),
    return_luggages: count20(g.return_luggages),
    return_hand_luggages: count20(g.return_hand_luggages),
    meet_and_greet: yesNo(g.meet_and_greet),
    return_meet_and_greet: yesNo(g.return_meet_and_greet),
    baby_seats: count15(g.baby_seats),
    booster_seats: count15(g.booster_seats),
    return_baby_seats: count15(g.return_baby_seats),
    return_booster_seats: count15(g.return_booster_seats),
    wheel_chair: yesNo(g.wheel_chair),
    return_wheel_chair: yesNo(g.return_wheel_chair),
    special_luggage: count15(g.special_luggage),
    return_special_luggage: count15(g.return_special_luggage),
    waiting_min: waiting(g.waiting_min),
    return_waiting_min: waiting(g.return_waiting_min),
    pickup_fight_number: travelReference(g.pickup_fight_number),
    return_fight_number: travelReference(g.return_fight_number),
  } as Record<string, unknown>;
  for (const key in form) if (form[key] === UNSURE) return null;
  // A reference its field asks for that is none: superstruct refuses it, naming the field.
  if (travelReferenceFailure(form as Parameters<typeof travelReferenceFailure>[0])) return null;
  // As superstruct: a field left out stays out unless a default fills it; fields it does not know are kept.
  if ('modal' in g) {
    const modal = g.modal === undefined ? undefined : text100(g.modal);
    if (modal === UNSURE) return null;
    form.modal = modal;
  }
  for (const key in g) if (!(key in form)) form[key] = g[key];
  return form as BookingForm;
}

const selectOption = withDefault(oneOf('one_way', 'return'), 'one_way');
const emptyOrDate = emptyOr(calendarDate);
const emptyOrHour = emptyOr(hour12);
const emptyOrMinute = emptyOr(minute);
const count50 = count(50);
const count20 = count(20);
const count15 = count(15);
const waiting = withDefault(integerIn(100, 5), 0);
const text40 = optionalText(40);
/** A flight, train or ferry reference (issue 42), stored as schemas.ts stores it; whether it must be one is checked below. */
const travelReference = (v: unknown) => {
  const t = text40(v);
  return typeof t === 'string' ? normaliseTravelReference(t) : t;
};
const text300 = text(1, 300);
const text100 = text(0, 100);
