-- The ingest updates a reporting device's row with every batch (its switch, lock and state time, which
-- no index holds): room left in each page lets such an update stay on its page without new index
-- entries (a HOT update). New pages keep it; the pages already full gain it as rows move or on VACUUM FULL.
ALTER TABLE t_device SET (fillfactor = 85);
