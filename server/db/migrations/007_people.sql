-- The people of the rental-housing side are platform users too (tenants and visitors have fUserType 2):
-- what the profile, the tenant list and the alarm lists show of a person.
ALTER TABLE t_sys_user ADD COLUMN f_idcard varchar(18);
ALTER TABLE t_sys_user ADD COLUMN f_gender varchar(1);
ALTER TABLE t_sys_user ADD COLUMN f_email varchar(100);
ALTER TABLE t_sys_user ADD COLUMN f_work_unit varchar(100);
ALTER TABLE t_sys_user ADD COLUMN f_work_address varchar(200);
CREATE INDEX t_sys_user_f_idcard_idx ON t_sys_user (f_idcard);
CREATE INDEX t_sys_user_f_user_type_idx ON t_sys_user (f_user_type);
