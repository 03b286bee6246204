import { Link } from 'wouter';
import { BookingActor } from '../../bookingActor';
import { Dialog } from '../../components/Dialog';
import { StepProgress } from '../../components/StepProgress';
import { TripSummary } from '../../components/TripSummary';
import { VehicleSummary } from '../../components/VehicleSummary';

export function PaymentView() {
  const actor = BookingActor.useActorRef();
  const reg = BookingActor.useSelector((s) => s.context.registration);
  const booking = BookingActor.useSelector((s) => s.matches({ payment: 'booking' }));
  const failed = BookingActor.useSelector((s) => s.matches({ payment: 'failed' }));
  const error = BookingActor.useSelector((s) => s.context.error);

  return (
    <div className="page">
      <StepProgress current={2} />
      <div className="page-head">
        <Link href="/personalDetailView" className="back-link">← Back</Link>
        <h1>Payment</h1>
      </div>
      <div className="two-col">
        <div className="stack">
          <VehicleSummary />
          <TripSummary />
        </div>
        <div className="stack">
          {reg && (
            <section className="panel" aria-labelledby="who-title">
              <h2 id="who-title" className="panel-title">Personal details</h2>
              <table className="details-table">
                <tbody>
                  <tr><th scope="row">Name</th><td>{reg.firstName} {reg.surname}</td></tr>
                  <tr><th scope="row">Email</th><td>{reg.email}</td></tr>
                  <tr><th scope="row">Phone</th><td>{reg.number}</td></tr>
                  {reg.additionalInfo && <tr><th scope="row">Additional information</th><td>{reg.additionalInfo}</td></tr>}
                </tbody>
              </table>
            </section>
          )}
          <section className="panel" aria-labelledby="pay-title">
            <h2 id="pay-title" className="panel-title">How would you like to pay?</h2>
            <p className="muted">Pay the driver at the end of the journey by cash or card. Your price is fixed now.</p>
            <button type="button" className="btn btn-primary btn-block" disabled={booking} aria-busy={booking}
              onClick={() => actor.send({ type: 'payment.payInCar' })}>
              {booking ? <><span className="spinner spinner-small" aria-hidden="true" /> Booking...</> : 'Pay In Car'}
            </button>
          </section>
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
