-- Operator data: settings, companies, fleet, rates, known places.
CREATE TABLE settings (
  setting_name  text PRIMARY KEY,
  setting_value text NOT NULL
);

CREATE TABLE companies (
  id            serial PRIMARY KEY,
  company_name  text NOT NULL UNIQUE,
  contact_phone text NOT NULL DEFAULT '',
  contact_email text NOT NULL DEFAULT '',
  address       text NOT NULL DEFAULT '',
  active        boolean NOT NULL DEFAULT true
);

CREATE TABLE vehicle_types (
  id            serial PRIMARY KEY,
  category_name text NOT NULL UNIQUE,
  seats         integer NOT NULL CHECK (seats > 0),
  luggage       integer NOT NULL CHECK (luggage >= 0),
  hand_luggage  integer NOT NULL CHECK (hand_luggage >= 0),
  image         text NOT NULL,
  sort_order    integer NOT NULL DEFAULT 0
);

-- What one company charges for one vehicle type. Money is integer pence.
CREATE TABLE vehicle_rates (
  company_id         integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  vehicle_type_id    integer NOT NULL REFERENCES vehicle_types(id) ON DELETE CASCADE,
  base_fare_pence    integer NOT NULL CHECK (base_fare_pence >= 0),
  minimum_fare_pence integer NOT NULL CHECK (minimum_fare_pence >= 0),
  hourly_rate_pence  integer NOT NULL DEFAULT 0 CHECK (hourly_rate_pence >= 0),
  PRIMARY KEY (company_id, vehicle_type_id)
);

-- Per-mile rate from from_miles upwards, until the next band starts.
CREATE TABLE vehicle_rate_bands (
  company_id      integer NOT NULL,
  vehicle_type_id integer NOT NULL,
  from_miles      integer NOT NULL CHECK (from_miles >= 0),
  per_mile_pence  integer NOT NULL CHECK (per_mile_pence >= 0),
  PRIMARY KEY (company_id, vehicle_type_id, from_miles),
  FOREIGN KEY (company_id, vehicle_type_id) REFERENCES vehicle_rates(company_id, vehicle_type_id) ON DELETE CASCADE
);

CREATE TABLE addresses (
  id       serial PRIMARY KEY,
  address  text NOT NULL UNIQUE,
  postcode text NOT NULL DEFAULT '',
  lat      double precision NOT NULL,
  lon      double precision NOT NULL,
  kind     text NOT NULL DEFAULT 'place'
);

-- Passengers and their bookings.
CREATE TABLE passengers (
  id            serial PRIMARY KEY,
  name          text NOT NULL,
  email         text NOT NULL,
  phone         text NOT NULL DEFAULT '',
  password_hash text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX passengers_email_account ON passengers (lower(email)) WHERE password_hash IS NOT NULL;

CREATE TABLE bookings (
  id                         serial PRIMARY KEY,
  booking_number             text NOT NULL UNIQUE,
  idempotency_key            text UNIQUE,
  ride_type                  text NOT NULL,
  booking_type               text NOT NULL,
  company_id                 integer NOT NULL REFERENCES companies(id),
  vehicle_type_id            integer NOT NULL REFERENCES vehicle_types(id),
  passenger_id               integer REFERENCES passengers(id),
  registration_mode          text NOT NULL,
  pick_up_address            text NOT NULL,
  drop_off_address           text,
  pick_up_date               date NOT NULL,
  pick_up_time               text NOT NULL,
  return_date                date,
  return_time                text,
  hourly_duration            text,
  flight_no                  text,
  return_flight_no           text,
  via_miles                  double precision,
  time_duration              integer,
  vehicle_qty                integer NOT NULL DEFAULT 1,
  unit_price_pence           integer NOT NULL,
  total_booking_amount_pence integer NOT NULL,
  price_breakdown            jsonb NOT NULL,
  payment_method             text NOT NULL,
  payment_status             text NOT NULL,
  status                     text NOT NULL DEFAULT 'confirmed',
  created_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bookings_created_at ON bookings (created_at DESC);

CREATE TABLE booking_details (
  booking_id       integer PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  meet_and_greet   text NOT NULL DEFAULT 'no',
  baby_seat        integer NOT NULL DEFAULT 0,
  booster_seat     integer NOT NULL DEFAULT 0,
  wheel_chair      text NOT NULL DEFAULT 'no',
  special_luggages integer NOT NULL DEFAULT 0,
  waiting_minutes  integer NOT NULL DEFAULT 0,
  luggages         integer NOT NULL DEFAULT 0,
  hand_luggages    integer NOT NULL DEFAULT 0,
  vehicle_qty      integer NOT NULL DEFAULT 1,
  return_options   jsonb
);

CREATE TABLE booking_stops (
  id                 serial PRIMARY KEY,
  booking_id         integer NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  leg                text NOT NULL DEFAULT 'outbound',
  position           integer NOT NULL,
  stop_address       text NOT NULL,
  stop_post_code     text NOT NULL DEFAULT '',
  stop_street_number text NOT NULL DEFAULT ''
);

CREATE TABLE booking_passengers (
  booking_id           integer PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  passenger_id         integer REFERENCES passengers(id),
  passenger_name       text NOT NULL,
  passenger_email      text NOT NULL,
  passenger_contact_no text NOT NULL,
  total_passengers     integer NOT NULL DEFAULT 0,
  additional_info      text NOT NULL DEFAULT ''
);
