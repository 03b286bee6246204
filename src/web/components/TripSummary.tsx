// SPEC 2 'Booking summary panel': from and to, dates and times, options, the
// return leg behind a toggle, distance and duration each way, and the route area.
import { useState } from 'react';
import { BookingActor } from '../bookingActor';
import { formatDateLong, hour12To24 } from '../../domain/ukTime';
import type { BookingForm } from '../../domain/schemas';
import { EXTRAS, extraPhrase, legExtras } from '../../domain/extras';
import { formatMiles, wholeKm } from '../../domain/miles';
import { RouteMap } from './RouteMap';
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} hr ${m} min` : `${m} min`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
const clock = (hour: string, min: string) => (hour ? `${String(hour12To24(hour)).padStart(2, '0')}:${min}` : '');
const distance = (miles?: number, seconds?: number, estimated?: boolean) =>
  miles === undefined ? null
    : `${formatMiles(miles)} (${wholeKm(miles)} km)${seconds ? `, about ${formatDuration(seconds)}` : ''}${estimated ? ' (estimate)' : ''}`;

function options(f: BookingForm, p: '' | 'return_'): string {
  const parts = [
    plural(f[`${p}passengers`], 'passenger'), plural(f[`${p}luggages`], 'suitcase'), plural(f[`${p}hand_luggages`], 'hand luggage item'),
  ];
  const extras = legExtras(f, p ? 'return' : 'outbound');
  for (const e of EXTRAS) {
    const phrase = extraPhrase(e, extras[e.key]);
    if (phrase) parts.push(phrase);
  }
  return parts.join(', ');
}

export function TripSummary() {
  const type = BookingActor.useSelector((s) => s.context.bookingType);
  const form = BookingActor.useSelector((s) => s.context.bookingForm);
  const hourly = BookingActor.useSelector((s) => s.context.hourlyForm);
  const trip = BookingActor.useSelector((s) => s.context.trip);
  const [showReturn, setShowReturn] = useState(false);

  if (type === 'hourly' && hourly) {
    return (
      <aside className="summary" aria-labelledby="summary-title">
        <h2 id="summary-title">Your hire</h2>
        <dl className="summary-list">
          <div><dt>Pickup</dt><dd>{hourly.pickup}</dd></div>
          <div><dt>When</dt><dd>{formatDateLong(hourly.pickup_date)} at {clock(hourly.pickup_hour, hourly.pickup_min)}</dd></div>
          <div><dt>Duration</dt><dd>{parseInt(hourly.pickup_duration, 10)} hours</dd></div>
        </dl>
      </aside>
    );
  }
  if (!form) return null;
  const isReturn = form.select_option === 'return';
  return (
    <aside className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Your journey</h2>
      <RouteMap from={form.pickup} to={form.dropoff} miles={trip?.via_miles}
        stops={form.stops.map((s) => [s.number, s.street_name, s.postcode].filter(Boolean).join(' '))} />
      <dl className="summary-list">
        <div><dt>From</dt><dd>{form.pickup}</dd></div>
        {form.stops.map((s, i) => <div key={i}><dt>Stop {i + 1}</dt><dd>{[s.number, s.street_name, s.postcode].filter(Boolean).join(' ')}</dd></div>)}
        <div><dt>To</dt><dd>{form.dropoff}</dd></div>
        <div><dt>Pickup</dt><dd>{formatDateLong(form.pickup_date)} at {clock(form.pickup_hour, form.pickup_min)}{form.pickup_fight_number ? ` · ${form.pickup_fight_number}` : ''}</dd></div>
        <div><dt>Options</dt><dd>{options(form, '')}</dd></div>
        {distance(trip?.via_miles, trip?.time_duration, trip?.estimated) && <div><dt>Distance</dt><dd>{distance(trip?.via_miles, trip?.time_duration, trip?.estimated)}</dd></div>}
      </dl>
      {isReturn && (
        <>
          <button type="button" className="link-button" aria-expanded={showReturn} onClick={() => setShowReturn(!showReturn)}>
            {showReturn ? 'Hide Return Details' : 'See Return Details'}
          </button>
          {showReturn && (
            <dl className="summary-list">
              <div><dt>Return</dt><dd>{form.dropoff} to {form.pickup}</dd></div>
              <div><dt>Return pickup</dt><dd>{formatDateLong(form.return_date)} at {clock(form.return_hour, form.return_min)}{form.return_fight_number ? ` · ${form.return_fight_number}` : ''}</dd></div>
              <div><dt>Return options</dt><dd>{options(form, 'return_')}</dd></div>
              {distance(trip?.return_via_miles, trip?.return_time_duration, trip?.estimated) && <div><dt>Return distance</dt><dd>{distance(trip?.return_via_miles, trip?.return_time_duration, trip?.estimated)}</dd></div>}
            </dl>
          )}
        </>
      )}
    </aside>
  );
}
