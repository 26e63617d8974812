-- Several replicas of the server on one database.
-- Login limits are counted here, not in each process, so they hold whichever replica answers: one row
-- per key (call, address and account) with its count in the current window.
CREATE TABLE t_rate_limit (
  f_key varchar(300) PRIMARY KEY,
  f_count integer NOT NULL,
  f_reset_at timestamptz NOT NULL
);
CREATE INDEX t_rate_limit_reset_idx ON t_rate_limit (f_reset_at);
-- The replica that sent a command, so the running-status list says where a command that never ended was.
ALTER TABLE t_device_command ADD COLUMN f_replica varchar(100);
-- Every replica looks for commands past their deadline; few rows are ever pending or sent.
CREATE INDEX t_device_command_open_idx ON t_device_command (f_intime) WHERE f_state IN ('pending', 'sent');
