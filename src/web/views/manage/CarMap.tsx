// The car on a map (issue 41 §3), only where the operator set a tile source (MAP_TILE_URL): Leaflet, in a chunk of its
// own loaded by DriverPanel.tsx on this page alone. The map adds nothing the words beside it do not say (how far, how
// long), so it is hidden from screen readers and holds nothing to tab to: no zoom buttons, no keyboard panning, the
// provider's credit written below it as text. The car moves as its position comes; the pickup stays put.
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { Point } from '../../../domain/tracking';

const CAR_SVG = '<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor"><path d="M5 11l1.5-4.5A2 2 0 018.4 5h7.2a2 2 0 011.9 1.5L19 11a2 2 0 012 2v4a1 1 0 01-1 1h-1a2 2 0 01-4 0H9a2 2 0 01-4 0H4a1 1 0 01-1-1v-4a2 2 0 012-2zm2.1 0h9.8l-1.1-3.4a.5.5 0 00-.5-.3H8.7a.5.5 0 00-.5.3z"/></svg>';
const pin = (className: string, label: string) => L.divIcon({ className: `manage-map-pin ${className}`, html: `<span>${label}</span>`, iconSize: [34, 34], iconAnchor: [17, 17] });

export default function CarMap({ car, pickup, tiles, credit }: { car: Point; pickup: Point | null; tiles: string; credit: string }) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const carMarker = useRef<L.Marker | null>(null);

  useEffect(() => {
    if (!box.current) return undefined;
    const m = L.map(box.current, { zoomControl: false, attributionControl: false, keyboard: false, scrollWheelZoom: false });
    L.tileLayer(tiles, { maxZoom: 18 }).addTo(m);
    if (pickup) L.marker([pickup.lat, pickup.lon], { icon: pin('manage-map-pickup', 'P'), interactive: false, keyboard: false }).addTo(m);
    carMarker.current = L.marker([car.lat, car.lon], { icon: pin('manage-map-car', CAR_SVG), interactive: false, keyboard: false }).addTo(m);
    map.current = m;
    return () => { m.remove(); map.current = null; carMarker.current = null; };
    // The map is made once per tile source and pickup; the car moves in the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tiles, pickup?.lat, pickup?.lon]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    carMarker.current?.setLatLng([car.lat, car.lon]);
    if (pickup) m.fitBounds(L.latLngBounds([[car.lat, car.lon], [pickup.lat, pickup.lon]]), { padding: [40, 40], maxZoom: 16 });
    else m.setView([car.lat, car.lon], 15);
  }, [car.lat, car.lon, pickup?.lat, pickup?.lon]);

  return (
    <figure className="manage-map">
      <div ref={box} className="manage-map-box" aria-hidden="true" data-testid="car-map" />
      {credit && <figcaption className="manage-map-credit">Map: {credit}</figcaption>}
    </figure>
  );
}
