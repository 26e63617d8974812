-- A command record keeps why it ended by code (its reason: {"code", "params"} as JSON), beside the legacy
-- words in f_message (zh-CN, or a device's own), so the command log answers it in the caller's language.
-- Records written before have none and show their words.
ALTER TABLE t_device_command ADD COLUMN f_reason text;
