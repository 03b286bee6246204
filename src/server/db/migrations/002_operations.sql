-- Places the operator will not serve: a pickup, drop-off or stop containing the text is refused.
CREATE TABLE banned_addresses (
  id         serial PRIMARY KEY,
  pattern    text NOT NULL UNIQUE,
  reason     text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Every message the site sends, written before it is sent, so a mail outage loses nothing.
CREATE TABLE outbound_emails (
  id              serial PRIMARY KEY,
  kind            text NOT NULL,
  to_address      text NOT NULL,
  reply_to        text,
  subject         text NOT NULL,
  body_text       text NOT NULL,
  body_html       text NOT NULL,
  booking_id      integer REFERENCES bookings(id) ON DELETE SET NULL,
  status          text NOT NULL DEFAULT 'pending',
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX outbound_emails_due ON outbound_emails (next_attempt_at) WHERE status = 'pending';

CREATE TABLE quote_requests (
  id              serial PRIMARY KEY,
  pickup_address  text NOT NULL,
  dropoff_address text NOT NULL,
  pickup_date     date NOT NULL,
  pickup_time     text NOT NULL,
  passenger_name  text NOT NULL,
  passenger_email text NOT NULL,
  passenger_phone text NOT NULL,
  passengers      integer NOT NULL,
  luggages        integer NOT NULL,
  additional_info text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE contact_messages (
  id             serial PRIMARY KEY,
  first_name     text NOT NULL,
  last_name      text NOT NULL,
  email          text NOT NULL,
  telephone      text NOT NULL,
  query_reason   text NOT NULL,
  booking_number text NOT NULL DEFAULT '',
  comments       text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE bookings ADD COLUMN return_via_miles double precision;
ALTER TABLE bookings ADD COLUMN pickup_at timestamptz;
