import { categoryRollupCtes, channelRollupCtes } from '@furnace/db';

/** The ingest's SQL (ReadingsRepository runs it); the shared questions about a research are @furnace/db research.queries.ts. */

const ROLLUP_CTES = `${channelRollupCtes('src')},\n${categoryRollupCtes('src')}`;

/** One frame's VALUES tuple, its parameters numbered from n + 1. */
export const FRAME_TUPLE = (n: number) =>
  `($${n + 1}::uuid, $${n + 2}::float8, $${n + 3}::timestamptz, $${n + 4}::real, $${n + 5}::real, $${n + 6}::real, $${n + 7}::real[], $${n + 8}::smallint[], $${n + 9}::timestamptz)`;

/**
 * Inserts the frames of `tuples` (FRAME_TUPLE), returning the (research_id, time) of those written.
 * ON CONFLICT without a target: the same statement works on the plain table (key research_id, time)
 * and on the TimescaleDB hypertable (key research_id, time, ts). The rollups are updated by the same
 * statement, from the rows it inserted (see @furnace/db rollups).
 */
export function insertFramesSql(tuples: readonly string[]): string {
  return `WITH src AS (
         INSERT INTO reading (research_id, "time", ts, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         SELECT v.research_id, v.t, r.start_at + v.t * INTERVAL '1 second', v.daq_ts, v.radiance, v.pressure, v.pk, v.thermocouples, v.faults, v.received_at
         FROM (VALUES ${tuples.join(', ')}) AS v(research_id, t, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         JOIN research r ON r.id = v.research_id
         ON CONFLICT DO NOTHING
         RETURNING research_id, "time", radiance, pressure, pk, thermocouples),
       ${ROLLUP_CTES}
       SELECT research_id, "time" FROM src`;
}

/** One dead letter's VALUES tuple, its parameters numbered from n + 1. */
export const DEAD_LETTER_TUPLE = (n: number) => `($${n + 1}, $${n + 2}::uuid, $${n + 3}, $${n + 4}, $${n + 5}::bytea, $${n + 6}::int)`;

export function insertDeadLettersSql(tuples: readonly string[]): string {
  return `INSERT INTO reading_dead_letter (topic, research_id, reason, detail, payload, payload_bytes) VALUES ${tuples.join(', ')}`;
}

/** Deletes the oldest dead letters beyond the newest $1. */
export const PRUNE_DEAD_LETTERS = `DELETE FROM reading_dead_letter
       WHERE id <= (SELECT id FROM reading_dead_letter ORDER BY id DESC OFFSET $1 LIMIT 1)`;
