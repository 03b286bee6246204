// The card provider, chosen once at start from the configuration: Stripe when
// its three keys are set, otherwise the local test gateway (./testGateway),
// reached by the same official `stripe` SDK. Everything else in the server
// talks to `CardProvider.stripe()` and never knows which one it is. The SDK is
// loaded on first use, not at start (decision 31); main.ts asks for it once the
// site is up, so the first card payment does not wait for it either.
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import type { Config } from '../config';
import type { Queryable } from '../db/index';
import { testGateway, type TestGateway } from '../testGateway/gateway';
import type { WebhookDelivery } from '../testGateway/webhooks';

export interface CardProvider {
  /** The SDK's client, made on first use. */
  stripe: () => Promise<Stripe>;
  publishableKey: string;
  webhookSecret: string;
  /** Test keys or the local gateway: the card page says that no real card is charged. */
  testMode: boolean;
  /** Stripe.js for the card page: null loads Stripe's own; a path loads the local gateway's stand-in. */
  standInScript: string | null;
  describe: string;
  /** The local gateway (its routes are served under GATEWAY_PATH), when it is the provider. */
  gateway: TestGateway | null;
}

/** Where the site serves the local gateway (the stand-in Stripe.js, its API for the card page). */
export const GATEWAY_PATH = '/test-gateway';

/** Made on the first call and kept; a failure is not kept, so the next call tries again. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    if (!made) {
      made = make();
      made.catch(() => { made = null; });
    }
    return made;
  };
}

/** The `stripe` package, loaded once. */
export const stripeSdk = once(() => import('stripe').then((m) => m.default));

/** Stripe's SDK pointed at `url` (a stand-in for tests), or at Stripe. */
export async function stripeClient(secretKey: string, url?: string, httpClient?: Stripe.HttpClient): Promise<Stripe> {
  const target = url ? new URL(url) : null;
  const Stripe = await stripeSdk();
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 30_000,
    ...(target ? { host: target.hostname, port: Number(target.port) || (target.protocol === 'https:' ? 443 : 80), protocol: target.protocol.replace(':', '') as 'http' | 'https' } : {}),
    ...(httpClient ? { httpClient } : {}),
  });
}

/** The local gateway's keys: stable for a data directory (derived from the server secret), never Stripe's. */
export function localKeys(secret: Buffer) {
  const derive = (label: string) => createHmac('sha256', secret).update(`test-gateway:${label}`).digest('hex').slice(0, 32);
  return { publishableKey: `pk_test_local_${derive('pk')}`, secretKey: `sk_test_local_${derive('sk')}`, webhookSecret: `whsec_local_${derive('wh')}` };
}

export function cardProviderFromConfig(
  config: Pick<Config, 'stripeSecretKey' | 'stripePublishableKey' | 'stripeWebhookSecret' | 'stripeApiUrl'>,
  opts: { db: Queryable; secret: Buffer; deliverWebhook: WebhookDelivery | null },
): CardProvider {
  if (config.stripeSecretKey && config.stripePublishableKey && config.stripeWebhookSecret) {
    return {
      stripe: once(() => stripeClient(config.stripeSecretKey!, config.stripeApiUrl)),
      publishableKey: config.stripePublishableKey,
      webhookSecret: config.stripeWebhookSecret,
      testMode: config.stripePublishableKey.startsWith('pk_test_'),
      standInScript: null,
      describe: config.stripeApiUrl ? `Stripe API at ${config.stripeApiUrl}` : 'Stripe',
      gateway: null,
    };
  }
  const keys = localKeys(opts.secret);
  const gateway = testGateway({ ...keys, db: opts.db, deliverWebhook: opts.deliverWebhook });
  return {
    // The SDK's requests go straight to the gateway in this process: no port, no network.
    stripe: once(async () => stripeClient(keys.secretKey, undefined, (await stripeSdk())
      .createFetchHttpClient(async (url, init) => gateway.app.fetch(new Request(url as string, init as RequestInit))))),
    publishableKey: keys.publishableKey,
    webhookSecret: keys.webhookSecret,
    testMode: true,
    standInScript: `${GATEWAY_PATH}/stripe.js`,
    describe: 'the local test gateway (no real card is charged)',
    gateway,
  };
}
