// SPEC 2 'Bookings (corporate)': the passenger's bookings, newest first as the
// server sends them, each with a Details window.
import { useState } from 'react';
import type { CorporateBooking } from '../../../domain/schemas';
import { AccountActor } from '../../appActor';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { pathWith } from '../../../domain/screens';
import { BookingDetailsDialog } from './BookingDetailsDialog';
import { useAmountFormat } from './format';
import { bookingTypeLabel, paymentMethodLabel } from '../../../domain/bookingLabels';
import { formatDateUK, formatTime12 } from '../../../domain/ukTime';
import '../../screens.css';

const COLUMNS = [
  'Booking Number', 'Pickup', 'Destination', 'Pickup Date', 'Pickup Time', 'Vehicle', 'Payment Method', 'Booking Amount',
  'Booking Type', 'Details',
] as const;

export function BookingsView() {
  const actor = AccountActor.useActorRef();
  const bookings = AccountActor.useSelector((s) => s.context.bookings);
  const failed = AccountActor.useSelector((s) => s.matches({ bookings: 'failed' }));
  const error = AccountActor.useSelector((s) => s.context.error);
  const notice = AccountActor.useSelector((s) => s.context.notice);
  const name = AccountActor.useSelector((s) => s.context.session?.passenger.passenger_name ?? '');
  const loading = AccountActor.useSelector((s) => s.matches({ bookings: 'loading' }) || (!s.matches({ bookings: 'failed' }) && s.context.bookings === null));
  // The booking whose details are open (by id, so a list fetched again cannot show a stale copy).
  const [openId, setOpenId] = useState<number | null>(null);
  const open = openId === null ? undefined : bookings?.find((b) => b.id === openId) ?? null;

  const firstName = name.split(/\s+/)[0] ?? '';
  return (
    <div className="account-page">
      <div className="account-head">
        <div>
          <h1>Bookings</h1>
          <p className="muted account-sub">{firstName ? `Welcome back, ${firstName}. ` : ''}Your journeys, newest first.</p>
        </div>
        <RouteLink to="home" className="btn btn-primary">Book a journey</RouteLink>
      </div>
      {notice && <p className="banner-ok" role="status">{notice}</p>}
      {loading && (
        <div className="account-loading" role="status" aria-live="polite">
          <span className="spinner spinner-small" aria-hidden="true" /> Loading your bookings...
        </div>
      )}
      {failed && (
        <div className="account-failed panel" role="alert">
          <p><strong>We could not load your bookings.</strong> {error}</p>
          <p>
            <button type="button" className="btn btn-secondary" onClick={() => actor.send({ type: 'bookings.retry' })}>Try again</button>
          </p>
        </div>
      )}
      {!loading && !failed && bookings && bookings.length === 0 && (
        <div className="account-empty panel">
          <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
            <circle cx="32" cy="32" r="30" fill="#eef3f9" />
            <path d="M16 38l3-9a4 4 0 014-3h18a4 4 0 014 3l3 9v7H16z" fill="#0f2a47" />
            <circle cx="23" cy="45" r="3" fill="#e0a526" /><circle cx="41" cy="45" r="3" fill="#e0a526" />
          </svg>
          <h2>No bookings yet</h2>
          <p className="muted">When you book a journey for your account it will appear here, with all its details.</p>
          <RouteLink to="home" className="btn btn-primary">Book Now</RouteLink>
        </div>
      )}
      {!loading && !failed && bookings && bookings.length > 0 && (
        <BookingsTable bookings={bookings} onDetails={setOpenId} />
      )}
      {open !== undefined && <BookingDetailsDialog booking={open} onClose={() => setOpenId(null)} />}
    </div>
  );
}

function BookingsTable({ bookings, onDetails }: { bookings: CorporateBooking[]; onDetails: (id: number) => void }) {
  const amount = useAmountFormat();
  return (
    <div className="bookings-scroll" role="region" aria-labelledby="bookings-caption" tabIndex={0}>
      <table className="bookings-table" role="table">
        <caption id="bookings-caption" className="sr-only">Your bookings, newest first</caption>
        <thead role="rowgroup">
          <tr role="row">{COLUMNS.map((c) => <th key={c} scope="col" role="columnheader">{c}</th>)}</tr>
        </thead>
        <tbody role="rowgroup">
          {bookings.map((b) => (
            <tr key={b.id} role="row">
              <th scope="row" role="rowheader" data-label="Booking Number" className="bookings-number">{b.booking_number}</th>
              <td role="cell" data-label="Pickup" className="bookings-address">{b.pick_up_address}</td>
              <td role="cell" data-label="Destination" className="bookings-address">{b.drop_off_address || <span className="muted">As directed</span>}</td>
              <td role="cell" data-label="Pickup Date" className="nowrap">{formatDateUK(b.pick_up_date)}</td>
              <td role="cell" data-label="Pickup Time" className="nowrap">{formatTime12(b.pick_up_time)}</td>
              <td role="cell" data-label="Vehicle">{b.fleet_category.category_name}</td>
              <td role="cell" data-label="Payment Method">{paymentMethodLabel(b.payment_method)}</td>
              <td role="cell" data-label="Booking Amount" className="bookings-amount">{amount(b.total_booking_amount)}</td>
              <td role="cell" data-label="Booking Type">
                <span className={`type-tag ${b.ride_type === 'Q' ? 'type-quote' : 'type-hourly'}`}>{bookingTypeLabel(b.ride_type)}</span>
              </td>
              <td role="cell" className="bookings-action">
                <button type="button" className="btn btn-secondary btn-small" onClick={() => onDetails(b.id)}
                  aria-label={`Details of booking ${b.booking_number}`}>
                  Details
                </button>
                {/* Issue 27: change, cancel or get a receipt on the booking's own page. */}
                <Link href={pathWith('manageBooking', { reference: b.booking_number })} className="btn btn-secondary btn-small"
                  aria-label={`Manage booking ${b.booking_number}`}>
                  Manage
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
