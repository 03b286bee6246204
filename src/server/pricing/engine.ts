// The pricing engine: what one operator charges for one vehicle type, in pence.
export interface DistanceRate {
  base_fare_pence: number;
  minimum_fare_pence: number;
  bands: { from_miles: number; per_mile_pence: number }[];
}

export interface PriceLine { label: string; pence: number }

/** Base fare plus each band's miles at its rate, never less than the minimum fare. */
export function distanceFarePence(rate: DistanceRate, miles: number): number {
  const bands = [...rate.bands].sort((a, b) => a.from_miles - b.from_miles);
  let total = rate.base_fare_pence;
  bands.forEach((band, i) => {
    const end = bands[i + 1]?.from_miles ?? Infinity;
    const inBand = Math.max(0, Math.min(miles, end) - band.from_miles);
    total += inBand * band.per_mile_pence;
  });
  return Math.max(rate.minimum_fare_pence, Math.round(total));
}

export function legLines(rate: DistanceRate, miles: number, label: string): PriceLine[] {
  return [{ label: `${label} (${miles.toFixed(1)} miles)`, pence: distanceFarePence(rate, miles) }];
}

export function totalPence(lines: PriceLine[]): number {
  return lines.reduce((sum, l) => sum + l.pence, 0);
}
