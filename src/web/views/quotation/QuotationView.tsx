import { useState } from 'react';
import { Link } from 'wouter';
import { BookingActor, useSettings } from '../../bookingActor';
import { StepProgress } from '../../components/StepProgress';
import { TripSummary } from '../../components/TripSummary';
import { currencyOf } from '../../../domain/settings';
import { finalPricePence, formatWholePrice, penceToPounds, poundsToPence } from '../../../domain/money';
import { range } from '../../../domain/forms';
import type { PriceDetail } from '../../../domain/schemas';

function VehicleCard({ vehicle, currency }: { vehicle: PriceDetail; currency: string }) {
  const actor = BookingActor.useActorRef();
  const [quantity, setQuantity] = useState(1);
  const priced = poundsToPence(vehicle.price) > 0;
  const id = `${vehicle.vehicle_id}-${vehicle.company_id}`;
  return (
    <li className="vehicle-card">
      <article aria-label={`${vehicle.vehicle_type} by ${vehicle.company_name}`}>
        <img className="vehicle-img" src={vehicle.vehicle_image} alt={`${vehicle.vehicle_type} vehicle`} width={180} height={96} loading="lazy" />
        <div className="vehicle-info">
          <p className="vehicle-company">{vehicle.company_name}</p>
          <h3 className="vehicle-type">{vehicle.vehicle_type}</h3>
          <ul className="vehicle-capacity">
            <li>Up to {vehicle.max_seat} passengers</li>
            <li>{vehicle.luggage} large suitcases</li>
            <li>{vehicle.small_luggage} medium suitcases</li>
          </ul>
        </div>
        <div className="vehicle-buy">
          <p className="vehicle-price" aria-label={`Total price ${formatWholePrice(penceToPounds(finalPricePence(vehicle.price, quantity)), currency)}`}>
            {formatWholePrice(penceToPounds(finalPricePence(vehicle.price, quantity)), currency)}
          </p>
          <label className="sr-only" htmlFor={`qty-${id}`}>Number of vehicles</label>
          <select id={`qty-${id}`} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
            {range(1, 6).map((n) => <option key={n} value={n}>{n} x Vehicle Selected</option>)}
          </select>
          {priced ? (
            <button type="button" className="btn btn-primary"
              onClick={() => actor.send({ type: 'quotation.select', vehicle, quantity })}>
              Book Now
            </button>
          ) : (
            <Link href="/quoteView" className="btn btn-orange">Contact Us</Link>
          )}
        </div>
      </article>
    </li>
  );
}

export function QuotationView() {
  const prices = BookingActor.useSelector((s) => s.context.priceDetails) ?? [];
  const currency = currencyOf(useSettings());
  return (
    <div className="page">
      <StepProgress current={0} />
      <div className="page-head">
        <Link href="/" className="back-link">← Back</Link>
        <h1>Top results</h1>
      </div>
      <div className="two-col">
        <TripSummary />
        <section aria-label="Vehicles">
          {prices.length === 0 ? (
            <p className="notice">No vehicle can take this trip as requested. Please change the passengers or luggage, or call us.</p>
          ) : (
            <ul className="vehicle-list">
              {prices.map((p) => <VehicleCard key={`${p.vehicle_id}-${p.company_id}`} vehicle={p} currency={currency} />)}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
