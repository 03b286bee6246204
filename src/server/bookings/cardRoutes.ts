// SPEC 7's card calls: the provider's public key, create- and confirm-payment-intent
// (./cardBookings.ts does the work). The provider's webhook is in ../cardEvents/routes.ts.
import { Hono } from 'hono';
import { ConfirmPaymentIntentRequest, CreatePaymentIntentRequest } from '../../domain/cardSchemas';
import { confirmCardPayment, startCardPayment } from './cardBookings';
import { readBody } from '../http/body';
import { bookingDeps, idempotencyKey } from './request';
import type { AppEnv } from '../deps';

export const cardRoutes = new Hono<AppEnv>()
  .get('/secret_key', (c) => {
    const { cards } = c.var.deps;
    return c.json({ success: true, publishableKey: cards.publishableKey, testMode: cards.testMode, stripeJs: cards.standInScript });
  })
  .post('/create-payment-intent', async (c) => {
    const { deps } = c.var;
    const body = await readBody(c, CreatePaymentIntentRequest);
    const key = idempotencyKey(c);
    const result = await startCardPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards }, body, key);
    return c.json({ success: true, ...result });
  })
  .post('/confirm-payment-intent', async (c) => {
    const { deps } = c.var;
    const { paymentIntentId } = await readBody(c, ConfirmPaymentIntentRequest);
    const result = await confirmCardPayment({ ...(await bookingDeps(deps, c)), cards: deps.cards }, paymentIntentId);
    return c.json({ success: true, ...result });
  });
