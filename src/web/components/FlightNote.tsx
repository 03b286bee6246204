// An airport pickup's flight as every page shows it (issue 42): the board, the driver's job, the passenger's page and
// the console's booking. The pickup as it stands now with the booked time beside it, the flight's status, and since
// when the flight status service has not answered. The words come from the server (src/domain/flights.ts).
import type { BookingFlight } from '../../domain/flights';
import { ukClock } from '../../domain/flights';
import './flight.css';

/** "08:10": the pickup as it stands, for the places that show a time. */
export const pickupClock = (flight: BookingFlight) => ukClock(flight.pickup_at);

const TONE: Record<string, string> = { delayed: 'warn', diverted: 'alert', cancelled: 'alert', landed: 'ok', scheduled: 'ok' };

export function FlightNote({ flight, compact = false }: { flight: BookingFlight; compact?: boolean }) {
  const tone = flight.status ? TONE[flight.status] : 'none';
  return (
    <div className={`flight-note${compact ? ' flight-note-compact' : ''}`}>
      {flight.moved_words && (
        <p className="flight-moved"><strong>{flight.moved_words}</strong></p>
      )}
      {flight.words && (
        <p className={`flight-words flight-${tone}`}>
          <span className="flight-label">Flight</span> {flight.words}{flight.terminal && !compact ? `, terminal ${flight.terminal}` : ''}
        </p>
      )}
      {flight.unavailable && <p className="flight-unavailable" role="status">{flight.unavailable}</p>}
      {flight.not_found && <p className="flight-words flight-alert">{flight.not_found}</p>}
    </div>
  );
}
