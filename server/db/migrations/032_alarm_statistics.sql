-- How alarms spread over types, sign-off state and jurisdiction together, for the planner. The alarm
-- lists ask for a few types, often unsigned ones, in one district, street or community, newest first.
-- Taking the columns as independent, the planner expects such a page to fill from the first rows of a
-- time index even where that jurisdiction has next to none of those alarms, and then walks the whole
-- index: with a million alarms, 80 ms for a page of one row. These statistics (multi-column common
-- values, and the dependencies community → street → district) let it count such a page as small and
-- read its few rows through an index instead (5 ms), while a large one still walks the time index.
-- ANALYZE (autovacuum's, or PGlite's upkeep) fills them.
CREATE STATISTICS t_alarm_where_and_what (mcv, dependencies) ON f_alarm_type, f_status, f_area_id, f_street_id, f_community_id FROM t_alarm;
