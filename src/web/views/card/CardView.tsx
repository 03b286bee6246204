// SPEC 2 '/stripecheckout': the trip and price summary, and the card payment (./CardPayment.tsx): the card inputs
// with inline errors, a Pay button with the exact amount, and the card machine's dialogs. What shows comes from
// machines/cardPayment.ts; the Pay button asks it (`can`).
import { BookingActor } from '../../bookingActor';
import { amountPence } from '../../../../machines/booking';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { RouteLink } from '../../components/RouteLink';
import { StepIndicator } from '../../components/StepIndicator';
import { VehicleSummary } from '../../components/VehicleSummary';
import { TripSummary } from '../../components/TripSummary';
import { CardPayment, Waiting, type CardRef } from './CardPayment';
import '../../screens.css';
import { StepHead } from '../../components/StepHead';

export function CardView() {
  const card = BookingActor.useSelector((s) => s.children.cardPayment as CardRef | undefined);
  const amount = BookingActor.useSelector((s) => amountPence(s.context));
  return (
    <div className="page card-page">
      <StepIndicator />
      <StepHead back="payment" title="Card payment" />
      <div className="two-col">
        <div className="stack">
          <VehicleSummary exact />
          <TripSummary />
        </div>
        <div className="stack">
          <section className="panel" aria-labelledby="card-title">
            <h2 id="card-title" className="panel-title">Pay {formatExactPrice(penceToPounds(amount))} by card</h2>
            {card ? <CardPayment card={card} otherWay={<RouteLink to="payment" className="btn btn-secondary">Choose another way to pay</RouteLink>} /> : <Waiting text="Preparing secure card payment..." />}
          </section>
        </div>
      </div>
    </div>
  );
}
