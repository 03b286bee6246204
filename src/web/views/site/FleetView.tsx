// SPEC 2 '/ourfleet': every vehicle type, with its picture, name, passengers and suitcases.
import { useEffect, useState } from 'react';
import type { FleetVehicle } from '../../../domain/schemas';
import { fetchFleet } from '../../bookingApi';
import { RouteLink } from '../../components/RouteLink';

export function FleetView() {
  const [fleet, setFleet] = useState<FleetVehicle[] | null>(null);
  useEffect(() => { fetchFleet().then(setFleet); }, []);
  return (
    <div className="site-page">
      <h1>Our Fleet</h1>
      <p className="lead">Every car is licensed, insured and driven by a licensed chauffeur. Choose by the number of passengers and suitcases; the quote shows which cars fit your journey.</p>
      {fleet === null && <p role="status">Loading the fleet…</p>}
      {fleet?.length === 0 && <p>The fleet cannot be shown just now. Please <RouteLink to="contact">contact us</RouteLink> to ask.</p>}
      {fleet && fleet.length > 0 && (
        <ul className="fleet-page-grid">
          {fleet.map((v) => (
            <li key={v.tbms_vid} className="fleet-page-card">
              <img src={v.vehicle_img} alt="" width={230} height={120} />
              <h2>{v.category_name}</h2>
              <dl>
                <dt>Passengers</dt><dd>{v.seats}</dd>
                <dt>Large suitcases</dt><dd>{v.luggage}</dd>
                <dt>Medium suitcases</dt><dd>{v.hand_luggage}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <p><RouteLink to="home" className="btn btn-primary">Get a quote</RouteLink></p>
    </div>
  );
}
