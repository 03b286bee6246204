// A booking's page in the console (issue 26): every detail (the one summary, src/domain/bookingSummary.ts), the
// price lines, the payment, the driver and a timeline; the actions the booking still allows, each confirmed in a
// window first (./ActionDialogs.tsx).
import { useEffect, useState, type MouseEvent } from 'react';
import { FlightNote } from '../../components/FlightNote';
import { bookingSummary, type SummaryRow } from '../../../domain/bookingSummary';
import { formatExactPrice, poundsToPence } from '../../../domain/money';
import { formatPhone } from '../../../domain/phone';
import { useSettings } from '../../appActor';
import { useLocation } from 'wouter';
import { BOOKED_VIA_LABELS, type BookingRecord } from '../../../domain/bookingRecords';
import { useOperator, useOperatorRef } from './operatorActor';
import { ActionDialog } from './ActionDialogs';
import { PAYMENT_STATUS, pounds } from './format';
import { mayRefund, refundDue, type BookingAction } from '../../../domain/operatorDesk';
import { pathOfScreen } from '../../../domain/screens';

const ACTION_LABELS: Record<BookingAction, string> = {
  assignDriver: 'Assign driver', complete: 'Mark completed', noShow: 'Mark no-show', cancel: 'Cancel booking', refund: 'Refund',
  adjustCharge: 'Change charge',
};
const PAYMENT_METHODS: Record<string, string> = { card: 'Card', car: 'In the car', account: 'On account' };

export function BookingView() {
  const actor = useOperatorRef();
  const settings = useSettings();
  const reference = useOperator((s) => s.context.reference);
  const page = useOperator((s) => s.context.page);
  const notFound = useOperator((s) => s.matches({ signedIn: { booking: 'notFound' } }));
  const failed = useOperator((s) => s.matches({ signedIn: { booking: 'failed' } }));
  const acting = useOperator((s) => s.context.action);
  // Loaded again because it changed (or the live stream opened): a press meanwhile is sent once it is loaded, never lost
  // (the buttons stay enabled, so focus can always come back to them).
  const reloading = useOperator((s) => s.matches({ signedIn: { booking: 'loading' } }));
  const [pressed, setPressed] = useState<BookingAction | 'retryRefund' | null>(null);
  useEffect(() => {
    if (reloading || !pressed) return;
    setPressed(null);
    actor.send({ type: 'action.start', action: pressed });
  }, [reloading, pressed, actor]);
  const press = (action: BookingAction | 'retryRefund') => (reloading ? setPressed(action) : actor.send({ type: 'action.start', action }));
  const notice = useOperator((s) => s.context.notice);
  const office = useOperator((s) => mayRefund(s.context.staff?.role ?? ''));
  const error = useOperator((s) => (s.matches({ signedIn: { booking: 'confirming' } }) ? null : s.context.error?.message ?? null));
  const [, navigate] = useLocation();

  /** A link within the console, followed by the console (a new tab or window where the person asks for one). */
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    const { pathname, search } = new URL(e.currentTarget.href);
    navigate(pathname + search);
  };
  const back = (
    <p className="op-back">
      <a href={pathOfScreen('operatorBoard')} onClick={follow}>← All bookings</a>
    </p>
  );
  if (notFound) {
    return <section className="op-page">{back}<h1 tabIndex={-1}>No booking {reference}</h1><p>There is no booking with this reference that you can see.</p></section>;
  }
  if (failed) {
    return (
      <section className="op-page">{back}<h1 tabIndex={-1}>Booking {reference}</h1>
        <p className="banner-error" role="alert">{error} <button type="button" className="btn-link" onClick={() => actor.send({ type: 'retry' })}>Try again</button></p>
      </section>
    );
  }
  if (!page) return <section className="op-page" aria-busy="true">{back}<h1 tabIndex={-1}>Booking {reference}</h1><p>Loading the booking...</p></section>;

  const { desk } = page;
  const summary = bookingSummary(page.booking, { reader: 'email', settings, amount: (p) => formatExactPrice(p) });
  const canRetryRefund = desk.refund !== null && desk.refund.status !== 'succeeded';
  // Card money a cancellation left (decision 50): said beside the actions, where the office's Refund is.
  const left = desk.payment.refundable;
  const due = left !== null && refundDue({ status: desk.status, leftPence: poundsToPence(left) }) ? left : null;
  const label = (a: BookingAction) => (a === 'assignDriver' && desk.driver ? 'Change driver' : a === 'refund' && left ? `Refund ${pounds(left)}` : ACTION_LABELS[a]);
  return (
    <section className="op-page" aria-labelledby="booking-title">
      {back}
      <div className="op-page-head">
        <h1 id="booking-title" tabIndex={-1}>Booking {page.booking.booking.booking_number}</h1>
        <span className={`op-status op-status-${desk.status}`}>{desk.status_label}</span>
      </div>
      <div aria-live="polite">
        {notice && <p className="banner-ok">{notice}</p>}
      </div>
      {error && <p className="banner-error" role="alert">{error}</p>}
      {desk.flight && <FlightNote flight={desk.flight} />}
      {due !== null && (
        <p className="op-warning">
          <strong>Refund due:</strong> {pounds(due)} was not refunded when the booking was cancelled.{!office && ' The office refunds it.'}
        </p>
      )}
      {(desk.actions.length > 0 || canRetryRefund) && (
        <div className="op-actions" role="group" aria-label="Actions">
          {desk.actions.map((a) => (
            <button key={a} type="button" className={a === 'cancel' ? 'btn op-danger' : a === 'refund' ? 'btn btn-primary' : 'btn btn-secondary'}
              onClick={() => press(a)}>
              {label(a)}
            </button>
          ))}
          {canRetryRefund && <button type="button" className="btn btn-secondary" onClick={() => press('retryRefund')}>Retry refund</button>}
        </div>
      )}
      <div className="op-grid">
        <Rows title="Journey" rows={[...summary.journey, ...summary.stops]} />
        <Rows title="Passenger" rows={summary.passenger} />
        <Rows title="Vehicle and payment" rows={summary.vehicle} />
        <Rows title="Extras" rows={summary.extras} />
        {summary.included.length > 0 && <Rows title="Included" rows={summary.included} />}
        <section className="op-card" aria-labelledby="price-title">
          <h2 id="price-title">Price</h2>
          <table className="op-lines">
            <tbody>
              {desk.breakdown.map((l, i) => <tr key={i}><th scope="row">{l.label}</th><td>{formatExactPrice(l.amount)}</td></tr>)}
              <tr className="op-total"><th scope="row">Total</th><td>{pounds(page.booking.booking.total_booking_amount)}</td></tr>
            </tbody>
          </table>
        </section>
        <section className="op-card" aria-labelledby="payment-title">
          <h2 id="payment-title">Payment</h2>
          <dl className="op-dl">
            <dt>Method</dt><dd>{PAYMENT_METHODS[desk.payment.method] ?? desk.payment.method}</dd>
            {desk.account && (
              <><dt>Account</dt><dd><a href={`${pathOfScreen('operatorAccounts')}?id=${desk.account.id}`} onClick={follow}>{desk.account.name}</a></dd></>
            )}
            <dt>Status</dt><dd>{PAYMENT_STATUS[desk.payment.status] ?? desk.payment.status}</dd>
            {desk.payment.charge_id && <><dt>Charge</dt><dd className="op-code">{desk.payment.charge_id}</dd></>}
            {desk.payment.test && <><dt>Test</dt><dd><span className="op-test">Test payment: no real money was taken</span></dd></>}
            {desk.refund && <><dt>Refund</dt><dd>{pounds(desk.refund.amount)}, {desk.refund.status}{desk.refund.id ? ` (${desk.refund.id})` : ''}{desk.refund.error ? `: ${desk.refund.error}` : ''}</dd></>}
            {desk.cancel_reason && <><dt>Cancelled because</dt><dd>{desk.cancel_reason}</dd></>}
            {due !== null && <><dt>Not refunded</dt><dd>{pounds(due)}</dd></>}
          </dl>
        </section>
        <section className="op-card" aria-labelledby="driver-title">
          <h2 id="driver-title">Driver</h2>
          {desk.driver ? (
            <dl className="op-dl">
              <dt>Name</dt><dd>{desk.driver.name}</dd>
              <dt>Mobile</dt><dd>{formatPhone(desk.driver.mobile)}</dd>
              <dt>Vehicle</dt><dd>{desk.driver.colour ? `${desk.driver.colour} ` : ''}{desk.driver.vehicle}</dd>
              <dt>Registration</dt><dd>{desk.driver.registration}</dd>
              {desk.driver.licence_number && <><dt>PHV licence</dt><dd>{desk.driver.licence_number}</dd></>}
              {desk.job && <><dt>Job</dt><dd>{desk.job.label}</dd></>}
            </dl>
          ) : desk.job?.status === 'declined'
            ? <p className="op-due-tag">Declined by {desk.job.declined_by}: assign another driver.</p>
            : <p className="muted">No driver assigned yet.</p>}
        </section>
      </div>
      {page.record && <RecordCard record={page.record} />}
      <section className="op-card op-timeline" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol>
          {page.timeline.map((e, i) => (
            <li key={i}>
              <span className="op-when">{e.at}</span>
              <span>{e.text}{e.by && <> <span className="muted">by {e.by}</span></>}{e.detail && <> <span className="op-detail">{e.detail}</span></>}</span>
            </li>
          ))}
        </ol>
      </section>
      {acting && <ActionDialog action={acting} page={page} />}
    </section>
  );
}

/** What the licensing record keeps of the booking (issue 43 §2): as the Records page and its CSV give it. */
function RecordCard({ record: r }: { record: BookingRecord }) {
  return (
    <section className="op-card" aria-labelledby="record-title">
      <h2 id="record-title">Booking record</h2>
      <dl className="op-dl op-record">
        <dt>Booked</dt><dd>{r.booked_at}, {BOOKED_VIA_LABELS[r.booked_via].toLowerCase()}{r.booked_via === 'phone' && <>, taken by {r.booked_by}</>}</dd>
        <dt>Passenger</dt><dd>{r.passenger || '(removed)'}, {r.passengers} passenger{r.passengers === 1 ? '' : 's'}</dd>
        <dt>Pickup</dt><dd>{r.pickup_date} {r.pickup_time}, {r.pickup_place}</dd>
        <dt>Main destination</dt><dd>{r.destination}</dd>
        <dt>Fare quoted</dt><dd>{r.fare_quoted}{r.fare_charged !== r.fare_quoted && <> (now {r.fare_charged})</>}{r.fare_changes.map((c) => <span key={c} className="rec-note">{c}</span>)}</dd>
        <dt>Driver</dt><dd>{r.driver ? `${r.driver}${r.driver_licence ? `, licence ${r.driver_licence}` : ''}` : 'Not dispatched'}</dd>
        <dt>Vehicle</dt><dd>{r.registration ? `${r.registration}${r.vehicle ? `, ${r.vehicle}` : ''}` : r.vehicle_type}</dd>
        <dt>Dispatched</dt><dd>{r.dispatched_at ? `${r.dispatched_at}${r.dispatched_by ? ` by ${r.dispatched_by}` : ''}` : '-'}</dd>
        <dt>Carried out by</dt><dd>{r.company}</dd>
      </dl>
    </section>
  );
}

function Rows({ title, rows }: { title: string; rows: SummaryRow[] }) {
  const id = `rows-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <section className="op-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="op-dl">
        {rows.map((r, i) => <div key={i} className="op-dl-row"><dt>{r.label}</dt><dd className={r.strong ? 'strong' : undefined}>{r.value}</dd></div>)}
      </dl>
    </section>
  );
}
