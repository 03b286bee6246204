// SPEC 2 'Bookings (corporate)': the Details window of one booking: number,
// addresses, date, time, return date, vehicle, payment, amount, ride type,
// flight numbers, luggages, total vehicles, the passenger, the additional
// details and the stops; 'No booking details available.' without a booking.
import type { CorporateBooking } from '../../../domain/schemas';
import { Dialog } from '../../components/Dialog';
import { useAmountFormat } from './format';
import { bookingSummary, corporateAsResult, type SummaryRow } from '../../../domain/bookingSummary';
import { useSettings } from '../../appActor';
function Rows({ rows }: { rows: SummaryRow[] }) {
  return (
    <dl className="detail-grid">
      {rows.map((r) => (
        <div key={r.label} className="detail-item">
          <dt>{r.label}</dt>
          <dd>{r.strong ? <strong>{r.value}</strong> : r.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function BookingDetailsDialog({ booking, onClose }: { booking: CorporateBooking | null; onClose: () => void }) {
  const amount = useAmountFormat();
  const settings = useSettings();
  if (!booking) {
    return (
      <Dialog title="Booking details" tone="info" closeLabel="Close" onClose={onClose}>
        <p>No booking details available.</p>
      </Dialog>
    );
  }
  const summary = bookingSummary(corporateAsResult(booking), { reader: 'account', settings, amount });

  return (
    <Dialog title={`Booking ${booking.booking_number}`} tone="info" closeLabel="Close" onClose={onClose}>
      <div className="booking-details" role="region" aria-label={`Details of booking ${booking.booking_number}`} tabIndex={0}>
        <section>
          <h3>Journey</h3>
          <Rows rows={summary.journey} />
        </section>
        <section>
          <h3>Vehicle and payment</h3>
          <Rows rows={summary.vehicle} />
        </section>
        <section>
          <h3>Passenger</h3>
          <Rows rows={summary.passenger} />
        </section>
        <section>
          <h3>Additional details</h3>
          <Rows rows={summary.extras} />
        </section>
        <section>
          <h3>Stops</h3>
          {summary.stops.length === 0 ? <p className="muted">No stops on this journey.</p> : <Rows rows={summary.stops} />}
        </section>
      </div>
    </Dialog>
  );
}
