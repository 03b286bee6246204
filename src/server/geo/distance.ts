// Distance and duration between places. The estimate needs no network: the
// great-circle distance between known places times a road factor.
import type { Place } from './places';

export interface Leg { miles: number; seconds: number }
export interface DistanceService {
  readonly estimated: boolean;
  leg(from: Place, to: Place): Promise<Leg>;
}

const EARTH_RADIUS_MILES = 3958.8;
/** UK roads are on average about 30% longer than the straight line between two places. */
export const ROAD_FACTOR = 1.3;

export function greatCircleMiles(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(h));
}

/** Town traffic for the first 10 miles (20 mph), main roads after (50 mph), plus 5 minutes to get going. */
export function estimatedSeconds(miles: number): number {
  const town = Math.min(miles, 10);
  const open = Math.max(miles - 10, 0);
  return Math.round(((town / 20 + open / 50) * 3600) + 300);
}

export const estimateDistance: DistanceService = {
  estimated: true,
  async leg(from, to) {
    const miles = Math.round(greatCircleMiles(from, to) * ROAD_FACTOR * 10) / 10;
    return { miles, seconds: estimatedSeconds(miles) };
  },
};
