-- Invoices that never change (issue 39, decision 48). A VAT invoice keeps what it showed when it was issued: its
-- lines, net, VAT and gross, the seller and buyer, the journey and the payment in words; a download prints those and
-- nothing read from the booking or the settings since. A later difference in what was paid is a credit or debit note
-- referring to the invoice, each kind numbered without gaps from a counter row of its own.
ALTER TABLE invoices ADD COLUMN lines jsonb;
ALTER TABLE invoices ADD COLUMN net_pence integer;
ALTER TABLE invoices ADD COLUMN vat_pence integer;
ALTER TABLE invoices ADD COLUMN gross_pence integer;
ALTER TABLE invoices ADD COLUMN seller jsonb;
ALTER TABLE invoices ADD COLUMN buyer jsonb;
ALTER TABLE invoices ADD COLUMN journey jsonb;
ALTER TABLE invoices ADD COLUMN payment text;
-- 'issued': written whole when issued; 'migrated': issued before this migration and written from the booking as it
-- stood when the migration ran (its amounts as a download then showed them, its journey in plain rows).
ALTER TABLE invoices ADD COLUMN snapshot text NOT NULL DEFAULT 'issued' CHECK (snapshot IN ('issued', 'migrated'));

-- The invoices of migration 014, which printed the booking as it was at each download: kept as the booking stands
-- now, the total of its price lines (per vehicle in the booking, times the vehicles), net and VAT at the rate the
-- invoice was given. What was paid or refunded apart from that is settled by a note at the next download.
UPDATE invoices i
   SET gross_pence = b.total_booking_amount_pence,
       net_pence = round(b.total_booking_amount_pence * 100 / (100 + i.vat_rate))::int,
       vat_pence = b.total_booking_amount_pence - round(b.total_booking_amount_pence * 100 / (100 + i.vat_rate))::int,
       lines = coalesce((SELECT jsonb_agg(jsonb_build_object(
                                  'description', l.line->>'label',
                                  'pence', round((l.line->>'amount')::numeric * 100)::int * b.vehicle_qty) ORDER BY l.n)
                           FROM jsonb_array_elements(b.price_breakdown->'lines') WITH ORDINALITY AS l(line, n)), '[]'::jsonb),
       seller = jsonb_build_object(
         'name', coalesce((SELECT setting_value FROM settings WHERE setting_name = 'Company_Name'), ''),
         'lines', jsonb_build_array(
           coalesce((SELECT setting_value FROM settings WHERE setting_name = 'Company_Address'), ''),
           concat_ws('  |  ', nullif((SELECT setting_value FROM settings WHERE setting_name = 'Company_Contact_Info'), ''),
                              nullif((SELECT setting_value FROM settings WHERE setting_name = 'Company_Email'), '')))),
       buyer = jsonb_build_object('name', coalesce(p.passenger_name, '')),
       journey = jsonb_build_array(
         jsonb_build_object('label', 'Pickup', 'value', b.pick_up_address),
         jsonb_build_object('label', 'Drop-off', 'value', coalesce(b.drop_off_address, '')),
         jsonb_build_object('label', 'Pickup date', 'value', to_char(b.pick_up_date, 'DD-MM-YYYY')),
         jsonb_build_object('label', 'Pickup time', 'value', b.pick_up_time),
         jsonb_build_object('label', 'Vehicle', 'value', concat(v.category_name, ', ', c.company_name))),
       payment = CASE WHEN b.payment_method = 'card' THEN 'Paid by card'
                      WHEN b.status = 'completed' THEN 'Paid in the car' ELSE 'To be paid in the car' END,
       snapshot = 'migrated'
  FROM bookings b
  JOIN companies c ON c.id = b.company_id
  JOIN vehicle_types v ON v.id = b.vehicle_type_id
  LEFT JOIN booking_passengers p ON p.booking_id = b.id
 WHERE b.id = i.booking_id;

ALTER TABLE invoices ALTER COLUMN lines SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN net_pence SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN vat_pence SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN gross_pence SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN seller SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN buyer SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN journey SET NOT NULL;
ALTER TABLE invoices ALTER COLUMN payment SET NOT NULL;
ALTER TABLE invoices ADD CONSTRAINT invoices_add_up CHECK (net_pence + vat_pence = gross_pence);

-- One counter row per kind of note, locked and raised in the transaction that writes the note (as invoice_counter).
CREATE TABLE invoice_note_counters (
  kind text PRIMARY KEY CHECK (kind IN ('credit', 'debit')),
  last integer NOT NULL
);
INSERT INTO invoice_note_counters (kind, last) VALUES ('credit', 0), ('debit', 0);

-- A credit note (less was paid than invoiced) or a debit note (more), at its invoice's VAT rate. Amounts are positive;
-- the kind says which way.
CREATE TABLE invoice_notes (
  id             serial PRIMARY KEY,
  kind           text NOT NULL CHECK (kind IN ('credit', 'debit')),
  number         integer NOT NULL,
  invoice_number integer NOT NULL REFERENCES invoices(number),
  lines          jsonb NOT NULL,
  net_pence      integer NOT NULL,
  vat_pence      integer NOT NULL,
  gross_pence    integer NOT NULL CHECK (gross_pence > 0),
  vat_rate       numeric NOT NULL,
  issued_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, number),
  CHECK (net_pence + vat_pence = gross_pence)
);
CREATE INDEX invoice_notes_invoice ON invoice_notes (invoice_number, id);
