// SPEC 2 '/checkout': the payment step's review (it has the payment step's
// guards): the trip, the vehicle, who travels and the total, with the way to
// pay. The Previous/Next control hides Next here, as SPEC 2 says.
import { BookingActor } from '../../bookingActor';
import { PrevNext } from '../../components/PrevNext';
import { RouteLink } from '../../components/RouteLink';
import { StepIndicator } from '../../components/StepIndicator';
import { TripSummary } from '../../components/TripSummary';
import { VehicleSummary } from '../../components/VehicleSummary';
import { PersonalDetails } from '../payment/PaymentView';
import { amountPence } from '../../../../machines/booking';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { StepHead } from '../../components/StepHead';
export function CheckoutView() {
  const total = BookingActor.useSelector((s) => formatExactPrice(penceToPounds(amountPence(s.context))));
  return (
    <div className="page">
      <StepIndicator />
      <StepHead back="payment" title="Review your booking" />
      <div className="two-col">
        <div className="stack">
          <VehicleSummary exact />
          <TripSummary />
        </div>
        <div className="stack">
          <PersonalDetails />
          <section className="panel" aria-labelledby="checkout-total">
            <h2 id="checkout-total" className="panel-title">Total to pay: {total}</h2>
            <p className="muted">Nothing has been booked or charged yet. Choose how to pay on the payment step.</p>
            <RouteLink to="payment" className="btn btn-primary btn-block">Choose how to pay</RouteLink>
          </section>
          <PrevNext />
        </div>
      </div>
    </div>
  );
}
