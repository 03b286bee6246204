-- The car's position is rewritten every 10 to 15 seconds per job on the way (issue 41, decision 57): kept in place.
-- No index names a column that changes (the one on recorded_at goes: retention reads a table of at most one row per
-- job on the way), and half of each page is left free, so each new position is a heap-only update whose old copy the
-- next write to the page clears, with no VACUUM (PGlite runs none by itself): the table stays its size.
DROP INDEX IF EXISTS job_positions_recorded;
ALTER TABLE job_positions SET (fillfactor = 50);
