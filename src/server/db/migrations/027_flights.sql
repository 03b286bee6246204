-- Airport pickups that follow the flight (issue 42, decision 58).
-- One row per flight watched: its number as stored ("BA 283"), the UK date and the airport of the pickups on it; what
-- the flight status service last said; when it is checked next and who holds the lease to check it now. However many
-- bookings are on a flight, and however many server processes run, it is one row and one call per check.
CREATE TABLE flights (
  id                serial PRIMARY KEY,
  ident             text NOT NULL,
  flight_date       date NOT NULL,
  airport           text NOT NULL,
  next_check_at     timestamptz NOT NULL DEFAULT now(),
  lease_until       timestamptz,
  checked_at        timestamptz,
  unavailable_since timestamptz,
  failures          integer NOT NULL DEFAULT 0,
  last_error        text,
  found             boolean,
  status            text,
  origin            text,
  scheduled_in      timestamptz,
  estimated_in      timestamptz,
  actual_in         timestamptz,
  terminal          text,
  UNIQUE (ident, flight_date, airport)
);
CREATE INDEX flights_due ON flights (next_check_at);

-- A booking on a watched flight: its pickup as booked and as last told to the driver, the office and the passenger,
-- and the flight status the office was last told of (a diverted or cancelled flight is told once).
CREATE TABLE booking_flights (
  booking_id     integer PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  flight_id      integer NOT NULL REFERENCES flights(id) ON DELETE CASCADE,
  booked_at      timestamptz NOT NULL,
  told_pickup_at timestamptz NOT NULL,
  told_status    text
);
CREATE INDEX booking_flights_flight ON booking_flights (flight_id);

-- Calls made to an outside provider, per minute and per day (bucket 'm:2026-12-12T06:40' or 'd:2026-12-12'): the
-- allowance of its plan is taken in one statement, so processes sharing the database never exceed it together.
CREATE TABLE provider_calls (
  provider text NOT NULL,
  bucket   text NOT NULL,
  calls    integer NOT NULL,
  at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, bucket)
);

-- The local test flight service's flights (FLIGHT_STATUS=test), as a test or a demo scripts them: a flight on one
-- date, or every day (flight_date NULL); ident '*' scripts the service itself (down, nonsense, slow).
CREATE TABLE test_flights (
  id             serial PRIMARY KEY,
  ident          text NOT NULL,
  flight_date    date,
  airport        text NOT NULL DEFAULT '',
  origin         text NOT NULL DEFAULT '',
  scheduled_time text NOT NULL DEFAULT '',
  outcome        text NOT NULL,
  minutes        integer NOT NULL DEFAULT 0,
  terminal       text,
  calls          integer NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX test_flights_one ON test_flights (ident, coalesce(flight_date, '0001-01-01'::date));
