-- The indexes the user and role lists need (declared in schemas/user.schema.json and role.schema.json,
-- whose tables are made by hand-written migrations): keyword search by name, phone and alias, and the
-- status, administrator and user-type filters read in the list's order.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX IF NOT EXISTS t_sys_user_f_chinese_name_trgm ON t_sys_user USING gin (f_chinese_name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS t_sys_user_f_phone_trgm ON t_sys_user USING gin (f_phone gin_trgm_ops);
CREATE INDEX IF NOT EXISTS t_sys_user_f_status_f_id_idx ON t_sys_user (f_status, f_id);
CREATE INDEX IF NOT EXISTS t_sys_user_f_admin_f_id_idx ON t_sys_user (f_admin, f_id);
CREATE INDEX IF NOT EXISTS t_sys_user_f_user_type_f_id_idx ON t_sys_user (f_user_type, f_id);
CREATE INDEX IF NOT EXISTS t_sys_role_name_trgm ON t_sys_role USING gin (name gin_trgm_ops);
CREATE INDEX IF NOT EXISTS t_sys_role_alias_trgm ON t_sys_role USING gin (alias gin_trgm_ops);
