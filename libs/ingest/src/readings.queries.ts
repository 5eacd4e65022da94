import { categoryRollupCtes, channelRollupCtes } from '@furnace/db';

/** The ingest's SQL (ReadingsRepository runs it); the shared questions about a research are @furnace/db research.queries.ts. */

const ROLLUP_CTES = `${channelRollupCtes('src')},\n${categoryRollupCtes('src')}`;

/** One frame's VALUES tuple, its parameters numbered from n + 1. */
export const FRAME_TUPLE = (n: number) =>
  `($${n + 1}::uuid, $${n + 2}::float8, $${n + 3}::timestamptz, $${n + 4}::real, $${n + 5}::real, $${n + 6}::real, $${n + 7}::real[], $${n + 8}::smallint[], $${n + 9}::timestamptz)`;

/**
 * Inserts the frames of `tuples` (FRAME_TUPLE), returning the (research_id, time) of those written, and a row
 * (research_id, approved_revision) for each research of the batch that is approved: its frames are not written
 * (docs/behaviour.md, "The permanent record"). The research rows are locked FOR KEY SHARE first (the foreign key
 * would lock them so anyway): an approval in progress holds its row FOR UPDATE, so the batch waits for it and then
 * sees the research approved; an approval waits for a batch in progress, whose frames its hash then covers.
 * ON CONFLICT without a target: the same statement works on the plain table (key research_id, time)
 * and on the TimescaleDB hypertable (key research_id, time, ts). The rollups are updated by the same
 * statement, from the rows it inserted (see @furnace/db rollups).
 */
export function insertFramesSql(tuples: readonly string[]): string {
  return `WITH v AS (
         SELECT * FROM (VALUES ${tuples.join(', ')}) AS v(research_id, t, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)),
       target AS (
         SELECT r.id, r.start_at, r.approved_revision FROM research r WHERE r.id IN (SELECT research_id FROM v) FOR KEY SHARE OF r),
       src AS (
         INSERT INTO reading (research_id, "time", ts, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         SELECT v.research_id, v.t, r.start_at + v.t * INTERVAL '1 second', v.daq_ts, v.radiance, v.pressure, v.pk, v.thermocouples, v.faults, v.received_at
         FROM v
         JOIN target r ON r.id = v.research_id AND r.approved_revision IS NULL
         ON CONFLICT DO NOTHING
         RETURNING research_id, "time", radiance, pressure, pk, thermocouples),
       ${ROLLUP_CTES}
       SELECT research_id, "time", NULL::integer AS approved_revision FROM src
       UNION ALL
       SELECT id, NULL, approved_revision FROM target WHERE approved_revision IS NOT NULL`;
}

/** One dead letter's VALUES tuple, its parameters numbered from n + 1. */
export const DEAD_LETTER_TUPLE = (n: number) => `($${n + 1}, $${n + 2}::uuid, $${n + 3}, $${n + 4}, $${n + 5}::bytea, $${n + 6}::int)`;

export function insertDeadLettersSql(tuples: readonly string[]): string {
  return `INSERT INTO reading_dead_letter (topic, research_id, reason, detail, payload, payload_bytes) VALUES ${tuples.join(', ')}`;
}

/** Deletes the oldest dead letters beyond the newest $1. */
export const PRUNE_DEAD_LETTERS = `DELETE FROM reading_dead_letter
       WHERE id <= (SELECT id FROM reading_dead_letter ORDER BY id DESC OFFSET $1 LIMIT 1)`;
