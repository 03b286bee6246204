// Shapes of the card calls (SPEC 7 secret_key, create-payment-intent,
// confirm-payment-intent), shared by the server and the card page's lazy chunk:
// kept apart from ./schemas so that the first page never carries them.
import { assign, boolean, enums, integer, nullable, optional, size, string, type, type Infer } from 'superstruct';
import { Text } from './fields';
import { BookingRequest } from './requestSchemas';

/** Body of POST /api/v1/create-payment-intent (SPEC 7): the booking as POST /booking will send it, the card, the amount in pence. */
export const CreatePaymentIntentRequest = assign(BookingRequest, type({
  paymentMethodId: Text(3, 255),
  amount: size(integer(), 1, 100_000_000),
}));
export type CreatePaymentIntentRequest = Infer<typeof CreatePaymentIntentRequest>;

/** Body of POST /api/v1/confirm-payment-intent (SPEC 7). */
export const ConfirmPaymentIntentRequest = type({ paymentIntentId: Text(3, 255) });

/** GET /api/v1/secret_key: the card provider's public key, and where its Stripe.js comes from. */
export const CardKeyResponse = type({
  success: boolean(),
  publishableKey: string(),
  /** Test keys or the local gateway: no real card is charged. */
  testMode: boolean(),
  /** null: Stripe's own Stripe.js; a path: the local test gateway's stand-in, loaded before loadStripe. */
  stripeJs: nullable(string()),
});
export type CardKeyResponse = Infer<typeof CardKeyResponse>;

export const CreatePaymentIntentResponse = type({ success: boolean(), paymentIntentId: string() });

/** SPEC 7: status, sessionId, paymentId, error; and the client secret when the bank must check the cardholder. */
export const ConfirmPaymentIntentResponse = type({
  success: boolean(),
  status: enums(['succeeded', 'requires_action', 'failed', 'processing']),
  sessionId: nullable(string()),
  paymentId: nullable(string()),
  clientSecret: optional(nullable(string())),
  error: optional(nullable(string())),
});
export type ConfirmPaymentIntentResponse = Infer<typeof ConfirmPaymentIntentResponse>;

/** Issue 43: POST /api/v1/pay/{reference}/intent, the card of a payment link. */
export const LinkIntentRequest = type({ paymentMethodId: Text(3, 255) });
/** Issue 43: POST /api/v1/pay/{reference}/complete, once the link's payment succeeded. */
export const LinkCompleteRequest = type({ stripe_session_id: Text(3, 255) });
