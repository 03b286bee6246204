-- Manage my booking (issue 27): the keys of the links that open a booking's page, 256 random bits each, stored only
-- as a SHA-256 hash. One is made with the booking (for its confirmation and success page), others by "Find my
-- booking"; each works until some time after the pickup (receipts are asked for later), then says it has expired.
CREATE TABLE booking_keys (
  key_hash   text PRIMARY KEY,
  booking_id integer NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX booking_keys_booking ON booking_keys (booking_id);
