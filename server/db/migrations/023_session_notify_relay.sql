-- The session cache's notices (migration 017) travel on the relay's channel (server/relay.ts) as its
-- `session` topic, so each replica holds one listening connection, not one per channel. The triggers
-- stay as they were: whichever path (a call, an import, a hand-written SQL statement) changes what the
-- cache holds still announces it on commit, now as {"t":"session","i":["user:<id>"]}.
CREATE OR REPLACE FUNCTION session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
  notice text;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 't_sys_token_revoked' THEN
    notice := 'token:' || changed.jti;
  ELSIF TG_TABLE_NAME = 't_sys_user' THEN
    notice := 'user:' || changed.f_id;
  ELSIF TG_TABLE_NAME = 't_sys_user_role' THEN
    notice := 'user:' || changed.user_id;
  ELSE
    notice := 'all';
  END IF;
  PERFORM pg_notify('relay', json_build_object('t', 'session', 'i', json_build_array(notice))::text);
  RETURN NULL;
END $$;
