-- Corporate sign-in tokens (src/server/auth/tokens.ts): only a hash is stored;
-- a token ends after 12 hours unused, 30 days in all, at logout or at a password reset.
CREATE TABLE passenger_tokens (
  token_hash   text PRIMARY KEY,
  passenger_id integer NOT NULL REFERENCES passengers(id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
CREATE INDEX passenger_tokens_passenger ON passenger_tokens (passenger_id) WHERE revoked_at IS NULL;
CREATE INDEX bookings_passenger ON bookings (passenger_id, created_at DESC);
