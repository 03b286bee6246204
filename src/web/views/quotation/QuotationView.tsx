import { useState } from 'react';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { BookingActor, useSettings } from '../../bookingActor';
import { freeWaitingRule } from '../../../domain/freeWaiting';
import { StepNotice } from '../../components/StepNotice';
import { StepIndicator } from '../../components/StepIndicator';
import { PrevNext } from '../../components/PrevNext';
import { TripSummary } from '../../components/TripSummary';
import { currencyOf, isEnabled } from '../../../domain/settings';
import { finalPricePence, formatAmount, formatExactPrice, penceToPounds, poundsToPence } from '../../../domain/money';
import { lowestPrice } from '../../../domain/priceFiltering';
import { useAfterFirstPaint } from '../../hooks';
import { range } from '../../../domain/forms';
import type { PriceDetail } from '../../../domain/schemas';
import { StepHead } from '../../components/StepHead';
type Layout = 'list' | 'grid';

function Breakdown({ vehicle, currency }: { vehicle: PriceDetail; currency: string }) {
  return (
    <div className="vehicle-details">
      <table className="details-table">
        <caption className="sr-only">Price breakdown</caption>
        <tbody>
          {vehicle.breakdown.lines.map((l, i) => (
            <tr key={i}><th scope="row">{l.label}</th><td>{formatExactPrice(l.amount, currency)}</td></tr>
          ))}
          <tr><th scope="row">Price per vehicle</th><td><strong>{formatExactPrice(vehicle.price, currency)}</strong></td></tr>
        </tbody>
      </table>
      <p className="muted small">{vehicle.company_name} · up to {vehicle.max_seat} passengers, {vehicle.luggage} large and {vehicle.small_luggage} medium suitcases. Fixed price, tolls and parking included.</p>
    </div>
  );
}

function VehicleCard({ vehicle, currency, lowest = false, first = false }: { vehicle: PriceDetail; currency: string; lowest?: boolean; first?: boolean }) {
  const actor = BookingActor.useActorRef();
  const [quantity, setQuantity] = useState(1);
  const [open, setOpen] = useState(false);
  const painted = useAfterFirstPaint();
  const priced = poundsToPence(vehicle.price) > 0;
  const id = `${lowest ? 'lowest-' : ''}${vehicle.vehicle_id}-${vehicle.company_id}`;
  const total = formatAmount(penceToPounds(finalPricePence(vehicle.price, lowest ? 1 : quantity)), currency);
  return (
    <li className={`vehicle-card${lowest ? ' lowest' : ''}`}>
      <article aria-label={lowest ? 'Lowest Price' : `${vehicle.vehicle_type} by ${vehicle.company_name}`}>
        {lowest && <p className="badge">Lowest Price</p>}
        {/* The first card's picture is the page's largest paint: fetched at once. The others wait until it is on screen,
            then load when scrolled to, so they never compete with it (decisions 30 and 33). */}
        {first || painted
          ? <img className="vehicle-img" src={vehicle.vehicle_image} alt={`${vehicle.vehicle_type} vehicle`} width={180} height={96}
            loading={first ? 'eager' : 'lazy'} fetchPriority={first ? 'high' : 'auto'} />
          : <span className="vehicle-img pending" aria-hidden="true" />}
        <div className="vehicle-info">
          <p className="vehicle-company">{vehicle.company_name}</p>
          <h3 className="vehicle-type">{vehicle.vehicle_type}</h3>
          <ul className="vehicle-capacity">
            <li>Up to {vehicle.max_seat} passengers</li>
            <li>{vehicle.luggage} large suitcases</li>
            <li>{vehicle.small_luggage} medium suitcases</li>
          </ul>
          <button type="button" className="link-button" aria-expanded={open} aria-controls={`details-${id}`} onClick={() => setOpen(!open)}>
            See Details
          </button>
        </div>
        <div className="vehicle-buy">
          <p className="vehicle-price">{priced ? total : 'Price on request'}</p>
          {!lowest && priced && (
            <>
              <label className="sr-only" htmlFor={`qty-${id}`}>Number of vehicles</label>
              <select id={`qty-${id}`} value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
                {range(1, 6).map((n) => <option key={n} value={n}>{n} x Vehicle Selected</option>)}
              </select>
            </>
          )}
          {priced ? (
            <button type="button" className="btn btn-primary"
              onClick={() => actor.send({ type: 'quotation.select', vehicle, quantity: lowest ? 1 : quantity, selectionType: lowest ? 'lowest' : 'selection' })}>
              Book Now
            </button>
          ) : (
            <RouteLink to="quote" className="btn btn-orange">Contact Us</RouteLink>
          )}
        </div>
        {open && <div id={`details-${id}`} className="vehicle-more"><Breakdown vehicle={vehicle} currency={currency} /></div>}
      </article>
    </li>
  );
}

export function QuotationView() {
  const prices = BookingActor.useSelector((s) => s.context.priceDetails) ?? [];
  const settings = useSettings();
  const currency = currencyOf(settings);
  const [layout, setLayout] = useState<Layout>('list');
  const lowest = isEnabled(settings, 'MULTIPLE_OPERATORS') ? lowestPrice(prices) : undefined;
  return (
    <div className="page">
      <StepIndicator />
      <StepHead back="home" title="Top results">
        <div className="layout-toggle" role="group" aria-label="Layout">
          <button type="button" aria-pressed={layout === 'list'} onClick={() => setLayout('list')}>List</button>
          <button type="button" aria-pressed={layout === 'grid'} onClick={() => setLayout('grid')}>Grid</button>
        </div>
      </StepHead>
      <StepNotice />
      <div className="two-col results">
        <TripSummary />
        <section aria-label="Vehicles">
          {prices.length === 0 ? (
            <p className="notice">No vehicle can take this trip as requested. Please change the passengers or luggage, or call us.</p>
          ) : (
            <ul className={`vehicle-list ${layout}`}>
              {lowest && <VehicleCard vehicle={lowest} currency={currency} lowest first />}
              {prices.map((p, i) => <VehicleCard key={`${p.vehicle_id}-${p.company_id}`} vehicle={p} currency={currency} first={!lowest && i === 0} />)}
            </ul>
          )}
          {prices.length > 0 && <p className="muted small free-waiting">{freeWaitingRule(settings)}</p>}
          <PrevNext />
        </section>
      </div>
    </div>
  );
}
