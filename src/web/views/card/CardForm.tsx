// The card inputs (Stripe Elements: number, expiry, security code), each with its
// inline error under it as the provider reports it, and the Pay button.
import { useEffect, useMemo, useState } from 'react';
import {
  CardCvcElement, CardExpiryElement, CardNumberElement, Elements, useElements, useStripe,
} from '@stripe/react-stripe-js';
import type { StripeCardNumberElementChangeEvent, StripeElementChangeEvent } from '@stripe/stripe-js';
import type { CardKeyResponse } from '../../../domain/cardSchemas';
import type { CardField } from '../../../../machines/cardPayment';
import { registerCardForm, stripeFor } from '../../cardProvider';
import '../../screens.css';

const ELEMENT_STYLE = {
  style: {
    base: { fontSize: '16px', color: '#14233c', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif', '::placeholder': { color: '#6b7785' } },
    invalid: { color: '#b42318' },
  },
};

const FIELDS: { field: CardField; label: string; Element: typeof CardNumberElement | typeof CardExpiryElement | typeof CardCvcElement }[] = [
  { field: 'number', label: 'Card number', Element: CardNumberElement },
  { field: 'expiry', label: 'Expiry date', Element: CardExpiryElement },
  { field: 'cvc', label: 'Security code (CVC)', Element: CardCvcElement },
];

interface Props {
  cardKey: CardKeyResponse;
  /** The error the machine holds for one input (from the provider, on Pay). */
  fieldError: { field: CardField; message: string } | null;
  busy: boolean;
  busyLabel: string;
  payLabel: string;
  canPay: boolean;
  onPay: () => void;
}

function Inputs({ fieldError, busy, busyLabel, payLabel, canPay, onPay }: Omit<Props, 'cardKey'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const [brand, setBrand] = useState('unknown');
  useEffect(() => (stripe && elements ? registerCardForm(stripe, elements) : undefined), [stripe, elements]);
  // The machine's error for an input stands until that input changes.
  useEffect(() => {
    if (fieldError) setErrors((e) => ({ ...e, [fieldError.field]: fieldError.message }));
  }, [fieldError]);

  const onChange = (field: CardField) => (e: StripeElementChangeEvent) => {
    setErrors((prev) => ({ ...prev, [field]: e.error?.message }));
    if (field === 'number') setBrand((e as StripeCardNumberElementChangeEvent).brand);
  };
  const ready = Boolean(stripe && elements);

  return (
    <form className="card-form" noValidate onSubmit={(e) => { e.preventDefault(); if (canPay) onPay(); }} aria-busy={busy}>
      <div className="card-grid">
        {FIELDS.map(({ field, label, Element }) => (
          <div key={field} className={`field card-field-${field}`}>
            <label id={`card-${field}-label`} onClick={() => elements?.getElement(Element)?.focus()}>{label}</label>
            <Element id={`card-${field}`} className="card-input" options={{ ...ELEMENT_STYLE, disabled: busy, ...(field === 'number' ? { showIcon: true } : {}) }}
              onChange={onChange(field)} />
            {errors[field] && <p className="field-error" id={`card-${field}-error`} role="alert">{errors[field]}</p>}
          </div>
        ))}
      </div>
      {brand !== 'unknown' && <p className="field-hint">Card: {brand === 'amex' ? 'American Express' : brand[0].toUpperCase() + brand.slice(1)}</p>}
      <button type="submit" className="btn btn-primary btn-block btn-pay" disabled={!ready || busy || !canPay} aria-busy={busy}>
        {busy ? <><span className="spinner spinner-small" aria-hidden="true" /> {busyLabel}</> : payLabel}
      </button>
    </form>
  );
}

export function CardForm({ cardKey, ...props }: Props) {
  const stripe = useMemo(() => stripeFor(cardKey), [cardKey]);
  return (
    <Elements stripe={stripe} options={{ locale: 'en-GB' }}>
      <Inputs {...props} />
    </Elements>
  );
}
