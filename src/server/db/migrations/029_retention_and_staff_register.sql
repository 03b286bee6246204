-- Keeping personal data only as long as needed (issue 43 §4, decision 60), and the register of booking and dispatch
-- staff (the DfT Statutory Taxi and Private Hire Vehicle Standards).
--
-- A booking's personal data goes RECORDS_RETENTION_MONTHS after its journey (bookings.personal_data_removed_at, from
-- migration 009, marks it done); the daily job (src/server/privacy/job.ts) looks for bookings not yet done whose
-- pickup is long past, in batches: this index holds only those still to do, so it stays small however old the
-- database grows.
CREATE INDEX bookings_personal_kept ON bookings (pickup_at) WHERE personal_data_removed_at IS NULL;

-- A passenger's contact record made anonymous: a guest's once none of its bookings is kept, an account's when it is
-- closed (erased on request: its password goes with its data).
ALTER TABLE passengers ADD COLUMN personal_data_removed_at timestamptz;
CREATE INDEX passengers_personal_kept ON passengers (id) WHERE personal_data_removed_at IS NULL AND password_hash IS NULL;

-- A VAT invoice is kept whole for INVOICE_RETENTION_YEARS after its date; then its buyer and journey are made
-- anonymous (its number, lines and amounts stay in the accounts).
ALTER TABLE invoices ADD COLUMN personal_data_removed_at timestamptz;

-- The staff register: the DBS certificate number each member of staff showed and the date it was seen. Both or neither.
ALTER TABLE staff ADD COLUMN dbs_number text;
ALTER TABLE staff ADD COLUMN dbs_seen_on date;
ALTER TABLE staff ADD CONSTRAINT staff_dbs_both CHECK ((dbs_number IS NULL) = (dbs_seen_on IS NULL));
