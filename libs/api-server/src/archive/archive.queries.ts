/**
 * The archive's SQL (ArchiveRepository runs it). Rows travel as `to_jsonb` of the table's row, by column name, and
 * come back through `jsonb_populate_recordset` of the same table: a column added later travels without a change
 * here. A file's bytes are the zip's own entries, never in the JSON.
 */
import { categoryRollupCtes, channelRollupCtes } from '@furnace/db';
import { RAW_DATA_LINE } from '../review/review.queries';

/** The parts of a test's record, with the bytea columns kept out of their JSON. */
export const RECORD_ROWS = {
  research: `SELECT to_jsonb(t) AS row FROM research t WHERE id = $1`,
  thermo_configs: `SELECT to_jsonb(t) - 'image_data' - 'config_data' AS row FROM thermo_config t WHERE research_id = $1 ORDER BY created_at, id`,
  markers: `SELECT to_jsonb(m) AS row FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id WHERE c.research_id = $1 ORDER BY c.created_at, m.thermo_id`,
  observations: `SELECT to_jsonb(t) AS row FROM observation t WHERE research_id = $1 ORDER BY "time", created_at, id`,
  exclusions: `SELECT to_jsonb(t) AS row FROM thermo_exclusion t WHERE research_id = $1 ORDER BY from_time, created_at, id`,
  drawings: `SELECT to_jsonb(t) - 'data' AS row FROM research_drawing t WHERE research_id = $1 ORDER BY created_at, id`,
  urls: `SELECT to_jsonb(t) AS row FROM research_url t WHERE research_id = $1 ORDER BY id`,
  revisions: `SELECT to_jsonb(t) AS row FROM research_revision t WHERE research_id = $1 ORDER BY revision`,
  documents: `SELECT to_jsonb(t) - 'data' AS row FROM research_document t WHERE research_id = $1 ORDER BY revision, kind DESC, lang DESC`,
  audit: `SELECT to_jsonb(t) AS row FROM audit_entry t WHERE research_id = $1 ORDER BY id`,
} as const;

/** The bytes of one file of the record, by its row's id. */
export const FILE_BYTES = {
  image: 'SELECT image_data AS data FROM thermo_config WHERE id = $1',
  config: 'SELECT config_data AS data FROM thermo_config WHERE id = $1',
  drawing: 'SELECT data FROM research_drawing WHERE id = $1',
  document: 'SELECT data FROM research_document WHERE id = $1',
} as const;

/**
 * The readings file's columns: the raw data's line (its hash's definition, docs/behaviour.md), then what the hash
 * does not cover, as PostgreSQL writes it (the session in UTC).
 */
export const READINGS_HEADER = 'time;pk;pressure;radiance;thermocouples;faults;ts;daq_ts;received_at';

/** One page of readings (RAW_DATA_PAGE's parameters), each with the columns the hash does not cover. */
export const READINGS_PAGE = `SELECT "time"::text AS t, ${RAW_DATA_LINE} AS line,
    concat_ws(';', ts::text, coalesce(daq_ts::text, ''), coalesce(received_at::text, '')) AS rest
  FROM reading WHERE research_id = $1 AND "time" > $2::float8 AND "time" <= $4::float8 ORDER BY "time" LIMIT $3`;

/**
 * What tells that a test's record changed while it was exported (ArchiveRepository.snapshot), as text: its approval,
 * its row's last change, its audit trail's last entry; and its last reading's time, the end of the export's readings.
 */
export const RECORD_STAMP = `SELECT approved_revision, updated_at::text AS updated_at,
    (SELECT max(id)::text FROM audit_entry WHERE research_id = $1) AS audit,
    (SELECT max("time")::text FROM reading WHERE research_id = $1) AS last_time
  FROM research WHERE id = $1`;

/** Readings from the file's text, column by column (an empty text is an absent value), cast as the table's types. */
export const INSERT_READINGS = `INSERT INTO reading (research_id, "time", pk, pressure, radiance, thermocouples, faults, ts, daq_ts, received_at)
  SELECT $1, f.time::float8, nullif(f.pk, '')::real, nullif(f.pressure, '')::real, nullif(f.radiance, '')::real,
    nullif(f.tc, '')::real[], nullif(f.faults, '')::smallint[], f.ts::timestamptz, nullif(f.daq_ts, '')::timestamptz, nullif(f.received_at, '')::timestamptz
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
    AS f(time, pk, pressure, radiance, tc, faults, ts, daq_ts, received_at)`;

/** The rows of `table` from their JSON (an array of objects by column name), each column taken from it. */
export function insertRows(table: string, columns: readonly string[]): string {
  const list = columns.map((c) => `"${c}"`).join(', ');
  return `INSERT INTO "${table}" (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::"${table}", $1::jsonb)`;
}

/** The finest rollup bucket's width: the import rolls up whole buckets of it in each statement. */
export const ROLLUP_STEP_S = 10;

/**
 * The rollups of the readings $2 <= time < $3 of a research (what reading_rollup_rebuild does an hour at a time, in
 * statements of the import's own: the same channel and category rows, the exclusions applied), merged into what is
 * there as the ingest merges its batches' (the wider buckets a statement does not cover whole).
 */
export const ROLLUP_RANGE = `WITH src AS (SELECT research_id, "time", radiance, pressure, pk, thermocouples FROM reading
    WHERE research_id = $1 AND "time" >= $2::float8 AND "time" < $3::float8),
  ${channelRollupCtes('src')},
  ${categoryRollupCtes('src', false, true)}
  SELECT count(*) AS n FROM rollup_write`;

/** The span of a research's readings, from the start of its first finest bucket. */
export const READINGS_SPAN = `SELECT floor(min("time") / ${ROLLUP_STEP_S}) * ${ROLLUP_STEP_S} AS first, max("time") AS last FROM reading WHERE research_id = $1`;
