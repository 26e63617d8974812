-- Unsigned alarms counted by type, for the login summary (/biz/t-alarm/alarmTypeCount): every officer's
-- console reads it at login and again whenever an alarm arrives or is signed, and at the scale of a city
-- (a million alarms, a fifth of them unsigned) a count of the unsigned alarms takes 100–200 ms a call.
-- Kept as t_device_count is (migration 024): by statement-level triggers in the writing statement's own
-- transaction, whoever writes (an alarm raised, a sign-off, an import, plain SQL), so it cannot drift.
-- A signed alarm (status 1) is not counted; f_alarm_type is 0 where an alarm has none.
CREATE TABLE t_alarm_unsigned_count (
  f_alarm_type integer PRIMARY KEY,
  f_count bigint NOT NULL DEFAULT 0
);

-- Rows are upserted in key order, so concurrent writers cannot deadlock on them; a statement that leaves
-- both columns as they were (a photo added, a note changed) touches no counter row.
CREATE FUNCTION t_alarm_unsigned_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO t_alarm_unsigned_count AS c (f_alarm_type, f_count)
      SELECT coalesce(f_alarm_type, 0), count(*) FROM added WHERE f_status = 0 GROUP BY 1 ORDER BY 1
    ON CONFLICT (f_alarm_type) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO t_alarm_unsigned_count AS c (f_alarm_type, f_count)
      SELECT coalesce(f_alarm_type, 0), -count(*) FROM removed WHERE f_status = 0 GROUP BY 1 ORDER BY 1
    ON CONFLICT (f_alarm_type) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSE
    INSERT INTO t_alarm_unsigned_count AS c (f_alarm_type, f_count)
      SELECT t, sum(d) FROM (
        SELECT coalesce(f_alarm_type, 0) AS t, 1 AS d FROM added WHERE f_status = 0
        UNION ALL
        SELECT coalesce(f_alarm_type, 0), -1 FROM removed WHERE f_status = 0
      ) x GROUP BY 1 HAVING sum(d) <> 0 ORDER BY 1
    ON CONFLICT (f_alarm_type) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER t_alarm_unsigned_count_insert AFTER INSERT ON t_alarm
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION t_alarm_unsigned_count_apply();
CREATE TRIGGER t_alarm_unsigned_count_update AFTER UPDATE ON t_alarm
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION t_alarm_unsigned_count_apply();
CREATE TRIGGER t_alarm_unsigned_count_delete AFTER DELETE ON t_alarm
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION t_alarm_unsigned_count_apply();

INSERT INTO t_alarm_unsigned_count (f_alarm_type, f_count)
  SELECT coalesce(f_alarm_type, 0), count(*) FROM t_alarm WHERE f_status = 0 GROUP BY 1;
