-- The operator's desk (issue 26): staff who sign in to /operator, their sessions, what they did, and what a
-- booking carries once the office handles it (driver, completion, cancellation, refunds).
CREATE TABLE staff (
  id            serial PRIMARY KEY,
  email         text NOT NULL,
  name          text NOT NULL,
  -- admin: everything; dispatcher: every booking; company: only its own company's bookings.
  role          text NOT NULL CHECK (role IN ('admin', 'dispatcher', 'company')),
  company_id    integer REFERENCES companies(id),
  password_hash text NOT NULL,
  active        boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((role = 'company') = (company_id IS NOT NULL))
);
CREATE UNIQUE INDEX staff_email ON staff (lower(email));

-- As passenger_tokens: only a hash is kept; a session ends after 12 hours unused or at sign-out.
CREATE TABLE staff_sessions (
  token_hash   text PRIMARY KEY,
  staff_id     integer NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id) WHERE revoked_at IS NULL;

-- Every change made from the console: who, when, to what, and the values before and after.
CREATE TABLE audit_log (
  id         bigserial PRIMARY KEY,
  staff_id   integer REFERENCES staff(id) ON DELETE SET NULL,
  staff_name text NOT NULL,
  action     text NOT NULL,
  booking_id integer REFERENCES bookings(id) ON DELETE SET NULL,
  subject    text NOT NULL DEFAULT '',
  before     jsonb,
  after      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_booking ON audit_log (booking_id, id);

ALTER TABLE bookings ADD COLUMN driver jsonb;
ALTER TABLE bookings ADD COLUMN completed_at timestamptz;
ALTER TABLE bookings ADD COLUMN cancelled_at timestamptz;
ALTER TABLE bookings ADD COLUMN cancel_reason text;
CREATE INDEX bookings_pickup ON bookings (pickup_at);

-- A refund is written (pending) in the same statement that cancels the booking, so it exists once whatever is pressed
-- twice; the card provider is then asked with the refund's own idempotency key, so a retry never refunds again.
CREATE TABLE refunds (
  id                 serial PRIMARY KEY,
  booking_id         integer NOT NULL REFERENCES bookings(id),
  amount_pence       integer NOT NULL CHECK (amount_pence > 0),
  status             text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider_refund_id text,
  last_error         text,
  staff_id           integer REFERENCES staff(id) ON DELETE SET NULL,
  idempotency_key    text NOT NULL UNIQUE DEFAULT replace(gen_random_uuid()::text, '-', ''),
  created_at         timestamptz NOT NULL DEFAULT now(),
  refunded_at        timestamptz
);
CREATE UNIQUE INDEX refunds_one_per_booking ON refunds (booking_id);
