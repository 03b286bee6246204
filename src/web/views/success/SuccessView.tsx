// SPEC 2 'Confirmation (/paymentSuccessView)'.
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { BookingActor, useSettings } from '../../bookingActor';
import { formatBookingAmount, numberSetting } from '../../../domain/settings';
import { bookingTypeLabel, confirmationPaymentLabel } from '../../../domain/bookingLabels';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import { formatPhone } from '../../../domain/phone';
import { bookingCalendar, calendarFileName } from '../../../domain/calendar';
import { telHref } from '../../components/SiteBar';

const yesNo = (v: string) => (v === 'yes' ? 'Yes' : 'No');

export function SuccessView() {
  const result = BookingActor.useSelector((s) => s.context.booking);
  const settings = useSettings();
  if (!result) return null;
  const { booking, bookingDetail: detail, passengerDetails: passenger, bookingStops: stops } = result;
  const isQuote = booking.ride_type === 'Q';
  const amount = formatBookingAmount(booking.total_booking_amount, settings);
  const phone = settings.Company_Contact_Info?.trim();
  const calendar = bookingCalendar(result, {
    company: settings.Company_Name || booking.company_name, phone, amount, paymentLabel: confirmationPaymentLabel(booking.payment_method),
  });
  const offered = (key: string) => numberSetting(settings, key) > 0;
  const rows: [string, React.ReactNode][] = [
    ['Reference ID', <strong>{booking.booking_number}</strong>],
    ['Booking type', bookingTypeLabel(booking.ride_type)],
    ['Pickup address', booking.pick_up_address],
    ...(isQuote ? [['Drop-off address', booking.drop_off_address] as [string, string]] : []),
    ['Pickup date', formatDateUK(booking.pick_up_date)],
    ['Pickup time', formatTime12(booking.pick_up_time)],
    ...(isQuote && booking.return_date ? [['Return date', formatDateUK(booking.return_date)], ['Return time', formatTime12(booking.return_time)]] as [string, string][] : []),
    ...(!isQuote ? [['Duration', `${parseInt(booking.hourly_duration ?? '', 10)} hours`] as [string, string]] : []),
    ...(booking.flight_no ? [['Flight / train', booking.flight_no] as [string, string]] : []),
    ...(booking.return_flight_no ? [['Return flight / train', booking.return_flight_no] as [string, string]] : []),
    ['Vehicle', `${booking.fleet_category.category_name} (${booking.company_name})`],
    ['Payment method', confirmationPaymentLabel(booking.payment_method)],
    ['Total amount', <strong>{amount}</strong>],
    ...(offered('MEET_AND_GREET') ? [['Meet and greet', yesNo(detail.meet_and_greet)] as [string, string]] : []),
    ...(offered('BABY_PRICE_PER_SEAT') ? [['Baby seats', String(detail.baby_seat)] as [string, string]] : []),
    ...(offered('BOOSTER_PRICE_PER_SEAT') ? [['Booster seats', String(detail.booster_seat)] as [string, string]] : []),
    ...(offered('WHEEL_CHAIR') ? [['Wheelchair', yesNo(detail.wheel_chair)] as [string, string]] : []),
    ['Luggages', String(detail.luggages)],
    ...(offered('SPECIAL_LUGGAGE_PER_PRICE') ? [['Special luggages', String(detail.special_luggages)] as [string, string]] : []),
    ...(offered('PRICE_PER_FIVE_WAITING_MIN') ? [['Waiting minutes', String(detail.waiting_minutes)] as [string, string]] : []),
    ['Total vehicles', String(detail.vehicle_qty)],
    ...stops.map((s, i) => [`Stop ${i + 1}`, [s.stop_street_number, s.stop_address, s.stop_post_code].filter(Boolean).join(' ')] as [string, string]),
  ];

  return (
    <div className="page success">
      <div className="success-head">
        <span className="success-tick" aria-hidden="true">✓</span>
        <h1>Thank You</h1>
        <p className="success-lead">Your Booking is Confirmed!</p>
        <p className="muted">You have received an email for all your booking details</p>
        {/* The site bar is hidden here (SPEC 2), so its number is given where the customer looks next. */}
        {phone && <p className="success-call">Questions or changes? Call <a href={telHref(phone)}>{phone}</a>, day or night.</p>}
        <p className="success-actions">
          <a className="btn btn-primary" href={`data:text/calendar;charset=utf-8,${encodeURIComponent(calendar)}`} download={calendarFileName(result)}>
            Add to calendar<span className="sr-only"> (.ics file)</span>
          </a>
        </p>
      </div>
      <section className="panel" aria-labelledby="booking-title">
        <h2 id="booking-title" className="panel-title">Booking details</h2>
        <table className="details-table">
          <tbody>{rows.map(([k, v]) => <tr key={k}><th scope="row">{k}</th><td>{v}</td></tr>)}</tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="passenger-title">
        <h2 id="passenger-title" className="panel-title">Passenger details</h2>
        <table className="details-table">
          <tbody>
            <tr><th scope="row">Name</th><td>{passenger.passenger_name}</td></tr>
            <tr><th scope="row">Email</th><td>{passenger.passenger_email}</td></tr>
            <tr><th scope="row">Phone</th><td>{formatPhone(passenger.passenger_contact_no)}</td></tr>
            <tr><th scope="row">Total passengers</th><td>{passenger.total_passengers}</td></tr>
            {passenger.additional_info && <tr><th scope="row">Additional info</th><td>{passenger.additional_info}</td></tr>}
          </tbody>
        </table>
      </section>
      <p className="center"><RouteLink to="home" className="btn btn-secondary">Book another journey</RouteLink></p>
    </div>
  );
}
