/**
 * The review's SQL (ReviewRepository runs it).
 *
 * The raw data's hash (docs/behaviour.md, "The permanent record") covers one line per stored reading of the
 * research, in the order of `time`: time, pk, pressure, radiance, thermocouples and faults, each as PostgreSQL
 * writes it as text (extra_float_digits = 1: the shortest text that reads back as the same value; an array as
 * `{21.4,NULL,22}`), an absent value as nothing, joined by ';', each line ending in '\n'.
 */
export const RAW_DATA_LINE = `concat_ws(';', "time"::text, coalesce(pk::text, ''), coalesce(pressure::text, ''), coalesce(radiance::text, ''), coalesce(thermocouples::text, ''), coalesce(faults::text, ''))`;

/**
 * One page of the lines, after the time $2 (text, '-Infinity' for the first) up to $4 (the last reading's time when
 * the read began: 'Infinity' for all), at most $3: a range scan of the readings' key.
 */
export const RAW_DATA_PAGE = `SELECT "time"::text AS t, ${RAW_DATA_LINE} AS line FROM reading
  WHERE research_id = $1 AND "time" > $2::float8 AND "time" <= $4::float8 ORDER BY "time" LIMIT $3`;

/** Where a read of a test's readings begins (raw-data.ts): its approval and its last reading's time, as text. */
export const READINGS_START = `SELECT approved_revision,
    (SELECT max("time")::text FROM reading WHERE research_id = $1) AS last_time
  FROM research WHERE id = $1`;

/**
 * Where it ends: the approval now and, unless the test stayed approved by the approval $2 all along (frozen), how
 * many readings it has up to the read's last time $3.
 */
export const READINGS_END = `SELECT approved_revision,
    CASE WHEN $2::int IS NOT NULL AND approved_revision = $2::int THEN NULL
      ELSE (SELECT count(*)::int FROM reading WHERE research_id = $1 AND "time" <= $3::float8) END AS readings
  FROM research WHERE id = $1`;

/** The research of a part of its record, by the part's id. */
export const PART_RESEARCH = {
  'thermo-config': 'SELECT research_id FROM thermo_config WHERE id = $1',
  observation: 'SELECT research_id FROM observation WHERE id = $1',
  exclusion: 'SELECT research_id FROM thermo_exclusion WHERE id = $1',
  url: 'SELECT research_id FROM research_url WHERE id = $1',
} as const;

/** Clears a review that no approval followed, returning what it was; no row when there was none. */
export const WITHDRAW_REVIEW = `WITH was AS (
    SELECT id, reviewed_by, reviewed_at, review_comment FROM research
    WHERE id = $1 AND reviewed_at IS NOT NULL AND approved_revision IS NULL FOR UPDATE)
  UPDATE research r SET reviewed_by = NULL, reviewed_at = NULL, review_comment = NULL
  FROM was WHERE r.id = was.id
  RETURNING was.reviewed_by, was.reviewed_at, was.review_comment`;
