-- A message may go to a second address as a copy (issue 26): the office's notice of a booking goes to the office with
-- the company that drives it in Cc, one message rendered and delivered once instead of one per address.
ALTER TABLE outbound_emails ADD COLUMN cc_address text;
