/**
 * Per-research rollups of the readings: for each bucket of a few fixed widths, the min, max, sum and
 * count of every thermocouple channel, of pk, pressure and radiance, and of each measurement type's
 * per-frame maximum and mean (what the history's category series are made of). The history reads
 * them instead of the frames for wide ranges (docs/performance.md, "History").
 *
 * Plain SQL that runs the same on PostgreSQL, TimescaleDB and PGlite. The statements here are
 * common table expressions over a source `src(research_id, "time", radiance, pressure, pk,
 * thermocouples)` that add the source's frames into the rollups (INSERT … ON CONFLICT DO UPDATE):
 * reading_rollup_rebuild (the migrations) and the refresh after an exclusion (rollup-refresh.ts) use
 * them. The ingest computes the same partial rows in its own process from the rows its INSERT
 * returned (so a frame redelivered and skipped is never counted twice), and adds them with the same
 * ON CONFLICT clauses (CHANNEL_ROLLUP_UPSERT, CATEGORY_ROLLUP_UPSERT) in the transaction that stores
 * the frames (libs/ingest/src/rollup-fold.ts; docs/performance.md, "Ingest").
 *
 * Sums and means are of each real's decimal text (`v::text::float8`): the value PostgreSQL prints,
 * which is what the history reads from the frames, not its binary float4 (24.385 rather than
 * 24.385000228881836), so that rollups and frames give the same numbers.
 *
 * Nulls are missing values: a count excludes them and a min/max ignores them. A bucket is
 * floor(time / width), so a frame at -5 s (before ignition) is in bucket -1 of the 10 s level.
 */

/** Bucket widths in seconds, finest first; each divides the next. */
export const ROLLUP_WIDTHS = [10, 60, 600] as const;

const FINEST = ROLLUP_WIDTHS[0];
const LEVELS = ROLLUP_WIDTHS.map((w) => `(${w}, ${w / FINEST})`).join(', ');

/** `least`/`greatest` of two arrays element by element (PostgreSQL's least/greatest skip nulls); a shorter array is padded with nulls. */
function mergeArrays(column: string, element: string): string {
  return `CASE WHEN EXCLUDED.${column} IS NULL THEN t.${column} WHEN t.${column} IS NULL THEN EXCLUDED.${column}
    ELSE ARRAY(SELECT ${element} FROM unnest(t.${column}, EXCLUDED.${column}) WITH ORDINALITY AS u(a, b, i) ORDER BY u.i) END`;
}

const SCALARS = ['radiance', 'pressure', 'pk'] as const;

/** The columns of reading_rollup, in the order its statements give them. */
export const CHANNEL_ROLLUP_COLUMNS = `research_id, width, bucket, frames, first_time, last_time, ${SCALARS.map((s) => `${s}_min, ${s}_max, ${s}_sum, ${s}_n`).join(', ')}, t_min, t_max, t_sum, t_n`;

/** How a partial bucket (EXCLUDED) is added to a stored one of reading_rollup (t). */
export const CHANNEL_ROLLUP_UPSERT = `ON CONFLICT (research_id, width, bucket) DO UPDATE SET
      frames = t.frames + EXCLUDED.frames, first_time = least(t.first_time, EXCLUDED.first_time), last_time = greatest(t.last_time, EXCLUDED.last_time),
      ${SCALARS.map(
        (s) =>
          `${s}_min = least(t.${s}_min, EXCLUDED.${s}_min), ${s}_max = greatest(t.${s}_max, EXCLUDED.${s}_max), ` +
          `${s}_sum = t.${s}_sum + EXCLUDED.${s}_sum, ${s}_n = t.${s}_n + EXCLUDED.${s}_n`,
      ).join(',\n      ')},
      t_min = ${mergeArrays('t_min', 'least(u.a, u.b)')},
      t_max = ${mergeArrays('t_max', 'greatest(u.a, u.b)')},
      t_sum = ${mergeArrays('t_sum', 'coalesce(u.a, 0) + coalesce(u.b, 0)')},
      t_n = ${mergeArrays('t_n', 'coalesce(u.a, 0) + coalesce(u.b, 0)')}`;

/**
 * CTEs (to follow a `src` CTE in a WITH list) that add src's frames to reading_rollup: the scalar
 * series and every channel. Frames are folded once at the finest width; the coarser levels are
 * folded from those partial buckets.
 */
export function channelRollupCtes(src = 'src'): string {
  const scalarFine = SCALARS.map(
    (s) =>
      `min(s.${s}) AS ${s}_min, max(s.${s}) AS ${s}_max, coalesce(sum(s.${s}::text::float8), 0) AS ${s}_sum, count(s.${s})::int AS ${s}_n`,
  ).join(',\n      ');
  const scalarLevel = SCALARS.map((s) => `min(f.${s}_min), max(f.${s}_max), sum(f.${s}_sum), sum(f.${s}_n)::int`).join(
    ', ',
  );
  return `rollup_levels(width, per) AS (VALUES ${LEVELS}),
  rollup_fine AS (
    SELECT s.research_id, floor(s."time" / ${FINEST})::bigint AS bucket, count(*)::int AS frames, min(s."time") AS first_time, max(s."time") AS last_time,
      ${scalarFine}
    FROM ${src} s GROUP BY 1, 2),
  rollup_fine_channel AS (
    SELECT s.research_id, floor(s."time" / ${FINEST})::bigint AS bucket, u.i, min(u.v) AS mn, max(u.v) AS mx, coalesce(sum(u.v::text::float8), 0) AS sm, count(u.v)::int AS n
    FROM ${src} s CROSS JOIN LATERAL unnest(s.thermocouples) WITH ORDINALITY AS u(v, i) GROUP BY 1, 2, 3),
  rollup_scalar AS (
    SELECT f.research_id, l.width, floor(f.bucket / l.per::float8)::bigint AS bucket, sum(f.frames)::int AS frames, min(f.first_time) AS first_time,
      max(f.last_time) AS last_time, ${scalarLevel}
    FROM rollup_fine f CROSS JOIN rollup_levels l GROUP BY 1, 2, 3),
  rollup_channel AS (
    SELECT c.research_id, l.width, floor(c.bucket / l.per::float8)::bigint AS bucket, c.i, min(c.mn) AS mn, max(c.mx) AS mx, sum(c.sm) AS sm, sum(c.n)::int AS n
    FROM rollup_fine_channel c CROSS JOIN rollup_levels l GROUP BY 1, 2, 3, 4),
  rollup_arrays AS (
    SELECT research_id, width, bucket, array_agg(mn ORDER BY i) AS t_min, array_agg(mx ORDER BY i) AS t_max,
      array_agg(sm ORDER BY i) AS t_sum, array_agg(n ORDER BY i) AS t_n
    FROM rollup_channel GROUP BY 1, 2, 3),
  rollup_write AS (
    INSERT INTO reading_rollup AS t (${CHANNEL_ROLLUP_COLUMNS})
    SELECT s.*, a.t_min, a.t_max, a.t_sum, a.t_n FROM rollup_scalar s LEFT JOIN rollup_arrays a USING (research_id, width, bucket)
    ${CHANNEL_ROLLUP_UPSERT}
    RETURNING 1)`;
}

/** The columns of reading_rollup_category, in the order its statements give them. */
export const CATEGORY_ROLLUP_COLUMNS =
  'research_id, width, bucket, type_name, cmax_min, cmax_max, cmax_sum, cmax_n, cmean_min, cmean_max, cmean_sum, cmean_n';

const mergeStats = (v: string) =>
  `${v}_min = least(t.${v}_min, EXCLUDED.${v}_min), ${v}_max = greatest(t.${v}_max, EXCLUDED.${v}_max), ` +
  `${v}_sum = t.${v}_sum + EXCLUDED.${v}_sum, ${v}_n = t.${v}_n + EXCLUDED.${v}_n`;

/** How a partial bucket (EXCLUDED) is added to a stored one of reading_rollup_category (t). */
export const CATEGORY_ROLLUP_UPSERT = `ON CONFLICT (research_id, width, bucket, type_name) DO UPDATE SET ${mergeStats('cmax')}, ${mergeStats('cmean')}`;

/**
 * The thermocouples that make up the measurement types of the researches `researches` selects (an
 * `IN (…)` or `= ANY(…)` on research_id): (research_id, thermo_id, type_name, excluded_from), each
 * pair of thermocouple and type once, excluded_from the earliest from_time of the thermocouple's
 * exclusions (null: none; `exclusions` false: the column is left out).
 */
export function rollupMembersSql(researches: string, exclusions = true): string {
  return `SELECT DISTINCT c.research_id, m.thermo_id, m.type_name${
    exclusions
      ? `,
      (SELECT min(e.from_time) FROM thermo_exclusion e WHERE e.research_id = c.research_id AND e.thermo_id = m.thermo_id) AS excluded_from`
      : ''
  }
    FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id
    WHERE c.research_id ${researches}`;
}

/**
 * CTEs (to follow a `src` CTE) that add src's frames to reading_rollup_category: for each measurement
 * type of the research's thermocouple markers, each frame's maximum and mean over the type's
 * channels that have a value (a frame with none of them adds nothing), then min/max/sum/count of
 * those per bucket. `rollup_levels` must be defined (channelRollupCtes does) or `withLevels` set.
 *
 * A thermocouple excluded from a time on (thermo_exclusion; the earliest from_time of the research's
 * exclusions of that thermo_id) does not count in its types' maximum and mean from that time on,
 * the rule the criteria engine applies. `exclusions` false: the statement of the migration that
 * predates the thermo_exclusion table.
 */
export function categoryRollupCtes(src = 'src', withLevels = false, exclusions = true): string {
  const stats = (v: string) =>
    `min(${v}) AS ${v}_min, max(${v}) AS ${v}_max, coalesce(sum(${v}::text::float8), 0) AS ${v}_sum, count(${v})::int AS ${v}_n`;
  const level = (v: string) => `min(f.${v}_min), max(f.${v}_max), sum(f.${v}_sum), sum(f.${v}_n)::int`;
  // A member's value in a frame: null (no reading) from its exclusion on, so max/avg skip it.
  const member = exclusions
    ? `CASE WHEN s."time" >= mb.excluded_from THEN NULL ELSE s.thermocouples[mb.thermo_id] END`
    : 's.thermocouples[mb.thermo_id]';
  return `${withLevels ? `rollup_levels(width, per) AS (VALUES ${LEVELS}),` : ''}
  rollup_members AS (
    ${rollupMembersSql(`IN (SELECT research_id FROM ${src})`, exclusions)}),
  -- Each member's value alone, before grouping: grouped as (frame, type) directly, every joined row would
  -- carry its frame's whole array through the sort (300 members × 500 frames of 300 values spilled to
  -- disk: 0.8 s a batch against 0.3 s so; docs/performance.md, "Ingest").
  rollup_member_value AS MATERIALIZED (
    SELECT s.research_id, s."time", mb.type_name, ${member} AS v
    FROM ${src} s JOIN rollup_members mb ON mb.research_id = s.research_id),
  rollup_frame_category AS (
    SELECT research_id, "time", type_name, max(v) AS cmax, avg(v::text::float8) AS cmean
    FROM rollup_member_value GROUP BY 1, 2, 3),
  rollup_fine_category AS (
    SELECT research_id, floor("time" / ${FINEST})::bigint AS bucket, type_name, ${stats('cmax')}, ${stats('cmean')}
    FROM rollup_frame_category GROUP BY 1, 2, 3),
  rollup_category AS (
    SELECT f.research_id, l.width, floor(f.bucket / l.per::float8)::bigint AS bucket, f.type_name, ${level('cmax')}, ${level('cmean')}
    FROM rollup_fine_category f CROSS JOIN rollup_levels l GROUP BY 1, 2, 3, 4),
  rollup_category_write AS (
    INSERT INTO reading_rollup_category AS t (${CATEGORY_ROLLUP_COLUMNS})
    SELECT * FROM rollup_category
    ${CATEGORY_ROLLUP_UPSERT}
    RETURNING 1)`;
}

/** The DDL of the rollup tables (the migration's; here so that the tests and the docs name one place). */
export const ROLLUP_TABLES_DDL = [
  `CREATE TABLE reading_rollup (
    research_id uuid NOT NULL REFERENCES research(id) ON DELETE CASCADE,
    width integer NOT NULL,
    bucket bigint NOT NULL,
    frames integer NOT NULL,
    first_time double precision NOT NULL,
    last_time double precision NOT NULL,
    ${SCALARS.map((s) => `${s}_min real, ${s}_max real, ${s}_sum double precision NOT NULL, ${s}_n integer NOT NULL`).join(',\n    ')},
    t_min real[], t_max real[], t_sum double precision[], t_n integer[],
    CONSTRAINT "PK_reading_rollup" PRIMARY KEY (research_id, width, bucket))`,
  `CREATE TABLE reading_rollup_category (
    research_id uuid NOT NULL REFERENCES research(id) ON DELETE CASCADE,
    width integer NOT NULL,
    bucket bigint NOT NULL,
    type_name character varying(64) NOT NULL,
    cmax_min real, cmax_max real, cmax_sum double precision NOT NULL, cmax_n integer NOT NULL,
    cmean_min double precision, cmean_max double precision, cmean_sum double precision NOT NULL, cmean_n integer NOT NULL,
    CONSTRAINT "PK_reading_rollup_category" PRIMARY KEY (research_id, width, bucket, type_name))`,
];

/**
 * Recomputes one research's rollups ($1) from its stored frames (a function the migration creates):
 * for frames written other than by the ingest (the benchmark's and tests' bulk inserts), and after
 * frames are deleted.
 */
export const REBUILD_ROLLUPS_SQL = ['SELECT reading_rollup_rebuild($1, false)'];
