-- Who a token belongs to is cached in each server process (server/auth/sessions.ts). Any change to what
-- that cache holds — a user's status, expiry, password time or roles, a role's menus, a menu's code, a
-- revoked token — is announced on the session_cache channel on commit, to every replica, whichever
-- path (a call, an import, a hand-written SQL statement) made it.
CREATE OR REPLACE FUNCTION session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 't_sys_token_revoked' THEN
    PERFORM pg_notify('session_cache', 'token:' || changed.jti);
  ELSIF TG_TABLE_NAME = 't_sys_user' THEN
    PERFORM pg_notify('session_cache', 'user:' || changed.f_id);
  ELSIF TG_TABLE_NAME = 't_sys_user_role' THEN
    PERFORM pg_notify('session_cache', 'user:' || changed.user_id);
  ELSE
    PERFORM pg_notify('session_cache', 'all');
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS session_changed ON t_sys_user;
CREATE TRIGGER session_changed AFTER INSERT OR DELETE OR UPDATE OF f_chinese_name, f_phone, f_admin, f_user_type, f_status, f_expire_time, f_tokens_valid_after
  ON t_sys_user FOR EACH ROW EXECUTE FUNCTION session_changed();
DROP TRIGGER IF EXISTS session_changed ON t_sys_user_role;
CREATE TRIGGER session_changed AFTER INSERT OR UPDATE OR DELETE ON t_sys_user_role FOR EACH ROW EXECUTE FUNCTION session_changed();
DROP TRIGGER IF EXISTS session_changed ON t_sys_role_menu;
CREATE TRIGGER session_changed AFTER INSERT OR UPDATE OR DELETE ON t_sys_role_menu FOR EACH ROW EXECUTE FUNCTION session_changed();
DROP TRIGGER IF EXISTS session_changed ON t_sys_permission_menu;
CREATE TRIGGER session_changed AFTER INSERT OR UPDATE OR DELETE ON t_sys_permission_menu FOR EACH ROW EXECUTE FUNCTION session_changed();
DROP TRIGGER IF EXISTS session_changed ON t_sys_token_revoked;
CREATE TRIGGER session_changed AFTER INSERT ON t_sys_token_revoked FOR EACH ROW EXECUTE FUNCTION session_changed();
