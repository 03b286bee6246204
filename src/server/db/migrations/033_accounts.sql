-- Corporate accounts that pay monthly on one invoice (issue 44, decision 62).
--
-- An account is a company the operator bills: its bookers are passengers with a sign-in (passengers.account_id). A
-- company's staff look after their own company's accounts only (company_id; NULL: the office's own).
CREATE TABLE accounts (
  id                 serial PRIMARY KEY,
  name               text NOT NULL,
  address            text NOT NULL DEFAULT '',
  billing_email      text NOT NULL,
  vat_number         text NOT NULL DEFAULT '',
  terms_days         integer NOT NULL DEFAULT 30 CHECK (terms_days BETWEEN 0 AND 120),
  credit_limit_pence integer NOT NULL CHECK (credit_limit_pence >= 0),
  -- 'active' books on account; 'suspended' (with a reason its bookers are shown) and 'closed' do not.
  status             text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'closed')),
  status_reason      text NOT NULL DEFAULT '',
  company_id         integer REFERENCES companies(id),
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_name ON accounts (lower(name));

ALTER TABLE passengers ADD COLUMN account_id integer REFERENCES accounts(id);
CREATE INDEX passengers_account ON passengers (account_id) WHERE account_id IS NOT NULL;

-- The booking fields an account requires or offers (PO number, cost centre...): free text, or one of `options`.
CREATE TABLE account_fields (
  id         serial PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts(id),
  label      text NOT NULL,
  required   boolean NOT NULL DEFAULT false,
  -- Empty: free text; otherwise the values allowed.
  options    jsonb NOT NULL DEFAULT '[]'::jsonb,
  position   integer NOT NULL DEFAULT 0,
  active     boolean NOT NULL DEFAULT true
);
CREATE UNIQUE INDEX account_fields_label ON account_fields (account_id, lower(label));

-- A booking paid on account: the account billed and the values of its fields as given (label -> value), kept as
-- booked whatever the account's fields become.
ALTER TABLE bookings ADD COLUMN account_id integer REFERENCES accounts(id);
ALTER TABLE bookings ADD COLUMN account_fields jsonb;
CREATE INDEX bookings_account ON bookings (account_id, pick_up_date) WHERE account_id IS NOT NULL;

-- The account's monthly invoice is an invoice of the site's one gap-free sequence (invoice_counter), for an account
-- and a month instead of a booking. One per account and month: two runs at once cannot both issue it.
ALTER TABLE invoices ALTER COLUMN booking_id DROP NOT NULL;
ALTER TABLE invoices ADD COLUMN account_id integer REFERENCES accounts(id);
ALTER TABLE invoices ADD COLUMN period_start date;
ALTER TABLE invoices ADD COLUMN due_on date;
ALTER TABLE invoices ADD COLUMN paid_on date;
ALTER TABLE invoices ADD COLUMN paid_by text;
-- What the statement asks to be paid: the invoice and the notes carried onto it (credit less, debit more).
ALTER TABLE invoices ADD COLUMN amount_due_pence integer;
ALTER TABLE invoices ADD CONSTRAINT invoices_one_subject CHECK ((booking_id IS NULL) <> (account_id IS NULL));
ALTER TABLE invoices ADD CONSTRAINT invoices_account_month CHECK (account_id IS NULL OR (period_start IS NOT NULL AND due_on IS NOT NULL AND amount_due_pence IS NOT NULL));
CREATE UNIQUE INDEX invoices_account_period ON invoices (account_id, period_start) WHERE account_id IS NOT NULL;

-- The journeys on an account's invoice, each on one invoice only, with what it was invoiced at.
CREATE TABLE invoice_bookings (
  invoice_number integer NOT NULL REFERENCES invoices(number),
  booking_id     integer NOT NULL UNIQUE REFERENCES bookings(id),
  gross_pence    integer NOT NULL
);
CREATE INDEX invoice_bookings_invoice ON invoice_bookings (invoice_number);

-- A note is for one booking's difference (a booking's own invoice, or its line on an account's); an account's note
-- is carried onto the account's next invoice (its statement).
ALTER TABLE invoice_notes ADD COLUMN booking_id integer REFERENCES bookings(id);
UPDATE invoice_notes n SET booking_id = i.booking_id FROM invoices i WHERE i.number = n.invoice_number;
ALTER TABLE invoice_notes ALTER COLUMN booking_id SET NOT NULL;
ALTER TABLE invoice_notes ADD COLUMN carried_to integer REFERENCES invoices(number);
CREATE INDEX invoice_notes_booking ON invoice_notes (booking_id);

