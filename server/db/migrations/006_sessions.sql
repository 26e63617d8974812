-- Ending sessions on the server: a logged-out token is refused until it would have expired anyway,
-- and a password change ends every session the user had.
CREATE TABLE t_sys_token_revoked (
  jti varchar(64) PRIMARY KEY,
  f_expires_at timestamptz NOT NULL
);
ALTER TABLE t_sys_user ADD COLUMN f_tokens_valid_after timestamptz;
