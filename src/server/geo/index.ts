import { estimateDistance, withEstimateFallback, type DistanceService } from './distance';
import { googleDistance } from './google';
import { osrmDistance } from './osrm';

/** The distance service, chosen once at start-up from configuration. */
export function distanceFromConfig(cfg: { googleMapsServerKey?: string; googleMapsBaseUrl?: string; osrmUrl?: string }): DistanceService {
  if (cfg.googleMapsServerKey) return withEstimateFallback(googleDistance(cfg.googleMapsServerKey, cfg.googleMapsBaseUrl));
  if (cfg.osrmUrl) return withEstimateFallback(osrmDistance(cfg.osrmUrl));
  return estimateDistance;
}
