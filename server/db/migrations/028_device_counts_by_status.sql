-- The device list's counters (all, online, offline, not activated) for an administrator are read from
-- the device counters as well, instead of a count of every device on each visit of the list (157–187 ms
-- at 1,000,000 devices): the counters are now kept by activation state too. f_status is the device's
-- f_status, -1 where it has none. Writers wait while the counts are taken again (SHARE lock), so no
-- device written meanwhile is missed or counted twice.
LOCK TABLE t_device IN SHARE MODE;

ALTER TABLE t_device_count DROP CONSTRAINT t_device_count_pkey;
ALTER TABLE t_device_count ADD COLUMN f_status integer NOT NULL DEFAULT -1;
DELETE FROM t_device_count;
INSERT INTO t_device_count (f_product_id, f_type_id, f_online, f_status, f_count)
  SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), coalesce(f_status, -1), count(*)
  FROM t_device GROUP BY 1, 2, 3, 4;
ALTER TABLE t_device_count ADD PRIMARY KEY (f_product_id, f_type_id, f_online, f_status);

-- As in migration 024, with the fourth key: rows upserted in key order, so concurrent writers cannot
-- deadlock on them; a statement that changes none of the four touches no counter row.
CREATE OR REPLACE FUNCTION t_device_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_status, f_count)
      SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), coalesce(f_status, -1), count(*)
      FROM added GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (f_product_id, f_type_id, f_online, f_status) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_status, f_count)
      SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), coalesce(f_status, -1), -count(*)
      FROM removed GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (f_product_id, f_type_id, f_online, f_status) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSE
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_status, f_count)
      SELECT p, t, o, s, sum(d) FROM (
        SELECT coalesce(f_product_id, 0) AS p, coalesce(f_type_id, 0) AS t, coalesce(t_online, -1) AS o, coalesce(f_status, -1) AS s, 1 AS d FROM added
        UNION ALL
        SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), coalesce(f_status, -1), -1 FROM removed
      ) x GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (f_product_id, f_type_id, f_online, f_status) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  END IF;
  RETURN NULL;
END $$;
