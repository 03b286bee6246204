-- Issue 40: a booking's confirmation and the office's notice are written with the booking as what they are made from
-- (the template and its data, a few hundred bytes of JSON), and the mail queue renders them when it hands them over.
-- Their rendered bodies (about 8 kB each) were compressed into the row inside the booking's one statement, a third of
-- its time. A row with a template has empty bodies; every other message is written rendered, as before.
ALTER TABLE outbound_emails ADD COLUMN template text;
ALTER TABLE outbound_emails ADD COLUMN template_data text;
