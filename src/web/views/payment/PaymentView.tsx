import { useState } from 'react';
import { Link } from 'wouter';
import { RouteLink } from '../../components/RouteLink';
import { BookingActor, useSettings } from '../../bookingActor';
import { CardLogos } from '../../components/CardLogos';
import { Dialog } from '../../components/Dialog';
import { PrevNext } from '../../components/PrevNext';
import { StepIndicator } from '../../components/StepIndicator';
import { TripSummary } from '../../components/TripSummary';
import { VehicleSummary } from '../../components/VehicleSummary';
import { useIsMobile } from '../../hooks';
import { amountPence } from '../../../../machines/booking';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { formatPhone } from '../../../domain/phone';
import '../../screens.css';
import { StepHead } from '../../components/StepHead';
import { PayOnAccount } from './PayOnAccount';

export function PersonalDetails() {
  const reg = BookingActor.useSelector((s) => s.context.registration);
  const mode = BookingActor.useSelector((s) => s.context.registrationMode);
  // A signed-in passenger books for their corporate account, not as a guest (decision 18).
  const signedIn = BookingActor.useSelector((s) => s.context.session !== null);
  if (!reg) return null;
  const rows: [string, string][] = [
    ['Booking as', signedIn ? 'Your corporate account' : mode === 'guest_login' ? 'Guest' : mode === 'new_client' ? 'New client' : 'Existing client'],
    ...(reg.firstName || reg.surname ? [['Name', `${reg.firstName} ${reg.surname}`.trim()] as [string, string]] : []),
    ['Email', reg.email],
    ...(reg.number ? [['Phone', formatPhone(reg.number)] as [string, string]] : []),
    ...(reg.passengerDetails === 'yes' ? [['Passenger', [`${reg.passengerName ?? ''} ${reg.passengerLastname ?? ''}`.trim(), reg.passengerEmail, formatPhone(reg.passengerPhone)].filter(Boolean).join(', ')] as [string, string]] : []),
    ...(reg.additionalInfo ? [['Additional information', reg.additionalInfo] as [string, string]] : []),
  ];
  return (
    <section className="panel" aria-labelledby="who-title">
      <h2 id="who-title" className="panel-title">Personal details</h2>
      <table className="details-table">
        <tbody>{rows.map(([k, v]) => <tr key={k}><th scope="row">{k}</th><td>{v}</td></tr>)}</tbody>
      </table>
      <RouteLink to="details" className="link-button">Change details</RouteLink>
    </section>
  );
}

export function PaymentView() {
  const actor = BookingActor.useActorRef();
  const settings = useSettings();
  const booking = BookingActor.useSelector((s) => s.matches({ payment: 'booking' }));
  const failed = BookingActor.useSelector((s) => s.matches({ payment: 'failed' }));
  const error = BookingActor.useSelector((s) => s.context.error);
  const notice = BookingActor.useSelector((s) => s.context.notice);
  const mobile = useIsMobile();
  const [showDetails, setShowDetails] = useState(false);
  // SHOWPAYINCAR is the machine's guard: the button shows when the machine would take it.
  const payInCar = BookingActor.useSelector((s) => !s.matches({ payment: 'choosing' }) || s.can({ type: 'payment.payInCar' }));
  // SHOWCARD, likewise.
  const payByCard = BookingActor.useSelector((s) => s.matches({ payment: 'choosing' }) && s.can({ type: 'payment.payByCard' }));
  const total = BookingActor.useSelector((s) => formatExactPrice(penceToPounds(amountPence(s.context))));
  // Issue 44: which way the booking on its way is paid (the car's button spins only for its own).
  const method = BookingActor.useSelector((s) => s.context.paymentMethod);
  const onAccount = BookingActor.useSelector((s) => s.context.billing?.status === 'active');

  return (
    <div className="page">
      <StepIndicator />
      <StepHead back="details" title="Payment" />
      {notice && <p className="banner-ok" role="status">{notice}</p>}
      <div className="two-col">
        <div className="stack">
          <VehicleSummary exact />
          {mobile && (
            <button type="button" className="btn btn-secondary" aria-expanded={showDetails} onClick={() => setShowDetails(!showDetails)}>
              {showDetails ? 'Hide booking details' : 'Show booking details'}
            </button>
          )}
          {(!mobile || showDetails) && <TripSummary />}
        </div>
        <div className="stack">
          {(!mobile || showDetails) && <PersonalDetails />}
          <section className="panel" aria-labelledby="pay-title">
            <h2 id="pay-title" className="panel-title">How would you like to pay?</h2>
            {payByCard && (
              <div className="pay-option">
                <p className="muted">Pay {total} now by debit or credit card. Your card details go to our card processor, never to us.</p>
                <CardLogos />
                <button type="button" className="btn btn-primary btn-block" disabled={booking} onClick={() => actor.send({ type: 'payment.payByCard' })}>
                  Pay By Card
                </button>
              </div>
            )}
            {payInCar && (
              <div className="pay-option">
                <p className="muted">Pay the driver at the end of the journey, by cash or card. Your price is fixed now.</p>
                {!payByCard && <CardLogos />}
                <button type="button" className={`btn ${payByCard ? 'btn-secondary' : 'btn-primary'} btn-block`} disabled={booking}
                  aria-busy={booking && method !== 'account'} onClick={() => actor.send({ type: 'payment.payInCar' })}>
                  {booking && method !== 'account' ? <><span className="spinner spinner-small" aria-hidden="true" /> Booking...</> : 'Pay In Car'}
                </button>
              </div>
            )}
            <PayOnAccount total={total} busy={booking && method === 'account'} />
            {!payInCar && !payByCard && !onAccount && (
              <p>Online payment is not available at the moment. Please call us on {settings.Company_Contact_Info} to book.</p>
            )}
          </section>
          <PrevNext />
        </div>
      </div>
      {failed && (
        <Dialog title="Error" onClose={() => actor.send({ type: 'error.dismissed' })}>
          <p>{error}</p>
        </Dialog>
      )}
    </div>
  );
}
