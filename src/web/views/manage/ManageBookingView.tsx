// A passenger's booking through its link (issue 27): its status in words, the driver, every detail, the price
// lines, the payment, what is included, the deadlines in UK time, and what the passenger may still do (the machine
// says: `can`). A wrong or expired link, or none, has a clear page of its own.
import { FlightNote } from '../../components/FlightNote';
import { Link } from 'wouter';
import { useSettings } from '../../appActor';
import { LoadingOverlay } from '../../components/LoadingOverlay';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CardPayment, type CardRef } from '../card/CardPayment';
import { bookingSummary } from '../../../domain/bookingSummary';
import { bookingCalendar, calendarFileName } from '../../../domain/calendar';
import { confirmationPaymentLabel, PAYMENT_STATUS_LABELS } from '../../../domain/bookingLabels';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { currencyOf, type Settings } from '../../../domain/settings';
import { pathOfScreen } from '../../../domain/screens';
import { bookedInsideWindow, noFreeCancelWords } from '../../../domain/manageRules';
import type { ManagePage, PriceQuestion } from '../../../../machines/manage';
import { useManage, useManageRef } from './manageActor';
import { ChangeForm } from './ChangeForm';
import { ReceiptDocuments } from './ReceiptDocuments';
import { DriverPanel } from './DriverPanel';
import { Rows, Section } from './manageParts';
import { Office, Refusal } from './Office';

export function ManageBookingView() {
  const reference = useManage((s) => s.context.reference);
  const page = useManage((s) => s.context.page);
  const waiting = useManage((s) => s.matches({ booking: 'keying' }) || (s.matches({ booking: 'loading' }) && !s.context.page));
  const noKey = useManage((s) => s.matches({ booking: 'noKey' }));
  const failed = useManage((s) => (s.matches({ booking: 'failed' }) ? s.context.error : null));
  if (waiting) return <LoadingOverlay text="Opening your booking" />;
  if (noKey) return <NoLink reference={reference ?? ''} />;
  if (failed) return <Failed reference={reference ?? ''} status={failed.status} message={failed.message} />;
  if (!page) return <LoadingOverlay text="Opening your booking" />;
  return <BookingPage page={page} />;
}

function FindLink() {
  return <Link href={pathOfScreen('manageFind')} className="btn btn-primary">Find my booking</Link>;
}

function NoLink({ reference }: { reference: string }) {
  return (
    <div className="page manage-page narrow">
      <h1>Open your booking {reference}</h1>
      <p className="lead">To see, change or cancel this booking, open it from the &ldquo;Manage your booking&rdquo; link in your confirmation e-mail.</p>
      <p>No e-mail to hand? We can send the link again to the address you booked with.</p>
      <p><FindLink /></p>
    </div>
  );
}

function Failed({ reference, status, message }: { reference: string; status?: number; message: string }) {
  const manage = useManageRef();
  const title = status === 410 ? 'This link has expired' : status === 404 ? 'We could not open this booking' : 'Your booking could not be loaded';
  return (
    <div className="page manage-page narrow">
      <h1>{title}</h1>
      <p className="lead" role="alert">{message}</p>
      {status === 404 || status === 410 ? (
        <p><FindLink /></p>
      ) : (
        <p><button type="button" className="btn btn-primary" onClick={() => manage.send({ type: 'retry' })}>Try again</button></p>
      )}
      {reference && <p className="muted">Booking reference: {reference}</p>}
    </div>
  );
}

/** Money the office still owes the passenger and will refund itself (`refund_due`, pounds), in words. */
const refundDueWords = (pounds: string, currency: string) => `${formatExactPrice(pounds, currency)}: our office will refund it and e-mail you`;

/** A cancellation the passenger was not e-mailed of (over their address's allowance, issue 39): this page is the record. */
export const NOT_EMAILED_WORDS = 'We could not e-mail this cancellation to you when it was made: keep or print this page as your record of it.';

function BookingPage({ page }: { page: ManagePage }) {
  const manage = useManageRef();
  const settings = useSettings();
  const currency = currencyOf(settings);
  const { booking: result, manage: m } = page;
  const b = result.booking;
  const state = useManage((s) => s.value);
  const notice = useManage((s) => s.context.notice);
  const error = useManage((s) => s.context.error);
  const question = useManage((s) => s.context.question);
  const card = useManage((s) => s.children.cardPayment as CardRef | undefined);
  const payment = useManage((s) => s.context.payment);
  const canEdit = useManage((s) => s.can({ type: 'edit.open' }));
  const canCancel = useManage((s) => s.can({ type: 'cancel.open' }));
  const canPay = useManage((s) => s.can({ type: 'payment.start' }));
  const is = (sub: string) => typeof state === 'object' && (state as { booking?: string }).booking === sub;
  const summary = bookingSummary(result, { reader: 'email', settings, amount: (p) => formatExactPrice(p, currency) });
  const calendar = bookingCalendar(result, {
    company: settings.Company_Name || b.company_name, phone: settings.Company_Contact_Info?.trim(),
    amount: formatExactPrice(b.total_booking_amount, currency), paymentLabel: confirmationPaymentLabel(b.payment_method),
  });
  const open = m.status === 'confirmed' || m.status === 'driverAssigned';
  // The invoice and its notes listed have their own downloads (ReceiptDocuments): then the one above is not shown.
  const receiptButton = m.has_receipt && !m.receipt?.documents.length;
  // A booking made inside the free-cancellation window never had it (known once the page has when it was made).
  const neverFree = m.booked_at ? bookedInsideWindow(new Date(m.original_pickup_at), new Date(m.booked_at), settings) : false;
  const refundDue = m.refund_due && Number(m.refund_due) > 0 ? m.refund_due : null;

  return (
    <div className="page manage-page">
      <header className="manage-head">
        <p className="manage-ref">Booking {b.booking_number}</p>
        <h1>{m.status === 'cancelled' ? 'Your booking is cancelled' : `Your ${b.ride_type === 'H' ? 'hourly hire' : 'journey'} on ${m.pickup_words}`}</h1>
        <p className={`manage-status manage-status-${m.status}`}>{m.status_words}</p>
        {m.flight && m.status !== 'cancelled' && <FlightNote flight={m.flight} />}
      </header>
      {notice && <p className="banner-success" role="status">{notice}</p>}
      {error && !is('editing') && <p className="banner-error" role="alert"><Refusal message={error.message} settings={settings} /></p>}

      <DriverPanel manage={m} />
      {m.cancelled && (
        <Section id="cancelled-title" title="Cancellation">
          {/* Issue 39: over the allowance of messages to their address the passenger is not e-mailed; the page says so. */}
          {!m.cancelled.emailed && <p className="banner-info">{NOT_EMAILED_WORDS}</p>}
          <Rows rows={[
            { label: 'Cancelled on', value: m.cancelled.at }, ...(m.cancelled.reason ? [{ label: 'Reason', value: m.cancelled.reason }] : []),
            ...(m.cancelled.emailed ? [{ label: 'E-mail', value: `Sent to ${result.passengerDetails.passenger_email}` }] : []),
            ...(m.refund ? [{ label: 'Refund', value: `${formatExactPrice(m.refund.amount, currency)} to your card (${m.refund.status === 'succeeded' ? 'made' : 'being made'})` }] : []),
            ...(refundDue ? [{ label: m.refund ? 'Still to refund' : 'Refund', value: refundDueWords(refundDue, currency), strong: true }] : []),
          ]} />
        </Section>
      )}

      {m.waiting_change && open && !is('paying') && (
        <div className="panel manage-waiting" role="note">
          <p><strong>A change waits for its payment.</strong> You asked on {m.waiting_change.asked_at} for a change that costs {formatExactPrice(penceToPounds(m.waiting_change.amount_pence), currency)} more. It is saved once that is paid.</p>
          {canPay && <button type="button" className="btn btn-primary" onClick={() => manage.send({ type: 'payment.start' })}>Pay the difference</button>}
        </div>
      )}

      {is('paying') && payment && card && (
        <Section id="pay-title" title={`Pay the difference of ${formatExactPrice(penceToPounds(payment.amountPence), currency)}`}>
          <p className="muted">The new price of your booking is {formatExactPrice(payment.newTotal, currency)}. Your change is saved once this is paid.</p>
          <CardPayment card={card} completing="Saving your change..." />
          <p><button type="button" className="btn btn-secondary" onClick={() => manage.send({ type: 'payment.close' })}>Not now</button></p>
        </Section>
      )}

      {(is('editing') || is('saving') || is('confirmingPrice')) ? (
        <ChangeForm page={page} />
      ) : (open || receiptButton) && (
        <Section id="actions-title" title="Manage your booking">
          {open && (
            <ul className="manage-deadlines">
              <li>{m.may.change
                ? <>You can change the details and the pickup time here until <strong>{m.change_until}</strong> (UK time).</>
                : <>Changes can no longer be made here. To change anything, <Office settings={settings} />.</>}</li>
              <li>{m.may.cancel
                ? <>Cancelling is free until <strong>{m.cancel_until}</strong> (UK time){m.payment.method === 'card' ? ', with a full refund to your card' : ''}.{Date.parse(m.original_pickup_at) < Date.parse(m.pickup_at) && ' This was set by the pickup you booked: moving the pickup later does not move it.'}</>
                : neverFree
                  ? <>{noFreeCancelWords(settings)} To cancel, <Office settings={settings} />.</>
                  : <>The free cancellation period ended on {m.cancel_until}. To cancel, <Office settings={settings} />.</>}</li>
            </ul>
          )}
          <div className="button-row manage-actions">
            {canEdit && <button type="button" className="btn btn-primary" onClick={() => manage.send({ type: 'edit.open' })}>Change details or time</button>}
            {receiptButton && (
              // Focusable while the file is prepared (the machine ignores a second press), so the keyboard keeps its place.
              <button type="button" className="btn btn-secondary" aria-disabled={is('downloading') || undefined} onClick={() => manage.send({ type: 'receipt.download' })}>
                {is('downloading') ? 'Preparing your receipt...' : m.receipt?.invoice ? 'Download VAT invoice (PDF)' : 'Download receipt (PDF)'}
              </button>
            )}
            {open && (
              <a className="btn btn-secondary" href={`data:text/calendar;charset=utf-8,${encodeURIComponent(calendar)}`} download={calendarFileName(result)}>
                Add to calendar<span className="sr-only"> (.ics file)</span>
              </a>
            )}
            {(canCancel || is('confirmingCancel') || is('cancelling')) && (
              <button type="button" className="btn btn-danger" disabled={is('cancelling')} onClick={() => manage.send({ type: 'cancel.open' })}>
                {is('cancelling') ? 'Cancelling...' : 'Cancel booking'}
              </button>
            )}
          </div>
        </Section>
      )}

      <ReceiptDocuments page={page} />

      <div className="manage-details">
        <Section id="journey-title" title="Journey">
          <Rows rows={[...summary.journey, ...summary.stops]} />
        </Section>
        <Section id="price-title" title="Price">
          <Rows rows={[
            ...m.breakdown.map((l) => ({ label: l.label, value: formatExactPrice(l.amount, currency) })),
            { label: 'Total', value: formatExactPrice(b.total_booking_amount, currency), strong: true },
            { label: 'Payment', value: `${confirmationPaymentLabel(b.payment_method)}: ${PAYMENT_STATUS_LABELS[m.payment.status] ?? m.payment.status}` },
            // A cancelled booking says it in its Cancellation panel.
            ...(refundDue && !m.cancelled ? [{ label: 'Refund', value: refundDueWords(refundDue, currency), strong: true }] : []),
          ]} />
          {m.payment.test && <p className="muted">A test payment: no real card was charged.</p>}
        </Section>
        <Section id="included-title" title="Vehicle and what is included">
          <Rows rows={[...summary.vehicle.filter((r) => r.label !== 'Total amount' && r.label !== 'Payment method'), ...summary.included, ...summary.extras]} />
        </Section>
        <Section id="passenger-title" title="Passenger">
          <Rows rows={summary.passenger} />
        </Section>
      </div>

      {is('confirmingCancel') && <CancelDialog page={page} settings={settings} />}
      {is('confirmingPrice') && question && <PriceDialog question={question} currency={currency} />}
    </div>
  );
}

function CancelDialog({ page, settings }: { page: ManagePage; settings: Settings }) {
  const manage = useManageRef();
  const currency = currencyOf(settings);
  const card = page.manage.payment.method === 'card' && page.manage.payment.status !== 'due_in_car';
  return (
    <ConfirmDialog title="Cancel this booking?" onClose={() => manage.send({ type: 'cancel.close' })}>
      <p>Booking {page.booking.booking.booking_number} on {page.manage.pickup_words} will be cancelled. This cannot be undone.</p>
      <p>{card
        ? `Cancelling is free until ${page.manage.cancel_until}: what you paid (${formatExactPrice(page.booking.booking.total_booking_amount, currency)}) is refunded to your card in full.`
        : 'Cancelling is free: nothing is charged.'}</p>
      <div className="dialog-buttons">
        <button type="button" className="btn btn-danger" onClick={() => manage.send({ type: 'cancel.confirm' })}>Yes, cancel my booking</button>
        <button type="button" className="btn btn-secondary" onClick={() => manage.send({ type: 'cancel.close' })}>Keep my booking</button>
      </div>
    </ConfirmDialog>
  );
}

function PriceDialog({ question: q, currency }: { question: PriceQuestion; currency: string }) {
  const manage = useManageRef();
  const money = (p: string) => formatExactPrice(p, currency);
  const words = {
    pay: { text: `You pay the difference of ${money(q.difference)} by card now. Your change is saved once it is paid.`, button: `Continue to pay ${money(q.difference)}` },
    refund: { text: `We refund the difference of ${money(q.difference)} to your card. It usually shows within 5 to 10 working days.`, button: `Save and refund ${money(q.difference)}` },
    confirm: { text: 'You pay the new price to the driver, as before.', button: 'Save with the new price' },
  }[q.outcome];
  return (
    <ConfirmDialog title="The price has changed" onClose={() => manage.send({ type: 'price.decline' })}>
      <p>For the new time, the price of this journey is <strong>{money(q.new_total)}</strong> (it was {money(q.old_total)}).</p>
      <p>{words.text}</p>
      <div className="dialog-buttons">
        <button type="button" className="btn btn-primary" onClick={() => manage.send({ type: 'price.accept' })}>{words.button}</button>
        <button type="button" className="btn btn-secondary" onClick={() => manage.send({ type: 'price.decline' })}>Go back to my change</button>
      </div>
    </ConfirmDialog>
  );
}
