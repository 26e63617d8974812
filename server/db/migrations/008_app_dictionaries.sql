-- Dictionaries of the app-version screen (spec 001 §2.9, §7: keys app_type and update_status).
INSERT INTO t_sys_dic (f_key, f_value, f_content, f_sort) VALUES
  ('app_type', '1', '租户端 Android', 1),
  ('app_type', '2', '租户端 iOS', 2),
  ('app_type', '3', '管理端 Android', 3),
  ('app_type', '4', '管理端 iOS', 4),
  ('update_status', '0', '不强制更新', 1),
  ('update_status', '1', '强制更新', 2);
