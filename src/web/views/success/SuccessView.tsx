import { Link } from 'wouter';
import { BookingActor, useSettings } from '../../bookingActor';
import { currencyOf, isEnabled } from '../../../domain/settings';
import { formatExactPrice, formatWholePrice } from '../../../domain/money';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';

export function SuccessView() {
  const result = BookingActor.useSelector((s) => s.context.booking);
  const settings = useSettings();
  if (!result) return null;
  const { booking, bookingDetail: detail, passengerDetails: passenger, bookingStops: stops } = result;
  const isQuote = booking.ride_type === 'Q';
  const currency = currencyOf(settings);
  const amount = isEnabled(settings, 'ROUND_OFF')
    ? formatWholePrice(booking.total_booking_amount, currency)
    : formatExactPrice(booking.total_booking_amount, currency);

  return (
    <div className="page success">
      <div className="success-head">
        <span className="success-tick" aria-hidden="true">✓</span>
        <h1>Thank You</h1>
        <p className="success-lead">Your Booking is Confirmed!</p>
        <p className="muted">You have received an email for all your booking details</p>
      </div>
      <section className="panel" aria-labelledby="booking-title">
        <h2 id="booking-title" className="panel-title">Booking details</h2>
        <table className="details-table">
          <tbody>
            <tr><th scope="row">Reference ID</th><td><strong>{booking.booking_number}</strong></td></tr>
            <tr><th scope="row">Booking type</th><td>{isQuote ? 'Quotation' : 'Hourly Booking'}</td></tr>
            <tr><th scope="row">Pickup address</th><td>{booking.pick_up_address}</td></tr>
            {isQuote && <tr><th scope="row">Drop-off address</th><td>{booking.drop_off_address}</td></tr>}
            <tr><th scope="row">Pickup date</th><td>{formatDateUK(booking.pick_up_date)}</td></tr>
            <tr><th scope="row">Pickup time</th><td>{formatTime12(booking.pick_up_time)}</td></tr>
            {isQuote && booking.return_date && <tr><th scope="row">Return date</th><td>{formatDateUK(booking.return_date)}</td></tr>}
            {isQuote && booking.return_time && <tr><th scope="row">Return time</th><td>{formatTime12(booking.return_time)}</td></tr>}
            {!isQuote && <tr><th scope="row">Duration</th><td>{booking.hourly_duration}</td></tr>}
            <tr><th scope="row">Vehicle</th><td>{booking.fleet_category.category_name} ({booking.company_name})</td></tr>
            <tr><th scope="row">Payment method</th><td>{booking.payment_method === 'car' ? 'Pay in Car' : 'Paid by Card'}</td></tr>
            <tr><th scope="row">Total amount</th><td><strong>{amount}</strong></td></tr>
            <tr><th scope="row">Luggages</th><td>{detail.luggages}</td></tr>
            <tr><th scope="row">Total vehicles</th><td>{detail.vehicle_qty}</td></tr>
            {stops.map((s, i) => (
              <tr key={s.id}><th scope="row">Stop {i + 1}</th><td>{[s.stop_street_number, s.stop_address, s.stop_post_code].filter(Boolean).join(' ')}</td></tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="passenger-title">
        <h2 id="passenger-title" className="panel-title">Passenger details</h2>
        <table className="details-table">
          <tbody>
            <tr><th scope="row">Name</th><td>{passenger.passenger_name}</td></tr>
            <tr><th scope="row">Email</th><td>{passenger.passenger_email}</td></tr>
            <tr><th scope="row">Phone</th><td>{passenger.passenger_contact_no}</td></tr>
            <tr><th scope="row">Total passengers</th><td>{passenger.total_passengers}</td></tr>
            {passenger.additional_info && <tr><th scope="row">Additional info</th><td>{passenger.additional_info}</td></tr>}
          </tbody>
        </table>
      </section>
      <p className="center"><Link href="/" className="btn btn-secondary">Book another journey</Link></p>
    </div>
  );
}
