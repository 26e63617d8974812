-- A staff member's jurisdiction (server/domain/jurisdiction.ts): the regions (t_area_info codes, any
-- level) and streets (t_street_info codes) whose rental houses and alarms they see, as the legacy user
-- carries them (fAreaIds, streets: comma lists). The cached caller holds it with its descendants worked
-- out, so a change of either list, or of the region tree, is announced like the rest of what the
-- session cache holds (migrations 017 and 023).
ALTER TABLE t_sys_user ADD COLUMN IF NOT EXISTS f_area_ids varchar(500);
ALTER TABLE t_sys_user ADD COLUMN IF NOT EXISTS streets varchar(500);

DROP TRIGGER IF EXISTS session_changed ON t_sys_user;
CREATE TRIGGER session_changed AFTER INSERT OR DELETE OR UPDATE OF f_chinese_name, f_phone, f_admin, f_user_type, f_status, f_expire_time, f_tokens_valid_after, f_area_ids, streets
  ON t_sys_user FOR EACH ROW EXECUTE FUNCTION session_changed();
DROP TRIGGER IF EXISTS session_changed ON t_area_info;
CREATE TRIGGER session_changed AFTER INSERT OR DELETE OR UPDATE OF f_area_id, f_high_area_id
  ON t_area_info FOR EACH ROW EXECUTE FUNCTION session_changed();
