import {
  CATEGORY_ROLLUP_COLUMNS,
  CATEGORY_ROLLUP_UPSERT,
  CHANNEL_ROLLUP_COLUMNS,
  CHANNEL_ROLLUP_UPSERT,
  rollupMembersSql,
} from '@furnace/db';

/** The ingest's SQL (ReadingsRepository runs it); the shared questions about a research are @furnace/db research.queries.ts. */

/** One frame's VALUES tuple, its parameters numbered from n + 1. */
export const FRAME_TUPLE = (n: number) =>
  `($${n + 1}::uuid, $${n + 2}::float8, $${n + 3}::timestamptz, $${n + 4}::real, $${n + 5}::real, $${n + 6}::real, $${n + 7}::real[], $${n + 8}::smallint[], $${n + 9}::timestamptz)`;

/**
 * Inserts the frames of `tuples` (FRAME_TUPLE), returning the frames written (research_id, time and the values
 * as stored, which the ingest folds into the rollups: rollup-fold.ts), and a row (research_id, approved_revision)
 * for each research of the batch that is approved: its frames are not written (docs/behaviour.md, "The permanent
 * record"). The research rows are locked FOR KEY SHARE first (the foreign key would lock them so anyway): an
 * approval in progress holds its row FOR UPDATE, so the batch waits for it and then sees the research approved;
 * an approval waits for a batch in progress (until its transaction, rollups included, commits), whose frames its
 * hash then covers. ON CONFLICT without a target: the same statement works on the plain table (key research_id,
 * time) and on the TimescaleDB hypertable (key research_id, time, ts); only the rows it inserted come back, so a
 * redelivered frame is never folded twice.
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
         RETURNING research_id, "time", radiance, pressure, pk, thermocouples)
       SELECT research_id, "time", radiance, pressure, pk, thermocouples, NULL::integer AS approved_revision FROM src
       UNION ALL
       SELECT id, NULL, NULL, NULL, NULL, NULL, approved_revision FROM target WHERE approved_revision IS NOT NULL`;
}

/** The measurement types' thermocouples of the researches $1 (uuid[]), for the category rollups (@furnace/db rollupMembersSql). */
export const ROLLUP_MEMBERS_SQL = rollupMembersSql('= ANY($1::uuid[])');

const SCALAR_PARAMS = ['radiance', 'pressure', 'pk'].map((s, k) => {
  const n = 7 + k * 4;
  return {
    columns: `${s}_min, ${s}_max, ${s}_sum, ${s}_n`,
    types: `$${n}::real[], $${n + 1}::real[], $${n + 2}::float8[], $${n + 3}::int[]`,
  };
});

/**
 * Adds a batch's partial rollup rows, folded by the ingest (rollup-fold.ts rollupParameters gives the
 * parameters), to reading_rollup and reading_rollup_category: every value a bound array parameter, each
 * table's rows unnested from them. A bucket's channel arrays are the slice [off + 1, off + len] of the
 * flat arrays $21–$24 (len 0: no frame had thermocouples, the arrays are null).
 */
export const UPSERT_ROLLUPS_SQL = `WITH c AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::bigint[], $4::int[], $5::float8[], $6::float8[],
           ${SCALAR_PARAMS.map((p) => p.types).join(',\n           ')}, $19::int[], $20::int[])
           AS c(research_id, width, bucket, frames, first_time, last_time, ${SCALAR_PARAMS.map((p) => p.columns).join(', ')}, off, len)),
       channel_write AS (
         INSERT INTO reading_rollup AS t (${CHANNEL_ROLLUP_COLUMNS})
         SELECT research_id, width, bucket, frames, first_time, last_time, ${SCALAR_PARAMS.map((p) => p.columns).join(', ')},
           CASE WHEN len > 0 THEN ($21::real[])[off + 1 : off + len] END, CASE WHEN len > 0 THEN ($22::real[])[off + 1 : off + len] END,
           CASE WHEN len > 0 THEN ($23::float8[])[off + 1 : off + len] END, CASE WHEN len > 0 THEN ($24::int[])[off + 1 : off + len] END
         FROM c
         ${CHANNEL_ROLLUP_UPSERT}
         RETURNING 1),
       category_write AS (
         INSERT INTO reading_rollup_category AS t (${CATEGORY_ROLLUP_COLUMNS})
         SELECT * FROM unnest($25::uuid[], $26::int[], $27::bigint[], $28::text[],
           $29::real[], $30::real[], $31::float8[], $32::int[], $33::float8[], $34::float8[], $35::float8[], $36::int[])
         ${CATEGORY_ROLLUP_UPSERT}
         RETURNING 1)
       SELECT (SELECT count(*) FROM channel_write)::int AS channels, (SELECT count(*) FROM category_write)::int AS categories`;

/** One dead letter's VALUES tuple, its parameters numbered from n + 1. */
export const DEAD_LETTER_TUPLE = (n: number) =>
  `($${n + 1}, $${n + 2}::uuid, $${n + 3}, $${n + 4}, $${n + 5}::bytea, $${n + 6}::int)`;

export function insertDeadLettersSql(tuples: readonly string[]): string {
  return `INSERT INTO reading_dead_letter (topic, research_id, reason, detail, payload, payload_bytes) VALUES ${tuples.join(', ')}`;
}

/** Deletes the oldest dead letters beyond the newest $1. */
export const PRUNE_DEAD_LETTERS = `DELETE FROM reading_dead_letter
       WHERE id <= (SELECT id FROM reading_dead_letter ORDER BY id DESC OFFSET $1 LIMIT 1)`;

/** One unassigned frame's VALUES tuple (furnace code, its time, then the values as FRAME_TUPLE), its parameters numbered from n + 1. */
export const UNASSIGNED_TUPLE = (n: number) =>
  `($${n + 1}::text, $${n + 2}::timestamptz, $${n + 3}::float8, $${n + 4}::timestamptz, $${n + 5}::real, $${n + 6}::real, $${n + 7}::real, $${n + 8}::real[], $${n + 9}::smallint[], $${n + 10}::timestamptz)`;

/**
 * Inserts a furnace's unassigned frames (UNASSIGNED_TUPLE), each under the furnace of its code (a code no furnace has
 * stores nothing), skipping those already stored (first writer wins); returns the code and the time (epoch ms) of each
 * frame written.
 */
export function insertUnassignedSql(tuples: readonly string[]): string {
  return `WITH v AS (
         SELECT * FROM (VALUES ${tuples.join(', ')}) AS v(code, at, t, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)),
       f AS (SELECT id, code FROM furnace WHERE code IN (SELECT code FROM v)),
       ins AS (
         INSERT INTO furnace_reading (furnace_id, "time", daq_time, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         SELECT f.id, v.at, v.t, v.daq_ts, v.radiance, v.pressure, v.pk, v.thermocouples, v.faults, v.received_at
         FROM v JOIN f ON f.code = v.code
         ON CONFLICT DO NOTHING
         RETURNING furnace_id, "time")
       SELECT f.code, round(extract(epoch FROM ins."time") * 1000)::float8 AS at FROM ins JOIN f ON f.id = ins.furnace_id`;
}

/**
 * The furnace of code $1 and the tests scheduled on it that end after $2, ordered by start (one row with null research
 * fields when it has none). Archived tests have left the schedule; an approved test's readings are frozen, so frames at
 * its time are kept as unassigned.
 */
export const FURNACE_SCHEDULE_SQL = `SELECT f.id AS furnace_id, r.id AS research_id, r.start_at, r.end_at
  FROM furnace f
  LEFT JOIN research r ON r.furnace_id = f.id AND r.archived_at IS NULL AND r.approved_revision IS NULL AND r.end_at > $2
  WHERE f.code = $1
  ORDER BY r.start_at`;

/** The test scheduled on furnace $1 at $2 (start_at <= $2 < end_at), as FURNACE_SCHEDULE_SQL chooses them. */
export const FURNACE_TEST_AT_SQL = `SELECT id FROM research
  WHERE furnace_id = $1 AND archived_at IS NULL AND approved_revision IS NULL AND start_at <= $2 AND end_at > $2
  LIMIT 1`;
