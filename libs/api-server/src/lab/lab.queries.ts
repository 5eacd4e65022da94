/** The lab overview's SQL (docs/behaviour.md §18). */

/**
 * Every furnace, by code, with the test running on it now (start_at ≤ now < end_at) and the next one after now;
 * archived tests and those still being imported are left out (they are on no furnace's schedule).
 */
export const LAB_SCHEDULE_SQL = `SELECT f.id, f.name, f.code, f.scan_period_s,
  r.id AS running_id, r.name AS running_name, r.start_at AS running_start_at, r.end_at AS running_end_at,
  n.id AS next_id, n.name AS next_name, n.start_at AS next_start_at
FROM furnace f
LEFT JOIN LATERAL (
  SELECT x.id, x.name, x.start_at, x.end_at FROM research x
  WHERE x.furnace_id = f.id AND x.archived_at IS NULL AND x.start_at <= now() AND x.end_at > now()
    AND NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = x.id)
  ORDER BY x.start_at DESC LIMIT 1) r ON true
LEFT JOIN LATERAL (
  SELECT x.id, x.name, x.start_at FROM research x
  WHERE x.furnace_id = f.id AND x.archived_at IS NULL AND x.start_at > now()
    AND NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = x.id)
  ORDER BY x.start_at LIMIT 1) n ON true
ORDER BY f.code`;
