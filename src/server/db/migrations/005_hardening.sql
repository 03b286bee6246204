-- Sign-in limits, counted before a password is checked (src/server/auth/throttle.ts):
-- one row per limit key: an e-mail from one client address, a client address, an e-mail.
CREATE TABLE auth_throttle (
  scope          text NOT NULL,
  email          text NOT NULL DEFAULT '',
  client         text NOT NULL DEFAULT '',
  attempts       integer NOT NULL,
  window_started timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, email, client)
);
CREATE INDEX auth_throttle_email ON auth_throttle (email);
DROP TABLE login_attempts;

-- Reset codes are now HMACs with the server secret: codes issued before cannot be checked any more.
UPDATE password_reset_codes SET used_at = now() WHERE used_at IS NULL;

-- Mail is claimed with a lease; an expired lease (a crash while sending) is claimed again.
ALTER TABLE outbound_emails ADD COLUMN lease_until timestamptz;
-- Bodies that carry a secret (reset codes) are erased once the message is sent or given up.
ALTER TABLE outbound_emails ADD COLUMN erase_after_send boolean NOT NULL DEFAULT false;
CREATE INDEX outbound_emails_leased ON outbound_emails (lease_until) WHERE status = 'sending';
UPDATE outbound_emails SET subject = 'Your password reset code', body_text = '', body_html = '', erase_after_send = true,
  status = CASE WHEN status IN ('pending', 'sending') THEN 'cancelled' ELSE status END
 WHERE kind = 'password_reset';

-- Idempotency keys of POST /booking, claimed first in the booking's transaction, with an HMAC of
-- the request so the same key with another body is refused. Keys from before have no hash ('').
CREATE TABLE idempotency_keys (
  key          text PRIMARY KEY,
  request_hash text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
INSERT INTO idempotency_keys (key, request_hash) SELECT idempotency_key, '' FROM bookings WHERE idempotency_key IS NOT NULL;
