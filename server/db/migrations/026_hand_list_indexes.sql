-- The hand-written lists at the scale of a city: each one's order and filters read from an index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The operation log, newest first: as a whole, by operator (the account's id, found by its current name
-- through the user name index, or the name the row kept), by type and by result.
DROP INDEX IF EXISTS t_sys_log_createtime_idx;
CREATE INDEX t_sys_log_createtime_id_idx ON t_sys_log (createtime, id);
CREATE INDEX t_sys_log_user_id_createtime_idx ON t_sys_log (user_id, createtime, id);
CREATE INDEX t_sys_log_user_name_trgm ON t_sys_log USING gin (user_name gin_trgm_ops);
CREATE INDEX t_sys_log_logtype_createtime_idx ON t_sys_log (logtype, createtime, id);
CREATE INDEX t_sys_log_succeed_createtime_idx ON t_sys_log (succeed, createtime, id);

-- The devices' active alarms, newest first (the map's alarm list): a few among years of raised and
-- cleared ones.
CREATE INDEX t_device_alarm_active_intime_idx ON t_device_alarm (f_intime, f_id) WHERE f_active = 1;
