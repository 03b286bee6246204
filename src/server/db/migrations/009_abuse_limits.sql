-- Allowances per client address, recipient or booking (src/server/limits.ts): account creations, account
-- look-ups, contact messages, quote requests, guest bookings, confirmations to one address, failed card attempts.
-- One row per (limit, key) and window; counting is one INSERT ... ON CONFLICT DO UPDATE ... WHERE.
CREATE TABLE rate_limits (
  name           text NOT NULL,
  key            text NOT NULL,
  used           integer NOT NULL,
  -- The limit and window in force when the row was last counted (a row may be counted with several keys at once).
  max_used       integer NOT NULL,
  window_minutes integer NOT NULL,
  window_started timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (name, key)
);
CREATE INDEX rate_limits_window ON rate_limits (window_started);

-- Card bookings that were never paid: 'expired' after a day, their personal data removed later (retention).
ALTER TABLE bookings ADD COLUMN personal_data_removed_at timestamptz;
-- Whether a card payment was real money: false for the local test gateway and Stripe's test mode.
ALTER TABLE bookings ADD COLUMN payment_livemode boolean;
