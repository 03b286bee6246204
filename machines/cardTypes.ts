// The card payment's types (./cardPayment.ts): what is paid for, what the card page is started with and gives back,
// what the provider's form answers, the events it takes and what it tells the wizard.
import type { BookingResult } from '../src/domain/schemas';
import type { CardKeyResponse } from '../src/domain/cardSchemas';
import type { CreateBookingInput } from '../src/domain/bookingRequest';

/** A change to a booking whose higher price is paid by card (issue 27): the booking's link and the waiting change. */
export interface ChangeOrder { change: { reference: string; key: string; id: number }; payer: BillingDetails }
/** A booking the office took by phone, paid through its payment link (issue 43, ./payLink.ts): the link's reference and key. */
export interface LinkOrder { link: { reference: string; key: string }; payer: BillingDetails }
/** What is paid for: a new booking (as the final call sends it, with the wizard's Idempotency-Key), a change, or a link's booking. */
export type CardOrder = CreateBookingInput | ChangeOrder | LinkOrder;

/** Who pays, as the card provider keeps it with the card. */
export const payerOf = (o: CardOrder): BillingDetails => ('change' in o || 'link' in o ? o.payer : {
  name: `${o.registration.firstName} ${o.registration.surname}`.trim(), email: o.registration.email,
});

/** The completing call's input: the order with the payment that paid it. */
export type CardCompletion = CardOrder & { paymentMethod: 'card'; stripeSessionId: string | null; paymentId: string | null };

export interface CardPaymentInput {
  booking: CardOrder;
  /** What the server will charge, in pence (SPEC 9: the amount is sent x 100). */
  amountPence: number;
  /** The intent made for this booking on an earlier visit to the page (a reload). */
  intentId: string | null;
}
export interface CardPaymentOutput { booking: BookingResult }

export type CardField = 'number' | 'expiry' | 'cvc';
/** What the provider's card form gives: a payment method, or the field it refused (shown under that input). */
export type PaymentMethodResult =
  | { paymentMethodId: string }
  | { fieldError: { field: CardField; message: string } }
  | { error: string };
/** Who pays, as the card provider keeps it with the card. */
export interface BillingDetails { name: string; email: string }
export type AuthenticationResult = { ok: true } | { ok: false; error: string };

export type CardPaymentEvent =
  | { type: 'card.submitted' }
  /**
   * Issue 44: a wallet (Apple Pay, Google Pay through the provider's Express Checkout; the test gateway's stand-in)
   * gave a payment method for the card's same steps, or could not.
   */
  | { type: 'card.walletPaid'; paymentMethodId: string }
  | { type: 'card.walletFailed'; error: string }
  | { type: 'card.retry' }
  | { type: 'error.dismissed' };

/** What the card page tells the wizard (it keeps the key for the URL and the intent for a reload). */
export type CardToBooking =
  | { type: 'card.keyLoaded'; publishableKey: string }
  | { type: 'card.intentCreated'; intentId: string };

export interface CardPaymentContext extends CardPaymentInput {
  key: CardKeyResponse | null;
  clientSecret: string | null;
  sessionId: string | null;
  paymentId: string | null;
  /** The card as the provider's form gave it, for the intent. */
  paymentMethodId: string | null;
  /** The 'Payment failed' dialog's message (or the page's, when the service is unavailable). */
  error: string | null;
  /** A card input the provider refused, with its message. */
  fieldError: { field: CardField; message: string } | null;
  confirmed: BookingResult | null;
}

