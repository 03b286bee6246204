// The pricing engine: what one operator charges for one vehicle type, in
// pence. docs/pricing.md explains it with a worked example.
import { poundsToPence, roundToPoundsPence } from '../../domain/money';
import type { Settings } from '../../domain/settings';
import { EXTRAS, extraPence, extraPriceLabel, type ExtraKey, type ExtraValue } from '../../domain/extras';

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

/** Each extra's price from its setting (SPEC 3), in pence; unset, unreadable or negative is 0 (not offered). */
export type ExtraPrices = Record<ExtraKey, number>;

export function extraPricesFrom(settings: Settings): ExtraPrices {
  const pence = (key: string) => {
    const p = poundsToPence(settings[key] ?? '');
    return Number.isNaN(p) || p < 0 ? 0 : p;
  };
  return Object.fromEntries(EXTRAS.map((e) => [e.key, pence(e.setting)])) as ExtraPrices;
}

/** What one leg asks for, by the form's field names. */
export type LegExtras = Record<ExtraKey, ExtraValue>;

/** One line per extra asked for and priced above 0, in the order of EXTRAS (src/domain/extras.ts). */
export function extraLines(o: LegExtras, p: ExtraPrices, leg: Leg): PriceLine[] {
  const prefix = leg === 'return' ? 'Return: ' : '';
  const lines: PriceLine[] = [];
  for (const e of EXTRAS) {
    const pence = extraPence(e, o[e.key], p[e.key]);
    if (pence > 0) lines.push({ code: e.code, leg, label: prefix + extraPriceLabel(e, o[e.key]), pence });
  }
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
