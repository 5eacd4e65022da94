import { RESEARCH_MARKERS_SQL } from '@furnace/db';

/**
 * The history's SQL (HistoryRepository runs it). Plain SQL that runs the same on PostgreSQL,
 * TimescaleDB and PGlite. The shared questions about a research (does it exist, its last frame, its
 * markers) are @furnace/db research.queries.ts.
 */

export const COUNT_FRAMES = 'SELECT count(*) AS n FROM reading WHERE research_id = $1 AND "time" BETWEEN $2 AND $3';

/** Each (thermo_id, type_name) pair of the research $1 with the earliest time it is excluded from. */
export const CATEGORY_MEMBERS = `SELECT m.thermo_id, m.type_name, e.excluded_from
       FROM (${RESEARCH_MARKERS_SQL}) m
       LEFT JOIN (SELECT thermo_id, min(from_time) AS excluded_from FROM thermo_exclusion WHERE research_id = $1 GROUP BY thermo_id) e USING (thermo_id)
       ORDER BY m.type_name, m.thermo_id`;

/**
 * One page of frames of [$2, $3] in time order, at most $4, thermocouples as text. After the first page
 * ($2 is then the last time sent, `after`) the lower bound is exclusive, so each page is one index range scan.
 */
export function framesPage(after: boolean): string {
  return `SELECT "time", radiance, pressure, pk, thermocouples::text AS thermocouples FROM reading
       WHERE research_id = $1 AND "time" ${after ? '>' : '>='} $2 AND "time" <= $3
       ORDER BY "time" LIMIT $4`;
}

/** One page of the exports' rows, paged as framesPage: with the stored timestamp and the flagged channels. */
export function exportRowsPage(after: boolean): string {
  return `SELECT "time", ts, radiance, pressure, pk, thermocouples::text AS thermocouples, faults FROM reading
       WHERE research_id = $1 AND "time" ${after ? '>' : '>='} $2 AND "time" <= $3
       ORDER BY "time" LIMIT $4`;
}

/** Every marker of every config of the research $1 with its config's file name, the oldest config first. */
export const EXPORT_MARKERS = `SELECT m.thermo_id, m.name, m.type_name, c.config_filename AS config FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id
       WHERE c.research_id = $1 ORDER BY c.created_at, c.id, m.thermo_id`;

export const FAULTS = `SELECT f.thermo_id, min(r."time") AS first_time, max(r."time") AS last_time, count(*) AS frames
       FROM reading r, unnest(r.faults) AS f(thermo_id)
       WHERE r.research_id = $1 AND r.faults IS NOT NULL AND r."time" BETWEEN $2 AND $3
       GROUP BY f.thermo_id ORDER BY f.thermo_id`;

export const MAX_CHANNELS =
  'SELECT max(cardinality(thermocouples)) AS n FROM reading WHERE research_id = $1 AND "time" BETWEEN $2 AND $3';

/**
 * Rollup rows of width $2, buckets [$3, $4] with last_time <= $5: `whole` one row per bucket with its
 * whole arrays, else grouped $6 buckets at a time with `thermoIds` (validated integers) picked.
 */
export function rollupRows(whole: boolean, thermoIds: readonly number[]): string {
  const pick = (column: string, aggregate: string) =>
    thermoIds.length === 0
      ? 'NULL'
      : `ARRAY[${thermoIds.map((id) => `${aggregate}(${column}[${Math.trunc(id)}])`).join(', ')}]::text`;
  const scalar = (name: string) =>
    `min(${name}_min) AS ${name}_min, max(${name}_max) AS ${name}_max, sum(${name}_sum) AS ${name}_sum, sum(${name}_n)::int AS ${name}_n`;
  const where = 'research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4 AND last_time <= $5';
  return whole
    ? `SELECT bucket::float8 AS grp, bucket::float8 AS last_bucket, frames, first_time, radiance_min, radiance_max, radiance_sum, radiance_n,
           pressure_min, pressure_max, pressure_sum, pressure_n, pk_min, pk_max, pk_sum, pk_n, t_min::text, t_max::text, t_sum::text, t_n::text
         FROM reading_rollup WHERE ${where} ORDER BY bucket`
    : `SELECT floor(bucket / $6::float8) AS grp, max(bucket)::float8 AS last_bucket, sum(frames)::int AS frames, min(first_time) AS first_time,
           ${scalar('radiance')}, ${scalar('pressure')}, ${scalar('pk')},
           ${pick('t_min', 'min')} AS t_min, ${pick('t_max', 'max')} AS t_max, ${pick('t_sum', 'sum')} AS t_sum, ${pick('t_n', 'sum')} AS t_n
         FROM reading_rollup WHERE ${where} GROUP BY 1 ORDER BY 1`;
}

/** The category rollups of the same buckets, grouped $6 at a time (the last bucket only when its rollup row is included). */
export const ROLLUP_CATEGORIES = `SELECT floor(bucket / $6::float8) AS grp, type_name, min(cmax_min) AS cmax_min, max(cmax_max) AS cmax_max, sum(cmax_sum) AS cmax_sum, sum(cmax_n)::int AS cmax_n,
           min(cmean_min) AS cmean_min, max(cmean_max) AS cmean_max, sum(cmean_sum) AS cmean_sum, sum(cmean_n)::int AS cmean_n
         FROM reading_rollup_category c WHERE research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4
           AND (bucket < $4 OR EXISTS (SELECT 1 FROM reading_rollup r WHERE r.research_id = $1 AND r.width = $2 AND r.bucket = $4 AND r.last_time <= $5))
         GROUP BY 1, 2`;

/** Thermocouple ids with at least one reading in the research's rollups of width $2. */
export const CHANNELS_WITH_READINGS = `SELECT DISTINCT u.i::int AS id FROM reading_rollup r CROSS JOIN LATERAL unnest(r.t_n) WITH ORDINALITY AS u(n, i)
       WHERE r.research_id = $1 AND r.width = $2 AND u.n > 0 ORDER BY 1`;

/** A frame's wall-clock time of ignition: its DAQ stamp (else when the ingest received it) minus its `time` (ignition.ts). */
const STAMP = `COALESCE(daq_ts, received_at) - "time" * INTERVAL '1 second'`;
const HAS_STAMP = '(daq_ts IS NOT NULL OR received_at IS NOT NULL)';

/** The ignition time the research $1's first frame at or after ignition gives (null when it has no stamp). */
export const FIRST_IGNITION_STAMP = `SELECT ${STAMP} AS at FROM reading WHERE research_id = $1 AND "time" >= 0 ORDER BY "time" LIMIT 1`;

/** The ignition time of the research $1's first stamped frame at or after ignition, else of its latest stamped one before. */
export const IGNITION_STAMP_SEARCH = `(SELECT ${STAMP} AS at, 0 AS k FROM reading WHERE research_id = $1 AND "time" >= 0 AND ${HAS_STAMP} ORDER BY "time" LIMIT 1)
     UNION ALL
     (SELECT ${STAMP} AS at, 1 AS k FROM reading WHERE research_id = $1 AND "time" < 0 AND ${HAS_STAMP} ORDER BY "time" DESC LIMIT 1)
     ORDER BY k LIMIT 1`;
