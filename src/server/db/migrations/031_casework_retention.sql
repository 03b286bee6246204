-- Complaints and lost property are kept with the booking records (issue 43 §3, §4): when their booking's personal data
-- goes, or (an entry about no booking) once closed for the records time, their contact details and free texts go too,
-- and the entry stays as the operator's record (dates, kind, status, driver, vehicle). Marked once done.
ALTER TABLE complaints ADD COLUMN personal_data_removed_at timestamptz;
ALTER TABLE lost_property ADD COLUMN personal_data_removed_at timestamptz;
CREATE INDEX complaints_to_remove ON complaints (closed_at) WHERE personal_data_removed_at IS NULL AND booking_id IS NULL;
CREATE INDEX lost_property_to_remove ON lost_property (closed_at) WHERE personal_data_removed_at IS NULL AND booking_id IS NULL;
