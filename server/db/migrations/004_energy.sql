-- Energy roll-ups: consumption (kWh) per device and hour and per device and day, derived from the
-- cumulative `energy` readings in t_device_telemetry by server/devices/energy.ts. Rows are recomputed
-- from the raw readings and upserted, so a run may repeat a period or overlap another replica's run.
CREATE TABLE t_device_energy_hour (
  f_device_id integer NOT NULL,
  f_hour timestamptz NOT NULL,
  f_energy double precision NOT NULL,
  f_samples integer NOT NULL,
  f_update_time timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (f_device_id, f_hour)
);
CREATE INDEX t_device_energy_hour_hour_idx ON t_device_energy_hour (f_hour);

-- Days are calendar days of the server's time zone (TZ), the zone the statistics are asked in.
CREATE TABLE t_device_energy_day (
  f_device_id integer NOT NULL,
  f_day date NOT NULL,
  f_energy double precision NOT NULL,
  f_update_time timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (f_device_id, f_day)
);
CREATE INDEX t_device_energy_day_day_idx ON t_device_energy_day (f_day);

-- How far the roll-up has got: every hour before f_until has been rolled up at least once.
CREATE TABLE t_energy_rollup_state (
  f_name varchar(40) PRIMARY KEY,
  f_until timestamptz NOT NULL,
  f_update_time timestamptz NOT NULL DEFAULT now()
);
