-- The driver's side (issue 41 §2, decision 56): where a dispatched job stands, the driver's sign-in codes and sessions.
-- A job's status lives on its booking (one row to lock); each step is also a row of the booking's timeline (audit_log).
ALTER TABLE bookings ADD COLUMN job_status text CHECK (job_status IN ('assigned', 'accepted', 'declined', 'on_way', 'arrived', 'on_board', 'completed', 'no_show'));
ALTER TABLE bookings ADD COLUMN job_status_at timestamptz;
ALTER TABLE bookings ADD COLUMN arrived_at timestamptz;
-- Who declined the job last (the board flags it until another driver is assigned).
ALTER TABLE bookings ADD COLUMN declined_by text;

-- A one-time code sent by SMS to a driver's mobile: only an HMAC of it is kept; 10 minutes, 5 tries, one use.
CREATE TABLE driver_codes (
  id          serial PRIMARY KEY,
  driver_id   integer NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,
  code_hash   text NOT NULL,
  tries       integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX driver_codes_driver ON driver_codes (driver_id, id DESC);

-- A session per device: ended by sign-out, by the office making the driver inactive, and after 30 days unused.
CREATE TABLE driver_sessions (
  token_hash   text PRIMARY KEY,
  driver_id    integer NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX driver_sessions_driver ON driver_sessions (driver_id);
