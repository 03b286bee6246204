// SPEC 2 'Bookings (corporate)': the Details window of one booking: number,
// addresses, date, time, return date, vehicle, payment, amount, ride type,
// flight numbers, luggages, total vehicles, the passenger, the additional
// details and the stops; 'No booking details available.' without a booking.
import type { ReactNode } from 'react';
import type { CorporateBooking } from '../../../domain/schemas';
import { Dialog } from '../../components/Dialog';
import { useAmountFormat } from './format';
import { bookingTypeLabel, paymentMethodLabel } from '../../../domain/bookingLabels';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { formatPhone } from '../../../domain/phone';

const yesNo = (v: string | number) => (typeof v === 'number' ? (v > 0 ? 'Yes' : 'No') : v.trim().toLowerCase() === 'yes' ? 'Yes' : 'No');
const countedYesNo = (n: number) => (n > 0 ? `Yes (${n})` : 'No');
const orDash = (v: string | null | undefined) => (v && v.trim() ? v : '—');

function Rows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="detail-grid">
      {rows.map(([k, v]) => (
        <div key={k} className="detail-item">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function BookingDetailsDialog({ booking, onClose }: { booking: CorporateBooking | null; onClose: () => void }) {
  const amount = useAmountFormat();
  if (!booking) {
    return (
      <Dialog title="Booking details" tone="info" closeLabel="Close" onClose={onClose}>
        <p>No booking details available.</p>
      </Dialog>
    );
  }
  const d = booking.booking_details;
  const p = booking.passenger_detail;
  const isQuote = booking.ride_type === 'Q';
  const hours = parseInt(booking.hourly_duration ?? '', 10);

  const journey: [string, ReactNode][] = [
    ['Booking Number', <strong>{booking.booking_number}</strong>],
    ['Booking Type', bookingTypeLabel(booking.ride_type)],
    ['Pickup', booking.pick_up_address],
    ['Destination', isQuote ? orDash(booking.drop_off_address) : (booking.drop_off_address || 'As directed')],
    ['Pickup Date', formatDateUK(booking.pick_up_date)],
    ['Pickup Time', formatTime12(booking.pick_up_time)],
    ['Return Date', booking.return_date ? formatDateUK(booking.return_date) : '—'],
    ...(booking.return_date ? [['Return Time', formatTime12(booking.return_time)] as [string, ReactNode]] : []),
    ...(!isQuote && Number.isFinite(hours) ? [['Duration', `${hours} hours`] as [string, ReactNode]] : []),
    ['Flight Number', orDash(booking.flight_no)],
    ['Return Flight Number', orDash(booking.return_flight_no)],
  ];
  const vehicle: [string, ReactNode][] = [
    ['Vehicle', booking.fleet_category.category_name],
    ['Operator', booking.company_name],
    ['Payment Method', paymentMethodLabel(booking.payment_method)],
    ['Booking Amount', <strong>{amount(booking.total_booking_amount)}</strong>],
    ['Luggages', String(d.luggages)],
    ['Hand Luggages', String(d.hand_luggages)],
    ['Total Vehicles', String(d.vehicle_qty)],
  ];
  const passenger: [string, ReactNode][] = [
    ['Name', orDash(p.passenger_name)],
    ['Email', orDash(p.passenger_email)],
    ['Phone', orDash(formatPhone(p.passenger_contact_no))],
    ['Total Passengers', String(p.total_passengers)],
    ['Additional Information', orDash(p.additional_info)],
  ];
  const extras: [string, ReactNode][] = [
    ['Meet and Greet', yesNo(d.meet_and_greet)],
    ['Baby Seat', countedYesNo(d.baby_seat)],
    ['Booster Seat', countedYesNo(d.booster_seat)],
    ['Wheelchair', yesNo(d.wheel_chair)],
    ['Special Luggages', countedYesNo(d.special_luggages)],
    ['Waiting Minutes', String(d.waiting_minutes)],
  ];

  return (
    <Dialog title={`Booking ${booking.booking_number}`} tone="info" closeLabel="Close" onClose={onClose}>
      <div className="booking-details" role="region" aria-label={`Details of booking ${booking.booking_number}`} tabIndex={0}>
        <section>
          <h3>Journey</h3>
          <Rows rows={journey} />
        </section>
        <section>
          <h3>Vehicle and payment</h3>
          <Rows rows={vehicle} />
        </section>
        <section>
          <h3>Passenger</h3>
          <Rows rows={passenger} />
        </section>
        <section>
          <h3>Additional details</h3>
          <Rows rows={extras} />
        </section>
        <section>
          <h3>Stops</h3>
          {booking.booking_stops.length === 0 ? (
            <p className="muted">No stops on this journey.</p>
          ) : (
            <ol className="detail-stops">
              {booking.booking_stops.map((s) => (
                <li key={s.id}>
                  <span className="detail-stop-address">{s.stop_address}</span>
                  <span className="detail-stop-meta">
                    <span>Post code: {orDash(s.stop_post_code)}</span>
                    <span>Street number: {orDash(s.stop_street_number)}</span>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </Dialog>
  );
}
