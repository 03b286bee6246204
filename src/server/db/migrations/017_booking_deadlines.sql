-- Issue 39: a booking's deadlines count from the pickup it was booked for, and its e-mail address is changed a few
-- times at most (decision 49).
--
-- The pickup the booking was made for. A change never moves the free-cancellation deadline or the change cut-off
-- later than this one's (src/domain/manageRules.ts deadlinePickup). Written with the booking (bookings/queries.ts);
-- a booking written another way (the demo seeds) gets it from its pickup when a change first moves that.
ALTER TABLE bookings ADD COLUMN original_pickup_at timestamptz;
-- Bookings made before: the pickup before their first change, if they have one (kept as the UK wall-clock time of
-- the change form; the October hour that happens twice is its second, GMT, as the site reads it), else their pickup.
UPDATE bookings b SET original_pickup_at = coalesce((
    SELECT ((c.before->>'pickup_date')::date
            + make_interval(hours => (substring(c.before->>'pickup_hour' from '^[0-9]+')::int % 12)
                                     + CASE WHEN c.before->>'pickup_hour' LIKE '%pm' THEN 12 ELSE 0 END,
                            mins => (c.before->>'pickup_min')::int)) AT TIME ZONE 'Europe/London'
      FROM booking_changes c WHERE c.booking_id = b.id ORDER BY c.id LIMIT 1), b.pickup_at);

-- How often a passenger gave the booking another e-mail address (counted when the change is asked for, in the
-- change's transaction: UPDATE ... WHERE passenger_email_changes < 3).
ALTER TABLE bookings ADD COLUMN passenger_email_changes integer NOT NULL DEFAULT 0;
UPDATE bookings b SET passenger_email_changes = (
    SELECT count(*) FROM booking_changes c
     WHERE c.booking_id = b.id AND lower(trim(c.before->>'passenger_email')) <> lower(trim(c.after->>'passenger_email')))
 WHERE EXISTS (SELECT 1 FROM booking_changes c WHERE c.booking_id = b.id);
