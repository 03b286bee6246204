// SPEC 2 'route map 200px high': a Google map with the driving route when the
// maps script is loaded (GOOGLE_API_KEY), otherwise a plain drawing of the route.
import { formatMiles } from '../../domain/miles';
import { useCallback, useEffect, useRef, useState } from 'react';
import { mapsReady } from '../maps';
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function RouteDrawing({ from, to, stops, miles }: { from: string; to: string; stops: string[]; miles?: number }) {
  return (
    <figure className="route-area" aria-label="Route">
      <div className="route-line">
        <span className="route-dot start" aria-hidden="true">A</span>
        <span className="route-track" aria-hidden="true">{stops.length > 0 && <span className="route-stops">{plural(stops.length, 'stop')}</span>}</span>
        <span className="route-dot end" aria-hidden="true">B</span>
      </div>
      <figcaption>
        <span>{from.split(',')[0]}</span>
        {miles !== undefined && <strong>{formatMiles(miles, 'mi')}</strong>}
        <span>{to.split(',')[0]}</span>
      </figcaption>
    </figure>
  );
}

function GoogleRoute({ from, to, stops, onFail }: { from: string; to: string; stops: string[]; onFail: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const map = new google.maps.Map(box.current, { center: { lat: 51.5074, lng: -0.1278 }, zoom: 9, disableDefaultUI: true, zoomControl: true });
    new google.maps.DirectionsService().route({
      origin: `${from}, UK`, destination: `${to}, UK`, travelMode: google.maps.TravelMode.DRIVING,
      waypoints: stops.map((s) => ({ location: `${s}, UK`, stopover: true })),
    }, (result, status) => {
      if (status === 'OK' && result) new google.maps.DirectionsRenderer({ map, directions: result });
      else { console.info(`No route drawn (${status})`); onFail(); }
    });
  }, [from, to, stops.join('|'), onFail]);
  return <div ref={box} className="route-area route-map" role="img" aria-label={`Map of the route from ${from} to ${to}`} />;
}

export function RouteMap(props: { from: string; to: string; stops: string[]; miles?: number }) {
  const [failed, setFailed] = useState(false);
  const fail = useCallback(() => setFailed(true), []);
  return mapsReady() && !failed ? <GoogleRoute {...props} onFail={fail} /> : <RouteDrawing {...props} />;
}
