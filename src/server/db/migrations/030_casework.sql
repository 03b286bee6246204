-- Complaints and lost property (issue 43 §3, decision 61): the two registers a licensed operator keeps with its booking
-- records (London: regulation 15 of SI 2000/3146 for lost property; the licence conditions for complaints). An entry
-- is opened by a Contact Us message (in the message's own transaction: `contact_message_id` is unique, so one message
-- is one entry), by the office, or by a driver who found something in the car. When it names a booking it is linked
-- to it, and keeps a copy of that booking's driver and car as they were dispatched (bookings.driver), with the
-- booking's company, which alone of a company's staff may see it. The reference is kept as typed when no booking has it.
-- Closing sets the outcome and the closing date once (`status` 'open' -> 'closed' in one statement); the e-mail to the
-- complainant or the owner is queued in the same transaction.

CREATE TABLE complaints (
  id                   serial PRIMARY KEY,
  status               text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  source               text NOT NULL CHECK (source IN ('contact_form', 'phone', 'email', 'in_person', 'driver')),
  contact_message_id   integer UNIQUE REFERENCES contact_messages(id) ON DELETE SET NULL,
  booking_reference    text NOT NULL DEFAULT '',
  booking_id           integer REFERENCES bookings(id) ON DELETE SET NULL,
  company_id           integer REFERENCES companies(id),
  -- The day of the journey complained of (the booking's pickup date when linked).
  booking_date         date,
  driver_id            integer REFERENCES drivers(id) ON DELETE SET NULL,
  car_id               integer REFERENCES cars(id) ON DELETE SET NULL,
  driver_name          text NOT NULL DEFAULT '',
  driver_licence       text NOT NULL DEFAULT '',
  vehicle_registration text NOT NULL DEFAULT '',
  contact_name         text NOT NULL DEFAULT '',
  contact_email        text NOT NULL DEFAULT '',
  contact_phone        text NOT NULL DEFAULT '',
  nature               text NOT NULL,
  investigation        text NOT NULL DEFAULT '',
  action_taken         text NOT NULL DEFAULT '',
  notes                text NOT NULL DEFAULT '',
  outcome              text NOT NULL DEFAULT '',
  opened_by            text NOT NULL,
  opened_at            timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  closed_by            text,
  closed_at            timestamptz,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
  CHECK (status = 'open' OR outcome <> '')
);
CREATE INDEX complaints_opened ON complaints (opened_at DESC, id DESC);
CREATE INDEX complaints_company ON complaints (company_id, opened_at DESC) WHERE company_id IS NOT NULL;
CREATE INDEX complaints_booking ON complaints (booking_id) WHERE booking_id IS NOT NULL;

CREATE TABLE lost_property (
  id                   serial PRIMARY KEY,
  -- 'found': in a car (date and place found, attempts to return, disposal); 'reported': lost by a passenger (date and
  -- place lost, searches made).
  kind                 text NOT NULL CHECK (kind IN ('found', 'reported')),
  status               text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  source               text NOT NULL CHECK (source IN ('contact_form', 'phone', 'email', 'in_person', 'driver')),
  contact_message_id   integer UNIQUE REFERENCES contact_messages(id) ON DELETE SET NULL,
  booking_reference    text NOT NULL DEFAULT '',
  booking_id           integer REFERENCES bookings(id) ON DELETE SET NULL,
  company_id           integer REFERENCES companies(id),
  booking_date         date,
  driver_id            integer REFERENCES drivers(id) ON DELETE SET NULL,
  car_id               integer REFERENCES cars(id) ON DELETE SET NULL,
  driver_name          text NOT NULL DEFAULT '',
  driver_licence       text NOT NULL DEFAULT '',
  vehicle_registration text NOT NULL DEFAULT '',
  -- The owner, when known.
  contact_name         text NOT NULL DEFAULT '',
  contact_email        text NOT NULL DEFAULT '',
  contact_phone        text NOT NULL DEFAULT '',
  description          text NOT NULL,
  found_on             date,
  found_place          text NOT NULL DEFAULT '',
  return_attempts      text NOT NULL DEFAULT '',
  disposal             text NOT NULL DEFAULT '',
  reported_on          date,
  lost_on              date,
  lost_place           text NOT NULL DEFAULT '',
  searches             text NOT NULL DEFAULT '',
  notes                text NOT NULL DEFAULT '',
  outcome              text NOT NULL DEFAULT '',
  opened_by            text NOT NULL,
  opened_at            timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  closed_by            text,
  closed_at            timestamptz,
  CHECK ((status = 'closed') = (closed_at IS NOT NULL)),
  CHECK (status = 'open' OR outcome <> ''),
  CHECK (kind <> 'found' OR found_on IS NOT NULL),
  CHECK (kind <> 'reported' OR reported_on IS NOT NULL)
);
CREATE INDEX lost_property_opened ON lost_property (opened_at DESC, id DESC);
CREATE INDEX lost_property_company ON lost_property (company_id, opened_at DESC) WHERE company_id IS NOT NULL;
CREATE INDEX lost_property_booking ON lost_property (booking_id) WHERE booking_id IS NOT NULL;
