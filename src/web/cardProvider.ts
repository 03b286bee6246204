// The card provider in the browser, loaded only on the card page (a lazy chunk):
// Stripe.js through @stripe/stripe-js's loader, or, when the server runs the
// local test gateway, its Stripe.js stand-in first (so `window.Stripe` exists
// and the same loader and the same Elements code run). The card form registers
// itself here, so the card machine's services can reach it.
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { assert } from 'superstruct';
import { CardKeyResponse, ConfirmPaymentIntentResponse, CreatePaymentIntentResponse } from '../domain/cardSchemas';
import type { CreateBookingInput } from '../domain/bookingRequest';
import { api, errorMessage } from './api';
import { bookingBody, bookingHeaders } from './bookingApi';
import type { AuthenticationResult, BillingDetails, CardField, PaymentMethodResult } from '../../machines/cardPayment';

const loaded = new Map<string, Promise<Stripe>>();
/** The Stripe of the card page's key: the bank's check needs it even before the card form shows (a resumed payment). */
let current: Promise<Stripe> | null = null;

function addScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('The card form could not be loaded. Please check your connection and try again.'));
    document.head.appendChild(script);
  });
}

/** Stripe for this key, loaded once per page. */
export function stripeFor(key: CardKeyResponse): Promise<Stripe> {
  let stripe = loaded.get(key.publishableKey);
  if (!stripe) {
    stripe = (async () => {
      if (key.stripeJs && !('Stripe' in window)) await addScript(key.stripeJs);
      const s = await loadStripe(key.publishableKey);
      if (!s) throw new Error('The card form could not be loaded. Please try again.');
      return s;
    })();
    stripe.catch(() => loaded.delete(key.publishableKey));
    loaded.set(key.publishableKey, stripe);
  }
  current = stripe;
  return stripe;
}

let form: { stripe: Stripe; elements: StripeElements } | null = null;

/** The card form on screen (src/web/views/card/CardForm.tsx); returns the function that removes it. */
export function registerCardForm(stripe: Stripe, elements: StripeElements): () => void {
  const mine = { stripe, elements };
  form = mine;
  return () => { if (form === mine) form = null; };
}

const fieldOf = (code: string | undefined): CardField =>
  (code?.includes('expiry') ? 'expiry' : code?.includes('cvc') ? 'cvc' : 'number');

/** Stripe.js createPaymentMethod with the card inputs: a card the provider refuses names its input. */
export async function createPaymentMethod(billing: BillingDetails): Promise<PaymentMethodResult> {
  const card = form?.elements.getElement('cardNumber');
  if (!form || !card) return { error: 'The card form is not ready yet. Please try again.' };
  const { paymentMethod, error } = await form.stripe.createPaymentMethod({
    type: 'card', card, billing_details: { name: billing.name || undefined, email: billing.email || undefined },
  });
  if (paymentMethod) return { paymentMethodId: paymentMethod.id };
  if (error?.type === 'validation_error' || error?.type === 'card_error') {
    return { fieldError: { field: fieldOf(error.code), message: error.message ?? 'Please check your card details.' } };
  }
  return { error: error?.message ?? 'Your card could not be read. Please try again.' };
}

/** 3-D Secure: the bank's challenge, run by Stripe.js (handleCardAction); the server confirms afterwards. */
export async function authenticate({ clientSecret }: { clientSecret: string }): Promise<AuthenticationResult> {
  const stripe = await current?.catch(() => null);
  if (!stripe) return { ok: false, error: 'The card form is not ready yet. Please try again.' };
  const { error } = await stripe.handleCardAction(clientSecret);
  return error ? { ok: false, error: error.message ?? 'Your bank could not confirm this payment.' } : { ok: true };
}

// The card calls (SPEC 7), in this chunk with the rest of the card code.

/** SPEC 7 secret_key: the card provider's public key. */
export async function fetchCardKey(): Promise<CardKeyResponse> {
  const res = await api('/secret_key');
  assert(res, CardKeyResponse);
  return res;
}

/** SPEC 7 create-payment-intent: the booking (written as pending), the card's payment method and the amount in pence. */
export async function createIntent(input: { booking: CreateBookingInput; paymentMethodId: string; amountPence: number }): Promise<{ paymentIntentId: string }> {
  try {
    const res = await api('/create-payment-intent', {
      method: 'POST', headers: bookingHeaders(input.booking),
      body: { ...bookingBody({ ...input.booking, paymentMethod: 'card' }), paymentMethodId: input.paymentMethodId, amount: input.amountPence },
    });
    assert(res, CreatePaymentIntentResponse);
    return res;
  } catch (err) {
    throw new Error(errorMessage(err));
  }
}

/** SPEC 7 confirm-payment-intent. */
export async function confirmIntent({ intentId }: { intentId: string }): Promise<ConfirmPaymentIntentResponse> {
  try {
    const res = await api('/confirm-payment-intent', { method: 'POST', body: { paymentIntentId: intentId } });
    assert(res, ConfirmPaymentIntentResponse);
    return res;
  } catch (err) {
    throw new Error(errorMessage(err));
  }
}
