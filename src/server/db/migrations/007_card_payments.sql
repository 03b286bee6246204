-- Card payments (src/server/payments). A card booking is written with status 'pending' before its
-- payment intent exists, and completed exactly once (status 'confirmed', payment_status 'paid')
-- by whichever comes first: the browser's booking call, the provider's webhook, or the start-up check.
ALTER TABLE bookings ADD COLUMN payment_intent_id text UNIQUE;
ALTER TABLE bookings ADD COLUMN payment_id text;
ALTER TABLE bookings ADD COLUMN paid_at timestamptz;
CREATE INDEX bookings_pending ON bookings (created_at) WHERE status = 'pending';

-- Provider events already handled: webhooks arrive at least once, and may arrive again.
CREATE TABLE payment_events (
  id          text PRIMARY KEY,
  type        text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The local test gateway's objects (payment methods, intents, charges, idempotency keys), used only
-- when no Stripe keys are configured, so that an intent survives a restart as it would at Stripe.
CREATE TABLE test_gateway_objects (
  id         text PRIMARY KEY,
  kind       text NOT NULL,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
