// SPEC 2 '/stripecheckout': the trip and price summary, the card inputs with
// inline errors, a Pay button with the exact amount, and the card machine's
// dialogs ('Payment successful!', 'Payment failed'). What shows comes from
// machines/cardPayment.ts; the Pay button asks it (`can`).
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { BookingActor } from '../../bookingActor';
import { cardPaymentMachine } from '../../../../machines/cardPayment';
import { amountPence } from '../../../../machines/booking';
import { PAYMENT_FAILED, PAYMENT_SUCCESSFUL } from '../../../domain/messages';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { RouteLink } from '../../components/RouteLink';
import { StepIndicator } from '../../components/StepIndicator';
import { VehicleSummary } from '../../components/VehicleSummary';
import { TripSummary } from '../../components/TripSummary';
import { CardLogos } from '../../components/CardLogos';
import { Dialog } from '../../components/Dialog';
import { CardForm } from './CardForm';
import './card.css';
import '../../screens.css';
import { StepHead } from '../../components/StepHead';

type CardRef = ActorRefFrom<typeof cardPaymentMachine>;

const BUSY_LABELS: Record<string, string> = {
  creatingPaymentMethod: 'Checking your card...',
  creatingIntent: 'Preparing your payment...',
  confirming: 'Taking your payment...',
  authenticating: 'Waiting for your bank...',
  completing: 'Confirming your booking...',
  succeeded: 'Payment successful',
};

const Waiting = ({ text }: { text: string }) => (
  <p className="card-waiting" role="status"><span className="spinner spinner-small" aria-hidden="true" /> {text}</p>
);

function CardPayment({ card }: { card: CardRef }) {
  const state = useSelector(card, (s) => (typeof s.value === 'string' ? s.value : JSON.stringify(s.value)));
  const key = useSelector(card, (s) => s.context.key);
  const error = useSelector(card, (s) => s.context.error);
  const fieldError = useSelector(card, (s) => s.context.fieldError);
  const amount = useSelector(card, (s) => s.context.amountPence);
  const canPay = useSelector(card, (s) => s.can({ type: 'card.submitted' }));
  const busy = useSelector(card, (s) => s.hasTag('busy'));
  const price = formatExactPrice(penceToPounds(amount));

  if (state === 'key') return <Waiting text="Preparing secure card payment..." />;
  if (state === 'resuming') return <Waiting text="Checking your payment..." />;
  if (state === 'unavailable' || state === 'paidNotConfirmed') {
    return (
      <div className="panel" role="alert">
        <p className="banner-error">{error}</p>
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={() => card.send({ type: 'card.retry' })}>Try again</button>
          {state === 'unavailable' && <RouteLink to="payment" className="btn btn-secondary">Choose another way to pay</RouteLink>}
        </div>
      </div>
    );
  }
  return (
    <>
      {key?.testMode && (
        <p className="banner-test" role="note"><strong>Test payments:</strong> no real card is charged. Use 4242 4242 4242 4242, any future date and any CVC.</p>
      )}
      <p className="muted">Pay <strong>{price}</strong> now. Your card details go straight to our card processor, never to us.</p>
      <CardLogos />
      {key && (
        <CardForm cardKey={key} fieldError={fieldError} busy={busy} busyLabel={BUSY_LABELS[state] ?? 'Processing...'}
          payLabel={`Pay ${price}`} canPay={canPay} onPay={() => card.send({ type: 'card.submitted' })} />
      )}
      <p className="sr-only" role="status">{busy ? BUSY_LABELS[state] : ''}</p>
      {state === 'succeeded' && (
        <div className="overlay">
          <div className="dialog dialog-info" role="status" aria-live="assertive">
            <h2 className="dialog-title">{PAYMENT_SUCCESSFUL}</h2>
            <p className="dialog-body">Confirming your booking...</p>
          </div>
        </div>
      )}
      {state === 'failed' && (
        <Dialog title={PAYMENT_FAILED} onClose={() => card.send({ type: 'error.dismissed' })} closeLabel="Try again">
          <p>{error}</p>
          <p className="muted">Check your card details, or use another card. Nothing else needs to be entered again.</p>
        </Dialog>
      )}
    </>
  );
}

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
            {card ? <CardPayment card={card} /> : <Waiting text="Preparing secure card payment..." />}
          </section>
        </div>
      </div>
    </div>
  );
}
