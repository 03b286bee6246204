// SPEC 7's card calls: the provider's public key, create- and confirm-payment-intent
// (src/server/payments/cardBookings.ts does the work). The webhook is in ../app.ts:
// it is signed by the provider and so sits outside the API-key check.
import { Hono } from 'hono';
import { ConfirmPaymentIntentRequest, CreatePaymentIntentRequest } from '../../domain/cardSchemas';
import { confirmCardPayment, startCardPayment } from '../payments/cardBookings';
import { readBody } from '../http/body';
import { bookingDeps, idempotencyKey } from './bookings';
import type { AppDeps } from '../deps';

export function paymentRoutes(deps: AppDeps) {
  return new Hono()
    .get('/secret_key', (c) => c.json({
      success: true, publishableKey: deps.cards.publishableKey, testMode: deps.cards.testMode, stripeJs: deps.cards.standInScript,
    }))
    .post('/create-payment-intent', async (c) => {
      const body = await readBody(c, CreatePaymentIntentRequest);
      const key = idempotencyKey(c);
      const result = await startCardPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards }, body, key);
      return c.json({ success: true, ...result });
    })
    .post('/confirm-payment-intent', async (c) => {
      const { paymentIntentId } = await readBody(c, ConfirmPaymentIntentRequest);
      const result = await confirmCardPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards }, paymentIntentId);
      return c.json({ success: true, ...result });
    });
}
