-- A device's shares (t_user_device, a hand-made table outside the schema snapshot) go with the device, as
-- deleting a device already removed them (server/domain/device.ts). Added NOT VALID and validated only
-- when no share of a deleted device is left, like the generated constraints (docs/generator.md). A
-- database being upgraded from the former scheme may run the hand-written migrations before its device
-- table exists: there the shares keep no constraint.
DO $$ BEGIN IF to_regclass('t_device') IS NOT NULL THEN ALTER TABLE t_user_device ADD CONSTRAINT t_user_device_f_device_id_fkey FOREIGN KEY (f_device_id) REFERENCES t_device(f_id) ON DELETE CASCADE NOT VALID; BEGIN ALTER TABLE t_user_device VALIDATE CONSTRAINT t_user_device_f_device_id_fkey; EXCEPTION WHEN foreign_key_violation THEN RAISE NOTICE 't_user_device_f_device_id_fkey stays NOT VALID: shares of deleted devices are left'; END; END IF; END $$;
