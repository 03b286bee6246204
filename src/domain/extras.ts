// The optional extras of a trip (SPEC 3 settings, SPEC 5 form), each once: the field the form asks it with, the
// column a booking keeps it in, the setting that prices it (offered only when above 0), how it is priced, and how it
// reads in a price breakdown, a trip summary and a booking's details.

import type { BookingDetail } from './schemas';

/** The field of the trip form (a return leg's is `return_` + key). */
export type ExtraKey = 'meet_and_greet' | 'baby_seats' | 'booster_seats' | 'wheel_chair' | 'special_luggage' | 'waiting_min';
/** The column of booking_details, as the API answers it. */
export type ExtraDetailKey = 'meet_and_greet' | 'baby_seat' | 'booster_seat' | 'wheel_chair' | 'special_luggages' | 'waiting_minutes';
/** What a form or a booking holds for an extra: yes or no, or a number. */
export type ExtraValue = string | number;

interface ExtraBase {
  key: ExtraKey;
  detail: ExtraDetailKey;
  /** The code of its line in a price breakdown (SPEC 7 price answers). */
  code: string;
  label: string;
  /** The setting that prices it, in pounds; 0 or unset: not offered. */
  setting: string;
}
export type Extra = ExtraBase & (
  /** Asked yes or no; priced once. */
  | { kind: 'yesno' }
  /** A number of items, 0 to 15 (SPEC 5); priced per item. */
  | { kind: 'count'; max: number; noun: string }
  /** Minutes, 0 to 100 in steps of 5 (SPEC 5); priced per five minutes started. */
  | { kind: 'minutes'; max: number; step: number }
);

export const EXTRAS: readonly Extra[] = [
  { key: 'meet_and_greet', detail: 'meet_and_greet', code: 'meet_and_greet', label: 'Meet and Greet', setting: 'MEET_AND_GREET', kind: 'yesno' },
  { key: 'baby_seats', detail: 'baby_seat', code: 'baby_seat', label: 'Baby seats', setting: 'BABY_PRICE_PER_SEAT', kind: 'count', max: 15, noun: 'baby seat' },
  { key: 'booster_seats', detail: 'booster_seat', code: 'booster_seat', label: 'Booster seats', setting: 'BOOSTER_PRICE_PER_SEAT', kind: 'count', max: 15, noun: 'booster seat' },
  { key: 'wheel_chair', detail: 'wheel_chair', code: 'wheel_chair', label: 'Wheelchair accessible vehicle', setting: 'WHEEL_CHAIR', kind: 'yesno' },
  { key: 'special_luggage', detail: 'special_luggages', code: 'special_luggage', label: 'Special luggage', setting: 'SPECIAL_LUGGAGE_PER_PRICE', kind: 'count', max: 15, noun: 'special luggage item' },
  { key: 'waiting_min', detail: 'waiting_minutes', code: 'waiting', label: 'Waiting minutes', setting: 'PRICE_PER_FIVE_WAITING_MIN', kind: 'minutes', max: 100, step: 5 },
];

export const extraOf = (key: ExtraKey): Extra => EXTRAS.find((e) => e.key === key)!;

/** SPEC 5: an extra is offered only while its setting is greater than 0. */
export const extraOffered = (settings: Record<string, string | undefined>, key: ExtraKey): boolean => Number(settings[extraOf(key).setting]) > 0;

/** How many are asked for: a number as it is, yes as 1, anything else as 0. */
export function amountOf(value: ExtraValue | null | undefined): number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : 0;
  return value?.trim().toLowerCase() === 'yes' ? 1 : 0;
}

/** What it costs at `unitPence` (its setting): per item, or per five minutes started. */
export function extraPence(extra: Extra, value: ExtraValue, unitPence: number): number {
  const n = amountOf(value);
  return (extra.kind === 'minutes' ? Math.ceil(n / 5) : n) * unitPence;
}

/** Its line in a price breakdown: 'Meet and Greet', 'Baby seats x 2', 'Waiting minutes: 15'. */
export function extraPriceLabel(extra: Extra, value: ExtraValue): string {
  const n = amountOf(value);
  return extra.kind === 'yesno' ? extra.label : extra.kind === 'count' ? `${extra.label} x ${n}` : `${extra.label}: ${n}`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** In a sentence of a trip's options: 'Meet and Greet', '2 baby seats', '15 min waiting'; null when not asked for. */
export function extraPhrase(extra: Extra, value: ExtraValue): string | null {
  const n = amountOf(value);
  if (!n) return null;
  return extra.kind === 'yesno' ? extra.label : extra.kind === 'count' ? plural(n, extra.noun) : `${n} min waiting`;
}

/** Its value in a booking's details: Yes or No; a count as 'Yes (2)' or 'No' (SPEC 2 'yes/no'); minutes as '15 minutes' or 'None'. */
export function extraReads(extra: Extra, value: ExtraValue): string {
  const n = amountOf(value);
  if (extra.kind === 'yesno') return n ? 'Yes' : 'No';
  if (extra.kind === 'count') return n ? `Yes (${n})` : 'No';
  return n ? `${n} minutes` : 'None';
}

/** What one leg of a trip form asks for: the outbound leg's fields, or the return leg's `return_` ones. */
export function legExtras(form: object, leg: 'outbound' | 'return'): Record<ExtraKey, ExtraValue> {
  const fields = form as Record<string, ExtraValue | undefined>;
  return Object.fromEntries(EXTRAS.map((e) => [e.key, fields[leg === 'return' ? `return_${e.key}` : e.key] ?? 0])) as Record<ExtraKey, ExtraValue>;
}

/** How a booking keeps one leg's extras (booking_details, by column): yes or no as 'yes' or 'no', the others as numbers. */
export function storedExtras(values: Partial<Record<ExtraKey, ExtraValue>>): Pick<BookingDetail, ExtraDetailKey> {
  return Object.fromEntries(EXTRAS.map((e) => {
    const n = amountOf(values[e.key]);
    return [e.detail, e.kind === 'yesno' ? (n ? 'yes' : 'no') : n];
  })) as Pick<BookingDetail, ExtraDetailKey>;
}
