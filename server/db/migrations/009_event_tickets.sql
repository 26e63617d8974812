-- Short-lived single-use tickets that open the live event stream: EventSource cannot send a header, and
-- a long-lived token in a URL stays in proxy logs and browser history. A row, so any replica accepts it.
CREATE TABLE t_event_ticket (
  ticket varchar(64) PRIMARY KEY,
  user_id integer NOT NULL REFERENCES t_sys_user (f_id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
