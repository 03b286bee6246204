-- Drivers and cars on record (issue 41 §1, decision 54): what a licensed operator must know of who drives and what is
-- driven. Each belongs to one company; a company's staff see and change their own only. A booking is dispatched to a
-- driver and a car from here, and keeps a copy of what was true then (bookings.driver, with driver_id and car_id).
CREATE TABLE drivers (
  id                  serial PRIMARY KEY,
  name                text NOT NULL,
  -- E.164, a UK mobile: the driver signs in with it and jobs are sent to it.
  mobile              text NOT NULL UNIQUE,
  email               text NOT NULL DEFAULT '',
  licence_number      text NOT NULL,
  licensing_authority text NOT NULL,
  licence_expiry      date NOT NULL,
  company_id          integer NOT NULL REFERENCES companies(id),
  active              boolean NOT NULL DEFAULT true,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (licensing_authority, licence_number)
);
CREATE INDEX drivers_company ON drivers (company_id, name);

CREATE TABLE cars (
  id               serial PRIMARY KEY,
  -- As the plate shows it (LB19 XKE); `plate_key` is the same without spaces, so one car is one record.
  registration     text NOT NULL,
  plate_key        text NOT NULL UNIQUE,
  make             text NOT NULL,
  model            text NOT NULL,
  colour           text NOT NULL,
  vehicle_type_id  integer NOT NULL REFERENCES vehicle_types(id),
  passengers       integer NOT NULL CHECK (passengers >= 1),
  suitcases        integer NOT NULL CHECK (suitcases >= 0),
  wheelchair       boolean NOT NULL DEFAULT false,
  licence_number   text NOT NULL,
  licence_expiry   date NOT NULL,
  mot_expiry       date NOT NULL,
  insurance_expiry date NOT NULL,
  company_id       integer NOT NULL REFERENCES companies(id),
  active           boolean NOT NULL DEFAULT true,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cars_company ON cars (company_id, registration);

-- The driver and car a booking was dispatched to (its copy in `driver` says what they were then).
ALTER TABLE bookings ADD COLUMN driver_id integer REFERENCES drivers(id);
ALTER TABLE bookings ADD COLUMN car_id integer REFERENCES cars(id);
ALTER TABLE bookings ADD COLUMN dispatched_at timestamptz;
CREATE INDEX bookings_driver ON bookings (driver_id, pickup_at) WHERE driver_id IS NOT NULL;
