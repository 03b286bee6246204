// The pricing engine: what one operator charges for one vehicle type, in
// pence. docs/pricing.md explains it with a worked example.
import { poundsToPence, roundToPoundsPence } from '../../domain/money';
import type { Settings } from '../../domain/settings';

export interface DistanceRate {
  base_fare_pence: number;
  minimum_fare_pence: number;
  bands: { from_miles: number; per_mile_pence: number }[];
}

export type Leg = 'outbound' | 'return';
export interface PriceLine { code: string; leg: Leg; label: string; pence: number }

/** Base fare plus each band's miles at its rate, never less than the minimum fare. */
export function distanceFarePence(rate: DistanceRate, miles: number): number {
  // The bands come sorted from the database; sorted again only if they are not (a hand-made rate).
  let bands = rate.bands;
  for (let i = 1; i < bands.length; i++) {
    if (bands[i].from_miles < bands[i - 1].from_miles) { bands = [...bands].sort((a, b) => a.from_miles - b.from_miles); break; }
  }
  let total = rate.base_fare_pence;
  for (let i = 0; i < bands.length; i++) {
    const end = i + 1 < bands.length ? bands[i + 1].from_miles : Infinity;
    total += Math.max(0, Math.min(miles, end) - bands[i].from_miles) * bands[i].per_mile_pence;
  }
  return Math.max(rate.minimum_fare_pence, Math.round(total));
}

export function hourlyFarePence(hourlyRatePence: number, hours: number): number {
  return hourlyRatePence * hours;
}

/** Extra prices from the settings (SPEC 3), in pence; unset, unreadable or negative is 0 (not offered). */
export interface ExtraPrices {
  meet_and_greet: number; baby_seat: number; booster_seat: number; wheel_chair: number;
  special_luggage: number; per_five_waiting_min: number;
}

export function extraPricesFrom(settings: Settings): ExtraPrices {
  const pence = (key: string) => {
    const p = poundsToPence(settings[key] ?? '');
    return Number.isNaN(p) || p < 0 ? 0 : p;
  };
  return {
    meet_and_greet: pence('MEET_AND_GREET'),
    baby_seat: pence('BABY_PRICE_PER_SEAT'),
    booster_seat: pence('BOOSTER_PRICE_PER_SEAT'),
    wheel_chair: pence('WHEEL_CHAIR'),
    special_luggage: pence('SPECIAL_LUGGAGE_PER_PRICE'),
    per_five_waiting_min: pence('PRICE_PER_FIVE_WAITING_MIN'),
  };
}

export interface LegExtras {
  meet_and_greet: 'yes' | 'no'; baby_seats: number; booster_seats: number; wheel_chair: 'yes' | 'no';
  special_luggage: number; waiting_min: number;
}

/** One line per extra asked for and priced above 0. Waiting is charged per started five minutes. */
export function extraLines(o: LegExtras, p: ExtraPrices, leg: Leg): PriceLine[] {
  const prefix = leg === 'return' ? 'Return: ' : '';
  const lines: PriceLine[] = [];
  const add = (code: string, label: string, pence: number) => {
    if (pence > 0) lines.push({ code, leg, label: prefix + label, pence });
  };
  if (o.meet_and_greet === 'yes') add('meet_and_greet', 'Meet and Greet', p.meet_and_greet);
  if (o.baby_seats > 0) add('baby_seat', `Baby seats x ${o.baby_seats}`, o.baby_seats * p.baby_seat);
  if (o.booster_seats > 0) add('booster_seat', `Booster seats x ${o.booster_seats}`, o.booster_seats * p.booster_seat);
  if (o.wheel_chair === 'yes') add('wheel_chair', 'Wheelchair accessible', p.wheel_chair);
  if (o.special_luggage > 0) add('special_luggage', `Special luggage x ${o.special_luggage}`, o.special_luggage * p.special_luggage);
  if (o.waiting_min > 0) add('waiting', `Waiting time ${o.waiting_min} min`, Math.ceil(o.waiting_min / 5) * p.per_five_waiting_min);
  return lines;
}

export function totalPence(lines: PriceLine[]): number {
  return lines.reduce((sum, l) => sum + l.pence, 0);
}

/**
 * Decision 21: with ROUND_OFF the offer's total is whole pounds, and the breakdown says by how much it moved, so
 * its lines still add up to the price that is shown, booked and charged. Nothing to add when it is whole already.
 */
export function roundingLine(lines: PriceLine[], roundOff: boolean): PriceLine | null {
  if (!roundOff) return null;
  const total = totalPence(lines);
  const change = roundToPoundsPence(total) - total;
  return change === 0 ? null : { code: 'rounding', leg: 'outbound', label: 'Rounding', pence: change };
}
