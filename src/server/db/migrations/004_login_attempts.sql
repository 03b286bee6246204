-- Failed password checks, for rate limiting (check-passenger-email and existing-client bookings).
CREATE TABLE login_attempts (
  id         serial PRIMARY KEY,
  email      text NOT NULL,
  succeeded  boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_recent ON login_attempts (lower(email), created_at DESC);
