/**
 * The SQL of a furnace's unassigned readings (docs/behaviour.md, "Furnaces"): the frames of its DAQ's topic that no
 * test was scheduled for at their time (furnace_reading), listed as ranges and attached to a test.
 */

/**
 * The unassigned readings of furnace $1 as ranges: a range ends where the next reading comes more than $2 seconds
 * later. Each range's first and last reading's time and its count, oldest first.
 */
export const UNASSIGNED_RANGES_SQL = `WITH r AS (
    SELECT "time", CASE WHEN "time" - lag("time") OVER (ORDER BY "time") > $2::float8 * INTERVAL '1 second' THEN 1 ELSE 0 END AS gap
    FROM furnace_reading WHERE furnace_id = $1),
  g AS (SELECT "time", sum(gap) OVER (ORDER BY "time") AS range FROM r)
  SELECT min("time") AS "from", max("time") AS "to", count(*)::int AS frames FROM g GROUP BY range ORDER BY 1`;

/** The research $1, locked against a change of its window or its approval until the attach commits. */
export const LOCK_RESEARCH_SQL = `SELECT id, name, furnace_id, start_at, end_at, archived_at, approved_revision
  FROM research WHERE id = $1 FOR NO KEY UPDATE`;

/**
 * Attaches the unassigned readings of furnace $1 from $3 to $4 (inclusive) that lie in the window [start_at, end_at)
 * of research $2 to its readings: each becomes a reading at its DAQ `time` (ts = start_at + time, as the ingest
 * stores one). A (research, time) already stored keeps its reading: that unassigned reading is skipped and stays
 * (never dropped); so does the later of two unassigned readings with one DAQ `time`. Returns how many lay in the
 * range and window (`found`) and how many were attached.
 */
export const ATTACH_SQL = `WITH w AS (SELECT start_at, end_at FROM research WHERE id = $2),
  found AS (
    SELECT fr.* FROM furnace_reading fr CROSS JOIN w
    WHERE fr.furnace_id = $1 AND fr."time" >= $3::timestamptz AND fr."time" <= $4::timestamptz
      AND fr."time" >= w.start_at AND fr."time" < w.end_at),
  candidate AS (SELECT DISTINCT ON (daq_time) * FROM found ORDER BY daq_time, "time"),
  inserted AS (
    INSERT INTO reading (research_id, "time", ts, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
    SELECT $2, c.daq_time, w.start_at + c.daq_time * INTERVAL '1 second', c.daq_ts, c.radiance, c.pressure, c.pk,
      c.thermocouples, c.faults, c.received_at
    FROM candidate c CROSS JOIN w
    ON CONFLICT DO NOTHING
    RETURNING "time"),
  moved AS (
    DELETE FROM furnace_reading fr USING candidate c, inserted i
    WHERE fr.furnace_id = $1 AND fr."time" = c."time" AND i."time" = c.daq_time
    RETURNING 1)
  SELECT (SELECT count(*) FROM found)::int AS found, (SELECT count(*) FROM moved)::int AS attached`;

/**
 * The kept criteria of research $1 computed again from its readings: the saved state and views are set aside, so the
 * next instance to keep the research reads the whole test (an instance keeping it now notices the readings that came
 * before its newest at its next check, docs/architecture.md, "The criteria: computed once, kept, pushed").
 */
export const FORGET_CRITERIA_STATE_SQL = `UPDATE criteria_state SET input_hash = '', covered_time = NULL, frame_count = 0, state = '', view_hash = ''
  WHERE research_id = $1`;

/** How many unassigned readings furnace $1 holds (a furnace that holds some is not deleted). */
export const COUNT_UNASSIGNED_SQL = `SELECT count(*)::int AS n FROM furnace_reading WHERE furnace_id = $1`;
