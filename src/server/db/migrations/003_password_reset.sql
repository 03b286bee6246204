-- One-time codes for the forgot-password flow: stored hashed, short-lived, few attempts.
CREATE TABLE password_reset_codes (
  id           serial PRIMARY KEY,
  passenger_id integer NOT NULL REFERENCES passengers(id) ON DELETE CASCADE,
  code_hash    text NOT NULL,
  expires_at   timestamptz NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_reset_codes_passenger ON password_reset_codes (passenger_id, created_at DESC);
