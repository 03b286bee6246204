// The provider's webhook route: signed by the provider, so mounted outside the API-key check (../app.ts).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DomainError } from '../errors';
import { answerRefusal, errorBody } from '../http/answers';
import { loadSettings, type AppEnv } from '../deps';
import { handleWebhook } from './cardEvents';

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
        { settings: () => loadSettings(deps.db), siteUrl: deps.siteUrl, now: deps.now });
      if (outcome === 'handled') deps.mail.kick();
      return c.json({ received: true, outcome });
    } catch (err) {
      if (err instanceof DomainError) return answerRefusal(c, err);
      console.error('Webhook failed:', err);
      return c.json(errorBody('The event could not be handled now; send it again later.'), 500);
    }
  },
);
