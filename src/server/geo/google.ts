// Google Distance Matrix (https://developers.google.com/maps/documentation/distance-matrix).
import type { DistanceService, Waypoint } from './distance';
import { UnroutableError } from './distance';
import { milesFromMetres } from '../../domain/miles';

interface MatrixResponse {
  status: string;
  error_message?: string;
  origin_addresses?: string[];
  destination_addresses?: string[];
  rows?: { elements: { status: string; distance?: { value: number }; duration?: { value: number } }[] }[];
}

/** Coordinates for a place we know exactly; otherwise the text, which Google reads better than a town's middle. */
const point = (w: Waypoint) => (w.exact && typeof w.lat === 'number' && typeof w.lon === 'number' ? `${w.lat},${w.lon}` : `${w.text}, UK`);

export function googleDistance(key: string, baseUrl = 'https://maps.googleapis.com', timeoutMs = 5000): DistanceService {
  return {
    name: 'google',
    needsCoordinates: false,
    async leg(from, to) {
      const url = new URL('/maps/api/distancematrix/json', baseUrl);
      url.search = new URLSearchParams({
        origins: point(from), destinations: point(to), mode: 'driving', units: 'imperial', region: 'uk', key,
      }).toString();
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new Error(`Distance Matrix HTTP ${res.status}`);
      const body = (await res.json()) as MatrixResponse;
      if (body.status !== 'OK') throw new Error(`Distance Matrix ${body.status}${body.error_message ? `: ${body.error_message}` : ''}`);
      const el = body.rows?.[0]?.elements?.[0];
      if (!el || el.status === 'NOT_FOUND') {
        // Google leaves the address it could not find empty.
        const which = body.origin_addresses?.[0] === '' ? 'from' : body.destination_addresses?.[0] === '' ? 'to' : 'route';
        throw new UnroutableError(which, which === 'route' ? 'Google could not find one of the addresses' : 'Google could not find this address');
      }
      if (el.status !== 'OK' || !el.distance || !el.duration) throw new UnroutableError('route', `No driving route (${el.status})`);
      return { miles: milesFromMetres(el.distance.value), seconds: el.duration.value, estimated: false };
    },
  };
}
