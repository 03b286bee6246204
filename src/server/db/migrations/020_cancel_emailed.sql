-- Whether the passenger was e-mailed of their booking's cancellation (issue 39): the booking's page says so. Recorded
-- with the cancellation, in its transaction (manage/cancel.ts; the office's always e-mails, operator/desk.ts), as the
-- e-mail itself is deleted 90 days after it is sent (operator/retention.ts) while the booking's links work for 180
-- days after the pickup. NULL on a booking never cancelled.
ALTER TABLE bookings ADD COLUMN cancel_emailed boolean;

-- Cancelled before: the e-mail was written with every cancellation but a passenger's whose address had used up its
-- allowance, and then the office's notice said so (manage/cancel.ts PASSENGER_NOT_EMAILED). Where no row says that
-- (none written, or removed by retention), it was e-mailed.
UPDATE bookings b SET cancel_emailed = NOT EXISTS (
    SELECT 1 FROM outbound_emails m
     WHERE m.booking_id = b.id AND m.kind = 'booking_change_notice'
       AND m.body_text LIKE '%Not e-mailed: too many messages went to this address in the last hour.%')
  WHERE b.cancelled_at IS NOT NULL;
