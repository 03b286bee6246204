// SPEC 7's card calls: the provider's public key, create- and confirm-payment-intent
// (./cardBookings.ts does the work), and the provider's webhook, which is signed by the
// provider and so is mounted outside the API-key check (../app.ts).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ConfirmPaymentIntentRequest, CreatePaymentIntentRequest } from '../../domain/cardSchemas';
import { confirmCardPayment, handleWebhook, startCardPayment } from './cardBookings';
import { DomainError } from '../errors';
import { answerRefusal, errorBody } from '../http/answers';
import { readBody } from '../http/body';
import { bookingDeps, idempotencyKey } from './request';
import { loadSettings, type AppEnv } from '../deps';

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

/** Stripe's events are up to a few hundred kB; anything larger is not an event. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** The provider's events: signed (checked on the raw body), so outside the API-key check; each handled once. */
export const webhookRoutes = new Hono<AppEnv>().post(
  '/stripe/webhook',
  bodyLimit({ maxSize: MAX_WEBHOOK_BYTES, onError: (c) => c.json(errorBody('Too large'), 413) }),
  async (c) => {
    const { deps } = c.var;
    try {
      const outcome = await handleWebhook(deps.db, deps.cards, await c.req.text(), c.req.header('Stripe-Signature'),
        { settings: () => loadSettings(deps.db), siteUrl: deps.siteUrl });
      if (outcome === 'handled') deps.mail.kick();
      return c.json({ received: true, outcome });
    } catch (err) {
      if (err instanceof DomainError) return answerRefusal(c, err);
      console.error('Webhook failed:', err);
      return c.json(errorBody('The event could not be handled now; send it again later.'), 500);
    }
  },
);
