// A self-hosted OSRM server (http://project-osrm.org/docs/v5.24.0/api/#route-service).
import type { DistanceService } from './distance';
import { UnroutableError } from './distance';
import { milesFromMetres } from '../../domain/miles';

interface RouteResponse { code: string; message?: string; routes?: { distance: number; duration: number }[] }

export function osrmDistance(baseUrl: string, timeoutMs = 5000): DistanceService {
  return {
    name: 'osrm',
    needsCoordinates: true,
    async leg(from, to) {
      if (typeof from.lat !== 'number' || typeof to.lat !== 'number') throw new UnroutableError('route', 'OSRM needs coordinates');
      const coords = `${from.lon},${from.lat};${to.lon},${to.lat}`;
      const url = new URL(`route/v1/driving/${coords}?overview=false`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      const body = (await res.json().catch(() => ({ code: `HTTP ${res.status}` }))) as RouteResponse;
      if (body.code === 'NoRoute') throw new UnroutableError('route', 'There is no road route between these places');
      if (body.code !== 'Ok' || !body.routes?.length) throw new Error(`OSRM ${body.code}${body.message ? `: ${body.message}` : ''}`);
      const r = body.routes[0];
      return { miles: milesFromMetres(r.distance), seconds: Math.round(r.duration), estimated: false };
    },
  };
}
