// The card payment's screen (SPEC 4 'Card payment', machines/cardPayment.ts): the card inputs with inline errors, a
// Pay button with the exact amount, the waiting words and the 'Payment successful!' and 'Payment failed' dialogs.
// The card page shows it for a new booking; a booking's manage page for a change's difference (issue 27).
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { cardPaymentMachine } from '../../../../machines/cardPayment';
import { PAYMENT_FAILED, PAYMENT_SUCCESSFUL } from '../../../domain/messages';
import { formatExactPrice, penceToPounds } from '../../../domain/money';
import { CardLogos } from '../../components/CardLogos';
import { Dialog } from '../../components/Dialog';
import { CardForm } from './CardForm';
import { WalletButton } from './WalletButton';
import { payerOf } from '../../../../machines/cardTypes';
import './card.css';

export type CardRef = ActorRefFrom<typeof cardPaymentMachine>;

const BUSY_LABELS: Record<string, string> = {
  creatingPaymentMethod: 'Checking your card...',
  creatingIntent: 'Preparing your payment...',
  confirming: 'Taking your payment...',
  authenticating: 'Waiting for your bank...',
  completing: 'Confirming your booking...',
  succeeded: 'Payment successful',
};

export const Waiting = ({ text }: { text: string }) => (
  <p className="card-waiting" role="status"><span className="spinner spinner-small" aria-hidden="true" /> {text}</p>
);

/**
 * The card machine's screen: its inputs, its waiting words and its dialogs. `completing` says what the payment's last
 * step does (confirming a booking, saving a change); `otherWay` is offered when the card service cannot be reached.
 */
export function CardPayment({ card, completing = 'Confirming your booking...', otherWay }: { card: CardRef; completing?: string; otherWay?: ReactNode }) {
  const state = useSelector(card, (s) => (typeof s.value === 'string' ? s.value : JSON.stringify(s.value)));
  const key = useSelector(card, (s) => s.context.key);
  const error = useSelector(card, (s) => s.context.error);
  const fieldError = useSelector(card, (s) => s.context.fieldError);
  const amount = useSelector(card, (s) => s.context.amountPence);
  const canPay = useSelector(card, (s) => s.can({ type: 'card.submitted' }));
  const payer = useSelector(card, (s) => payerOf(s.context.booking));
  // Issue 44: a wallet's payment is taken while the card entry is (the machine's rule).
  const walletCanPay = useSelector(card, (s) => s.can({ type: 'card.walletPaid', paymentMethodId: 'pm' }));
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
          {state === 'unavailable' && otherWay}
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
        <WalletButton cardKey={key} amountPence={amount} payer={payer} canPay={walletCanPay}
          onPaid={(paymentMethodId) => card.send({ type: 'card.walletPaid', paymentMethodId })}
          onFailed={(message) => card.send({ type: 'card.walletFailed', error: message })} />
      )}
      {key && (
        <CardForm cardKey={key} fieldError={fieldError} busy={busy} busyLabel={(state === 'completing' ? completing : BUSY_LABELS[state]) ?? 'Processing...'}
          payLabel={`Pay ${price}`} canPay={canPay} onPay={() => card.send({ type: 'card.submitted' })} />
      )}
      <p className="sr-only" role="status">{busy ? (state === 'completing' ? completing : BUSY_LABELS[state]) : ''}</p>
      {state === 'succeeded' && (
        <div className="overlay">
          <div className="dialog dialog-info" role="status" aria-live="assertive">
            <h2 className="dialog-title">{PAYMENT_SUCCESSFUL}</h2>
            <p className="dialog-body">{completing}</p>
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

