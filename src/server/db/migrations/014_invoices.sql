-- Receipts and VAT invoices (issue 27). An invoice number is drawn from one counter row, in the same transaction that
-- records the invoice, so the numbers have no gaps: a failed issue rolls its number back with it. A booking keeps the
-- number it was first given.
CREATE TABLE invoice_counter (
  id   integer PRIMARY KEY CHECK (id = 1),
  last integer NOT NULL
);
INSERT INTO invoice_counter (id, last) VALUES (1, 0);

CREATE TABLE invoices (
  number     integer PRIMARY KEY,
  booking_id integer NOT NULL UNIQUE REFERENCES bookings(id),
  vat_number text NOT NULL,
  vat_rate   numeric NOT NULL,
  issued_at  timestamptz NOT NULL DEFAULT now()
);
