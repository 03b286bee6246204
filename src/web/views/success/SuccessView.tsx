// SPEC 2 'Confirmation (/paymentSuccessView)'.
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { BookingActor, useSettings } from '../../bookingActor';
import { formatBookingAmount } from '../../../domain/settings';
import { confirmationPaymentLabel } from '../../../domain/bookingLabels';
import { bookingSummary } from '../../../domain/bookingSummary';
import { bookingCalendar, calendarFileName } from '../../../domain/calendar';
import { telHref } from '../../components/SiteBar';
import { pathWith } from '../../../domain/screens';
import { rememberManageKey } from '../../manageKeys';
import '../../screens.css';

export function SuccessView() {
  const result = BookingActor.useSelector((s) => s.context.booking);
  const settings = useSettings();
  if (!result) return null;
  const { booking } = result;
  const amount = formatBookingAmount(booking.total_booking_amount, settings);
  const phone = settings.Company_Contact_Info?.trim();
  const calendar = bookingCalendar(result, {
    company: settings.Company_Name || booking.company_name, phone, amount, paymentLabel: confirmationPaymentLabel(booking.payment_method),
  });
  const summary = bookingSummary(result, { reader: 'confirmation', settings, amount: (pounds) => formatBookingAmount(pounds, settings) });
  const rows = [...summary.journey, ...summary.vehicle, ...summary.extras, ...summary.included, ...summary.stops];

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
          {booking.booking_number && (
            <Link className="btn btn-primary" href={pathWith('manageBooking', { reference: booking.booking_number })}
              onClick={() => { if (result.manage_key) rememberManageKey(booking.booking_number, result.manage_key); }}>
              Manage your booking
            </Link>
          )}{' '}
          <a className="btn btn-secondary" href={`data:text/calendar;charset=utf-8,${encodeURIComponent(calendar)}`} download={calendarFileName(result)}>
            Add to calendar<span className="sr-only"> (.ics file)</span>
          </a>
        </p>
      </div>
      <section className="panel" aria-labelledby="booking-title">
        <h2 id="booking-title" className="panel-title">Booking details</h2>
        <table className="details-table">
          <tbody>{rows.map((r) => <tr key={r.label}><th scope="row">{r.label}</th><td>{r.strong ? <strong>{r.value}</strong> : r.value}</td></tr>)}</tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="passenger-title">
        <h2 id="passenger-title" className="panel-title">Passenger details</h2>
        <table className="details-table">
          <tbody>{summary.passenger.map((r) => <tr key={r.label}><th scope="row">{r.label}</th><td>{r.value}</td></tr>)}</tbody>
        </table>
      </section>
      <p className="center"><RouteLink to="home" className="btn btn-secondary">Book another journey</RouteLink></p>
    </div>
  );
}
