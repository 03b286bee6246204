// SPEC 2 'Booking summary panel' (the parts this slice has): from, to, when, who, how far.
import { BookingActor } from '../bookingActor';
import { formatDateLong, hour12To24 } from '../../domain/ukTime';

export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} hr ${m} min` : `${m} min`;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function TripSummary() {
  const form = BookingActor.useSelector((s) => s.context.bookingForm);
  const trip = BookingActor.useSelector((s) => s.context.trip);
  if (!form) return null;
  const time = `${String(hour12To24(form.pickup_hour)).padStart(2, '0')}:${form.pickup_min}`;
  return (
    <aside className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">Your journey</h2>
      <dl className="summary-list">
        <div><dt>From</dt><dd>{form.pickup}</dd></div>
        <div><dt>To</dt><dd>{form.dropoff}</dd></div>
        <div><dt>Pickup</dt><dd>{formatDateLong(form.pickup_date)} at {time}</dd></div>
        <div><dt>Passengers and luggage</dt><dd>{plural(form.passengers, 'passenger')}, {plural(form.luggages, 'suitcase')}, {plural(form.hand_luggages, 'hand luggage item')}</dd></div>
        {trip?.via_miles !== undefined && (
          <div>
            <dt>Distance</dt>
            <dd>{trip.via_miles.toFixed(1)} miles ({Math.round(trip.via_miles * 1.60934)} km){trip.time_duration ? `, about ${formatDuration(trip.time_duration)}` : ''}{trip.estimated ? ' (estimate)' : ''}</dd>
          </div>
        )}
      </dl>
    </aside>
  );
}
