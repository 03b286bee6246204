// A local stand-in for Stripe's API, used when no Stripe keys are configured,
// so that `npm start` takes card payments with no account and no internet. It
// speaks the REST shapes the official `stripe` SDK and our Stripe.js stand-in
// (./stripe.js) use: form-encoded requests, JSON objects, Stripe's error
// bodies and status codes, Idempotency-Key replays (for a day), and signed
// webhooks. Only what card payments here need: payment methods, payment intents
// with manual confirmation and 3-D Secure (./cards.ts decides each test card),
// and refunds, listed and paged as Stripe lists them.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Queryable } from '../db/index';
import { brandOf, cardDetailsError, outcomeOf, type CardOutcome } from './cards';
import { WebhookSender, type WebhookDelivery } from './webhooks';

export interface GatewayKeys { publishableKey: string; secretKey: string; webhookSecret: string }

export interface GatewayOptions extends GatewayKeys {
  db: Queryable;
  /** Where events go (the site's webhook endpoint); null sends none. */
  deliverWebhook: WebhookDelivery | null;
  now?: () => Date;
}

export const API_VERSION = '2026-10-28.endive';
/** How long an idempotency key is remembered, as at Stripe: a day; the same key after that makes a new request. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

interface StoredPaymentMethod {
  id: string; object: 'payment_method'; type: 'card'; created: number; livemode: false;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: string };
  billing_details: Record<string, unknown>;
  /** What this card does when charged (never sent out: keys starting with _ are private). */
  _outcome: CardOutcome;
}

interface PaymentError { type: string; code: string; decline_code?: string; message: string; payment_method?: object }

interface StoredIntent {
  id: string; object: 'payment_intent'; amount: number; amount_received: number; currency: string; status: string;
  client_secret: string; confirmation_method: string; capture_method: 'automatic'; payment_method: string | null;
  payment_method_types: string[]; latest_charge: string | null; last_payment_error: PaymentError | null;
  next_action: object | null; metadata: Record<string, string>; description: string | null; created: number; livemode: false;
  /** The cardholder passed the bank's check for the current payment method. */
  _authenticated: boolean;
}

class GatewayError extends Error {
  constructor(public status: number, public body: Record<string, unknown>) {
    super(String(body.message));
  }
}

const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new GatewayError(400, { type: 'invalid_request_error', message, ...extra });
const missing = (kind: string, id: string) =>
  new GatewayError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'id', message: `No such ${kind}: '${id}'` });

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export function objectId(prefix: string): string {
  return prefix + Array.from(randomBytes(24), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** Stripe's form encoding (`metadata[booking_id]=7&allowed_payment_method_types[0]=card`) into nested objects. */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length && keys.every((k, i) => k === String(i))) return keys.map((k) => arrays(o[k]));
    return Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
  };
  return arrays(root) as Record<string, unknown>;
}

/** The object as the API shows it: private fields (leading _) left out. */
const shown = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')));

type Env = { Variables: { key: 'secret' | 'publishable'; form: Record<string, unknown> } };

const STANDIN_FILE = fileURLToPath(new URL('./stripe.js', import.meta.url));

export function testGateway(opts: GatewayOptions) {
  const now = opts.now ?? (() => new Date());
  const seconds = () => Math.floor(now().getTime() / 1000);
  const webhooks = new WebhookSender(opts.webhookSecret, opts.deliverWebhook);
  const locks = new Map<string, Promise<unknown>>();

  /** One change at a time per object, as Stripe locks an object while it changes. */
  function locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const before = locks.get(id) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => {});
    locks.set(id, tail);
    void tail.then(() => { if (locks.get(id) === tail) locks.delete(id); });
    return run;
  }

  async function load<T>(id: string, kind: string): Promise<T> {
    const [row] = await opts.db.query<{ data: T }>('SELECT data FROM test_gateway_objects WHERE id = $1 AND kind = $2', [id, kind]);
    if (!row) throw missing(kind.replace('_', ' '), id);
    return row.data;
  }
  async function save(o: { id: string; object: string }): Promise<void> {
    await opts.db.query(
      `INSERT INTO test_gateway_objects (id, kind, data) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`, [o.id, o.object, JSON.stringify(o)]);
  }

  function event(type: string, intent: StoredIntent): void {
    webhooks.send({
      id: objectId('evt_'), object: 'event', api_version: API_VERSION, created: seconds(), livemode: false,
      pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object: shown(intent) },
    });
  }

  /** Confirms with the intent's payment method: charges it, asks for 3-D Secure, or records the decline. */
  async function confirm(pi: StoredIntent): Promise<StoredIntent> {
    if (pi.status === 'succeeded') {
      throw invalid('You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.',
        { code: 'payment_intent_unexpected_state', payment_intent: shown(pi) });
    }
    if (!['requires_confirmation', 'requires_payment_method', 'requires_action'].includes(pi.status)) {
      throw invalid(`You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`, { code: 'payment_intent_unexpected_state' });
    }
    if (!pi.payment_method) {
      throw invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", { code: 'payment_intent_unexpected_state' });
    }
    const pm = await load<StoredPaymentMethod>(pi.payment_method, 'payment_method');
    const outcome = pm._outcome;
    if (outcome.kind === 'authenticates' && !pi._authenticated) {
      Object.assign(pi, {
        status: 'requires_action', last_payment_error: null,
        next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', source: objectId('src_') } },
      });
      await save(pi);
      return pi;
    }
    if (outcome.kind === 'declined') {
      const error: PaymentError = {
        type: 'card_error', code: outcome.code, ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
        message: outcome.message, payment_method: shown(pm),
      };
      Object.assign(pi, { status: 'requires_payment_method', payment_method: null, last_payment_error: error, next_action: null, _authenticated: false });
      await save(pi);
      event('payment_intent.payment_failed', pi);
      throw new GatewayError(402, { ...error, payment_intent: shown(pi) });
    }
    const charge = {
      id: objectId('ch_'), object: 'charge', amount: pi.amount, amount_captured: pi.amount, currency: pi.currency, paid: true,
      captured: true, status: 'succeeded', payment_intent: pi.id, payment_method: pm.id, created: seconds(), livemode: false,
      payment_method_details: { type: 'card', card: { brand: pm.card.brand, last4: pm.card.last4 } },
    };
    await save(charge);
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: charge.id, last_payment_error: null, next_action: null });
    await save(pi);
    event('payment_intent.succeeded', pi);
    return pi;
  }

  /** Forgets every idempotency key, as a day passing does; how many there were. */
  async function forgetIdempotencyKeys(): Promise<number> {
    return (await opts.db.query("DELETE FROM test_gateway_objects WHERE kind = 'idempotency_key' RETURNING id")).length;
  }

  const app = new Hono<Env>();

  // Stripe.js stand-in for the card page (served only by this gateway, so only when Stripe is not configured).
  app.get('/stripe.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(readFileSync(STANDIN_FILE, 'utf8'));
  });

  // Card forms and intents are small; nothing larger is a request of ours.
  app.use('/v1/*', bodyLimit({
    maxSize: 16 * 1024,
    onError: (c) => c.json({ error: { type: 'invalid_request_error', message: 'The request is too large.' } }, 413),
  }));
  app.use('/v1/*', async (c, next) => {
    const auth = c.req.header('Authorization') ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (key !== opts.secretKey && key !== opts.publishableKey) {
      return c.json({ error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}***` } }, 401);
    }
    c.set('key', key === opts.secretKey ? 'secret' : 'publishable');
    c.set('form', c.req.method === 'POST' ? parseForm(await c.req.text()) : Object.fromEntries(new URL(c.req.url).searchParams));
    c.header('Request-Id', objectId('req_'));
    c.header('Stripe-Version', API_VERSION);
    // A POST with an Idempotency-Key is answered once; the same key again gets the same answer.
    const idem = c.req.header('Idempotency-Key');
    if (c.req.method !== 'POST' || !idem) return next();
    const id = `idem_${createHash('sha256').update(`${key}\n${idem}`).digest('hex')}`;
    const fingerprint = createHash('sha256').update(`${c.req.path}\n${JSON.stringify(c.get('form'))}`).digest('hex');
    return locked(id, async () => {
      const [row] = await opts.db.query<{ data: { fingerprint: string; status: number; body: unknown }; created_at: Date }>(
        'SELECT data, created_at FROM test_gateway_objects WHERE id = $1', [id]);
      // A key older than the window is forgotten: this request is made again, as a new one.
      const remembered = row && now().getTime() - new Date(row.created_at).getTime() < IDEMPOTENCY_WINDOW_MS;
      if (row && !remembered) await opts.db.query('DELETE FROM test_gateway_objects WHERE id = $1', [id]);
      if (remembered) {
        if (row.data.fingerprint !== fingerprint) {
          return c.json({ error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idem}' if you meant to execute a different request.`,
          } }, 400);
        }
        c.header('Idempotent-Replayed', 'true');
        return c.json(row.data.body as object, row.data.status as 200);
      }
      await next();
      if (c.res.status < 500) {
        const body = await c.res.clone().json();
        await save({ id, object: 'idempotency_key', fingerprint, status: c.res.status, body } as never);
      }
      return c.res;
    });
  });

  const secretOnly = (c: Context<Env>) => {
    if (c.get('key') !== 'secret') {
      throw new GatewayError(401, { type: 'invalid_request_error', code: 'secret_key_required', message: 'This API call cannot be made with a publishable API key.' });
    }
  };

  app.post('/v1/payment_methods', async (c) => {
    const form = c.get('form');
    if (form.type !== 'card') throw invalid('Only card payment methods are offered by the local test gateway.', { param: 'type' });
    const card = (form.card ?? {}) as { number?: string; exp_month?: string; exp_year?: string; cvc?: string };
    const error = cardDetailsError(card, now());
    if (error) throw new GatewayError(402, { type: 'card_error', ...error });
    const digits = card.number!.replace(/\s+/g, '');
    let year = Number(card.exp_year);
    if (year < 100) year += 2000;
    const pm: StoredPaymentMethod = {
      id: objectId('pm_'), object: 'payment_method', type: 'card', created: seconds(), livemode: false,
      card: { brand: brandOf(digits), last4: digits.slice(-4), exp_month: Number(card.exp_month), exp_year: year, funding: 'credit', country: 'GB' },
      billing_details: (form.billing_details ?? {}) as Record<string, unknown>,
      _outcome: outcomeOf(digits),
    };
    await save(pm);
    return c.json(shown(pm));
  });

  app.get('/v1/payment_methods/:id', async (c) => {
    secretOnly(c);
    return c.json(shown(await load<StoredPaymentMethod>(c.req.param('id'), 'payment_method')));
  });

  app.post('/v1/payment_intents', async (c) => {
    secretOnly(c);
    const form = c.get('form');
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 30) throw invalid('Amount must be at least £0.30 gbp', { code: 'amount_too_small', param: 'amount' });
    const currency = String(form.currency ?? '').toLowerCase();
    if (currency !== 'gbp') throw invalid('The local test gateway takes payments in gbp only.', { param: 'currency' });
    const pmId = form.payment_method ? String(form.payment_method) : null;
    if (pmId) await load<StoredPaymentMethod>(pmId, 'payment_method');
    const id = objectId('pi_');
    const pi: StoredIntent = {
      id, object: 'payment_intent', amount, amount_received: 0, currency, status: pmId ? 'requires_confirmation' : 'requires_payment_method',
      client_secret: `${id}_secret_${objectId('')}`, confirmation_method: String(form.confirmation_method ?? 'automatic'),
      capture_method: 'automatic', payment_method: pmId, payment_method_types: ['card'], latest_charge: null,
      last_payment_error: null, next_action: null, metadata: (form.metadata ?? {}) as Record<string, string>,
      description: form.description ? String(form.description) : null, created: seconds(), livemode: false, _authenticated: false,
    };
    await save(pi);
    if (form.confirm === 'true') return c.json(shown(await locked(id, () => confirm(pi))));
    return c.json(shown(pi));
  });

  app.get('/v1/payment_intents/:id', async (c) => {
    const pi = await load<StoredIntent>(c.req.param('id'), 'payment_intent');
    if (c.get('key') === 'secret') return c.json(shown(pi));
    // With the publishable key (Stripe.js), the client secret proves the page may see it, and it sees only what it needs.
    if (c.get('form').client_secret !== pi.client_secret) throw missing('payment_intent', pi.id);
    const { id, object, amount, currency, status, client_secret, confirmation_method, payment_method, last_payment_error, next_action, created, livemode } = pi;
    return c.json({ id, object, amount, currency, status, client_secret, confirmation_method, payment_method, last_payment_error, next_action, created, livemode });
  });

  app.post('/v1/payment_intents/:id', async (c) => {
    secretOnly(c);
    const id = c.req.param('id');
    return c.json(shown(await locked(id, async () => {
      const pi = await load<StoredIntent>(id, 'payment_intent');
      const form = c.get('form');
      if (form.payment_method !== undefined) {
        if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)) {
          throw invalid(`You cannot update this PaymentIntent's payment method because it has a status of ${pi.status}.`,
            { code: 'payment_intent_unexpected_state' });
        }
        await load<StoredPaymentMethod>(String(form.payment_method), 'payment_method');
        Object.assign(pi, { payment_method: String(form.payment_method), status: 'requires_confirmation', next_action: null, _authenticated: false });
      }
      if (form.metadata) pi.metadata = { ...pi.metadata, ...(form.metadata as Record<string, string>) };
      if (form.description !== undefined) pi.description = String(form.description);
      await save(pi);
      return pi;
    })));
  });

  app.post('/v1/payment_intents/:id/confirm', async (c) => {
    secretOnly(c);
    const id = c.req.param('id');
    return c.json(shown(await locked(id, async () => {
      const pi = await load<StoredIntent>(id, 'payment_intent');
      const form = c.get('form');
      if (form.payment_method) {
        await load<StoredPaymentMethod>(String(form.payment_method), 'payment_method');
        Object.assign(pi, { payment_method: String(form.payment_method), _authenticated: false });
      }
      return confirm(pi);
    })));
  });

  // As Stripe: an intent that has not succeeded (nor is processing, nor was canceled) can be canceled, and then never paid.
  app.post('/v1/payment_intents/:id/cancel', async (c) => {
    secretOnly(c);
    const id = c.req.param('id');
    return c.json(shown(await locked(id, async () => {
      const pi = await load<StoredIntent>(id, 'payment_intent');
      if (pi.status === 'succeeded' || pi.status === 'processing' || pi.status === 'canceled') {
        throw invalid(`You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`, { code: 'payment_intent_unexpected_state' });
      }
      Object.assign(pi, { status: 'canceled', next_action: null, cancellation_reason: String(c.get('form').cancellation_reason ?? 'abandoned') });
      await save(pi);
      return pi;
    })));
  });

  // The bank's 3-D Secure challenge, answered on the stand-in's test page (Stripe's test page has the same two buttons).
  app.post('/v1/payment_intents/:id/test_authentication', async (c) => {
    const id = c.req.param('id');
    return c.json(shown(await locked(id, async () => {
      const pi = await load<StoredIntent>(id, 'payment_intent');
      const form = c.get('form');
      if (c.get('key') === 'publishable' && form.client_secret !== pi.client_secret) throw missing('payment_intent', id);
      if (pi.status !== 'requires_action') {
        throw invalid(`This PaymentIntent does not need authentication: its status is ${pi.status}.`, { code: 'payment_intent_unexpected_state' });
      }
      if (form.outcome === 'approve') {
        Object.assign(pi, { status: 'requires_confirmation', next_action: null, _authenticated: true });
      } else {
        Object.assign(pi, {
          status: 'requires_payment_method', next_action: null, payment_method: null, _authenticated: false,
          last_payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: AUTHENTICATION_FAILED },
        });
        event('payment_intent.payment_failed', pi);
      }
      await save(pi);
      return pi;
    })));
  });

  // A test's way to let a day pass for idempotency (Stripe forgets a key after a day): every key is forgotten now, so
  // the same key again makes a new request. Like the 3-D Secure page, only where this gateway is the provider.
  app.post('/v1/test_helpers/idempotency_keys/forget', async (c) => {
    secretOnly(c);
    return c.json({ object: 'idempotency_keys', forgotten: await forgetIdempotencyKeys() });
  });

  // Refunds, as Stripe's Refunds API: of a succeeded payment intent, at most what was received and not refunded yet;
  // a card refund succeeds at once in test mode. The intent's charge records what was refunded.
  app.post('/v1/refunds', async (c) => {
    secretOnly(c);
    const form = c.get('form');
    const intentId = String(form.payment_intent ?? '');
    if (!intentId) throw invalid('Refunds need a payment_intent.', { param: 'payment_intent' });
    return c.json(await locked(intentId, async () => {
      const pi = await load<StoredIntent>(intentId, 'payment_intent');
      if (pi.status !== 'succeeded' || !pi.latest_charge) {
        throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, { code: 'charge_not_refundable' });
      }
      const charge = await load<{ id: string; amount: number; amount_refunded?: number; refunded?: boolean }>(pi.latest_charge, 'charge');
      const left = charge.amount - (charge.amount_refunded ?? 0);
      const amount = form.amount === undefined ? left : Number(form.amount);
      if (!Number.isInteger(amount) || amount <= 0) throw invalid('Invalid positive integer', { param: 'amount' });
      if (amount > left) {
        throw invalid(`Refund amount (£${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (£${(left / 100).toFixed(2)})`,
          { code: 'amount_too_large', param: 'amount' });
      }
      const refund = {
        id: objectId('re_'), object: 'refund', amount, currency: pi.currency, charge: charge.id, payment_intent: pi.id,
        status: 'succeeded', reason: form.reason ? String(form.reason) : null, metadata: (form.metadata ?? {}) as Record<string, string>,
        created: seconds(),
      };
      await save(refund);
      Object.assign(charge, { amount_refunded: (charge.amount_refunded ?? 0) + amount, refunded: (charge.amount_refunded ?? 0) + amount === charge.amount });
      await save(charge as never);
      return refund;
    }));
  });

  // As Stripe lists refunds: newest first, of one payment intent or charge when named, `limit` (1 to 100, 10 when
  // none) at a time, the next page after `starting_after` (the previous page's last id), or before `ending_before`.
  app.get('/v1/refunds', async (c) => {
    secretOnly(c);
    const form = c.get('form') as Record<string, string | undefined>;
    const limit = form.limit === undefined ? 10 : Number(form.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('This value must be between 1 and 100.', { param: 'limit' });
    const cursor = form.starting_after ?? form.ending_before ?? null;
    if (cursor !== null) await load(cursor, 'refund');
    // Newest first after the cursor; before it, the oldest first (then shown newest first).
    const older = form.ending_before === undefined;
    const [than, order] = older ? ['<', 'DESC'] : ['>', 'ASC'];
    const rows = await opts.db.query<{ data: object }>(
      `SELECT o.data FROM test_gateway_objects o LEFT JOIN test_gateway_objects k ON k.id = $3
        WHERE o.kind = 'refund' AND ($1::text IS NULL OR o.data->>'payment_intent' = $1) AND ($2::text IS NULL OR o.data->>'charge' = $2)
          AND ($3::text IS NULL OR (o.created_at, o.id) ${than} (k.created_at, k.id))
        ORDER BY o.created_at ${order}, o.id ${order} LIMIT $4`,
      [form.payment_intent ?? null, form.charge ?? null, cursor, limit + 1]);
    const page = rows.slice(0, limit).map((r) => r.data);
    return c.json({ object: 'list', url: '/v1/refunds', has_more: rows.length > limit, data: older ? page : page.reverse() });
  });

  app.get('/v1/refunds/:id', async (c) => {
    secretOnly(c);
    return c.json(await load<object>(c.req.param('id'), 'refund'));
  });

  app.get('/v1/charges/:id', async (c) => {
    secretOnly(c);
    return c.json(await load<object>(c.req.param('id'), 'charge'));
  });

  app.all('*', (c) => c.json({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${c.req.method}: ${c.req.path}).` } }, 404));
  app.onError((err, c) => {
    if (err instanceof GatewayError) return c.json({ error: err.body }, err.status as 400);
    console.error('Test gateway:', err);
    return c.json({ error: { type: 'api_error', message: 'An unknown error occurred in the local test gateway.' } }, 500);
  });

  return { app, webhooks, forgetIdempotencyKeys, keys: { publishableKey: opts.publishableKey, secretKey: opts.secretKey, webhookSecret: opts.webhookSecret } };
}

export type TestGateway = ReturnType<typeof testGateway>;
