// Issue 44 §4: Apple Pay and Google Pay on the card step, through the provider's Express Checkout Element, shown only
// when the browser offers one (the test gateway's Stripe.js offers a stand-in "Test wallet"). The wallet gives a
// payment method (Elements in deferred mode, paymentMethodCreation 'manual'), and the card machine takes it into the
// card's own steps from the intent on: one intent per booking, the server confirms, so a wallet pays exactly once as a
// card does. In the card page's lazy chunk, never on the first page.
import { useMemo, useState } from 'react';
import { Elements, ExpressCheckoutElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { CardKeyResponse } from '../../../domain/cardSchemas';
import type { BillingDetails } from '../../../../machines/cardPayment';
import { stripeFor } from '../../cardProvider';

interface Props {
  cardKey: CardKeyResponse; amountPence: number; payer: BillingDetails;
  /** Whether the card machine would take a wallet's payment now (it is on the card entry, nothing on its way). */
  canPay: boolean;
  onPaid: (paymentMethodId: string) => void;
  onFailed: (message: string) => void;
}

const WALLET_FAILED = 'Your wallet could not pay. Please try again, or pay by card.';

function Wallets({ payer, canPay, onPaid, onFailed, onShown }: Omit<Props, 'cardKey' | 'amountPence'> & { onShown: (shown: boolean) => void }) {
  const stripe = useStripe();
  const elements = useElements();
  return (
    <ExpressCheckoutElement
      options={{ buttonType: { applePay: 'book', googlePay: 'book' }, paymentMethods: { link: 'never', paypal: 'never', amazonPay: 'never' } }}
      onReady={({ availablePaymentMethods }) => onShown(Boolean(availablePaymentMethods && Object.values(availablePaymentMethods).some(Boolean)))}
      onClick={(event) => { if (canPay) event.resolve(); }}
      onConfirm={async (event) => {
        // Nothing is taken unless the card page takes it now: the wallet's sheet is told so.
        if (!stripe || !elements || !canPay) {
          event.paymentFailed();
          return;
        }
        const submitted = await elements.submit();
        if (submitted.error) {
          event.paymentFailed();
          onFailed(submitted.error.message ?? WALLET_FAILED);
          return;
        }
        const { paymentMethod, error } = await stripe.createPaymentMethod({
          elements, params: { billing_details: { name: payer.name || undefined, email: payer.email || undefined } },
        });
        if (!paymentMethod) {
          event.paymentFailed();
          onFailed(error?.message ?? WALLET_FAILED);
          return;
        }
        onPaid(paymentMethod.id);
      }}
    />
  );
}

/** The wallets the browser offers, above the card form with "or pay by card" between; nothing when it offers none. */
export function WalletButton({ cardKey, amountPence, ...props }: Props) {
  const stripe = useMemo(() => stripeFor(cardKey), [cardKey]);
  const [shown, setShown] = useState(false);
  return (
    <div className="wallets" hidden={!shown}>
      <Elements stripe={stripe} options={{ mode: 'payment', amount: amountPence, currency: 'gbp', paymentMethodCreation: 'manual', locale: 'en-GB' }}>
        <Wallets {...props} onShown={setShown} />
      </Elements>
      <p className="wallets-or"><span>or pay by card</span></p>
    </div>
  );
}
