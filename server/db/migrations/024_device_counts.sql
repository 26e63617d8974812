-- Devices counted by product, own type and online state, for the dashboard's device counters and the
-- product list's device counts: at the scale of a city a count of t_device on every read costs 150 ms
-- and more. Kept by statement-level triggers in the writing statement's own transaction, whoever
-- writes (the console, the ingest's batches, an import, plain SQL), so the counts cannot drift.
-- f_product_id and f_type_id are 0 where the device has none, f_online is the device's t_online (-1
-- where it has none); the dashboard reads a device without a type of its own as its product's type.
CREATE TABLE t_device_count (
  f_product_id integer NOT NULL,
  f_type_id integer NOT NULL,
  f_online smallint NOT NULL,
  f_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (f_product_id, f_type_id, f_online)
);

-- Rows are upserted in key order, so concurrent writers cannot deadlock on them; a statement that
-- changes none of the three (a device's name, its last online time) touches no counter row.
CREATE FUNCTION t_device_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_count)
      SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), count(*)
      FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (f_product_id, f_type_id, f_online) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_count)
      SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), -count(*)
      FROM removed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (f_product_id, f_type_id, f_online) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  ELSE
    INSERT INTO t_device_count AS c (f_product_id, f_type_id, f_online, f_count)
      SELECT p, t, o, sum(d) FROM (
        SELECT coalesce(f_product_id, 0) AS p, coalesce(f_type_id, 0) AS t, coalesce(t_online, -1) AS o, 1 AS d FROM added
        UNION ALL
        SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), -1 FROM removed
      ) x GROUP BY 1, 2, 3 HAVING sum(d) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (f_product_id, f_type_id, f_online) DO UPDATE SET f_count = c.f_count + excluded.f_count;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER t_device_count_insert AFTER INSERT ON t_device
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION t_device_count_apply();
CREATE TRIGGER t_device_count_update AFTER UPDATE ON t_device
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION t_device_count_apply();
CREATE TRIGGER t_device_count_delete AFTER DELETE ON t_device
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION t_device_count_apply();

INSERT INTO t_device_count (f_product_id, f_type_id, f_online, f_count)
  SELECT coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), count(*) FROM t_device GROUP BY 1, 2, 3;
