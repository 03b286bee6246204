// Distance and duration between two points of a journey. One service is
// chosen at start-up (see distanceFromConfig): Google Distance Matrix, OSRM,
// or an estimate from coordinates that needs no network.
import { roundMiles } from '../../domain/miles';

/** `exact`: the coordinates are the place itself, not the middle of its town or postcode area (decision 23). */
export interface Waypoint { text: string; lat?: number; lon?: number; exact?: boolean; /** The place is an airport (free waiting after landing). */ airport?: boolean }
export interface Leg { miles: number; seconds: number; estimated: boolean }

export interface DistanceService {
  readonly name: 'google' | 'osrm' | 'estimate';
  /** Whether every waypoint must have coordinates (the service cannot read addresses). */
  readonly needsCoordinates: boolean;
  leg(from: Waypoint, to: Waypoint): Promise<Leg>;
}

/** The service could not place a waypoint: the visitor should fix the address. */
export class UnroutableError extends Error {
  constructor(readonly which: 'from' | 'to' | 'route', message: string) { super(message); }
}

export { greatCircleMiles, ROAD_FACTOR } from '../../domain/tracking';
import { greatCircleMiles, ROAD_FACTOR } from '../../domain/tracking';

/** Town traffic for the first 10 miles (20 mph), main roads after (50 mph), plus 5 minutes to get going. */
export function estimatedSeconds(miles: number): number {
  const town = Math.min(miles, 10);
  const open = Math.max(miles - 10, 0);
  return Math.round(((town / 20 + open / 50) * 3600) + 300);
}

const hasCoords = (w: Waypoint): w is Required<Waypoint> => typeof w.lat === 'number' && typeof w.lon === 'number';

export const estimateDistance: DistanceService = {
  name: 'estimate',
  needsCoordinates: true,
  async leg(from, to) {
    if (!hasCoords(from)) throw new UnroutableError('from', `No coordinates for "${from.text}"`);
    if (!hasCoords(to)) throw new UnroutableError('to', `No coordinates for "${to.text}"`);
    const miles = roundMiles(greatCircleMiles(from, to) * ROAD_FACTOR);
    return { miles, seconds: estimatedSeconds(miles), estimated: true };
  },
};

/**
 * A routing service that falls back to the estimate when it is unreachable or
 * refuses the request (quota, key), as long as both points have coordinates.
 */
export function withEstimateFallback(service: DistanceService, log: (msg: string) => void = console.warn): DistanceService {
  return {
    name: service.name,
    needsCoordinates: service.needsCoordinates,
    async leg(from, to) {
      try {
        return await service.leg(from, to);
      } catch (err) {
        if (err instanceof UnroutableError || !hasCoords(from) || !hasCoords(to)) throw err;
        log(`${service.name} distance failed (${(err as Error).message}); using the estimate`);
        return estimateDistance.leg(from, to);
      }
    },
  };
}
