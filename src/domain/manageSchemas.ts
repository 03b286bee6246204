// The bodies a passenger's booking page sends (src/server/manage/routes.ts), typed once before anything reads them
// (issue 39): a number, a list, an object or null where text is expected is a 422 naming its field, never a 500. They
// check types only; what a value must say is the change form's rules (./manageChanges.ts) and Find my booking's
// (./manageRules.ts), with their words, which the page asks first.
import { optional, string, type, type Struct } from 'superstruct';
import { CHANGE_FIELDS, type ChangeValues } from './manageChanges';

const text = optional(string());

/**
 * POST /manage/{reference}/changes: any of the change form's fields (one left out keeps its value), and the new total
 * the passenger was shown and accepts.
 */
export const ChangeBody = type({
  ...Object.fromEntries(CHANGE_FIELDS.map((k) => [k, text])) as Record<keyof ChangeValues, Struct<string | undefined, null>>,
  accept_total: text,
});

/** POST /manage/{reference}/changes/{id}/payment-intent: the card, as Stripe.js made it a payment method. */
export const ChangePaymentBody = type({ paymentMethodId: string() });

/** POST /manage/{reference}/changes/{id}/complete: the payment the card page confirmed. */
export const ChangeCompleteBody = type({ paymentIntentId: string() });

/** POST /manage/find: the reference and the e-mail the booking was made with. */
export const FindBody = type({ reference: text, email: text });
