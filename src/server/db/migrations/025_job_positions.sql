-- Following the car (issue 41 §3, decision 57): the last position a driver's page sent for a job, one row per job,
-- kept only while the job is on the way or at the pickup (src/domain/tracking.ts SHARING_STATUSES). A position is
-- personal data: the row goes as soon as the job moves on (on board, finished, declined, cancelled, another driver)
-- and, whatever happens, three hours after it was sent (operator/retention.ts).
CREATE TABLE job_positions (
  booking_id  integer PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  driver_id   integer NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,
  lat         double precision NOT NULL,
  lon         double precision NOT NULL,
  accuracy_m  real,
  recorded_at timestamptz NOT NULL
);
CREATE INDEX job_positions_recorded ON job_positions (recorded_at);

-- On one line: the migration runner splits statements at a semicolon that ends a line (db/migrate.ts).
CREATE FUNCTION forget_job_position() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM job_positions WHERE booking_id = NEW.id; RETURN NEW; END $$;

-- The same statuses as SHARING_STATUSES: any other, or a booking no longer confirmed, or a new driver, ends it.
CREATE TRIGGER job_positions_end AFTER UPDATE OF job_status, driver_id, status ON bookings
  FOR EACH ROW WHEN (NEW.status <> 'confirmed' OR NEW.job_status IS NULL OR NEW.job_status NOT IN ('on_way', 'arrived')
                     OR NEW.driver_id IS DISTINCT FROM OLD.driver_id)
  EXECUTE FUNCTION forget_job_position();
