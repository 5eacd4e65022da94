import type { DataSource } from 'typeorm';

const STAMP = `COALESCE(daq_ts, received_at) - "time" * INTERVAL '1 second'`;
const HAS_STAMP = '(daq_ts IS NOT NULL OR received_at IS NOT NULL)';

/**
 * Wall-clock time of ignition (time 0) from the frames' own timestamps: the DAQ's clock where it sent
 * one, else when the ingest received the frame, minus the frame's `time`; from the first frame at or
 * after ignition that has one (else the latest before it). The scheduled start_at is what staff typed,
 * not when the furnace was lit. Null when no frame has either (rows stored before receipt times were kept).
 *
 * The first frame at or after ignition is asked first: one step down the primary key, and it has a
 * stamp whenever the ingest stored it. Only when it has none does the search go on frame by frame
 * (which PostgreSQL may plan as a scan of the whole table: it cannot know where the first stamp is).
 */
export async function readIgnitionAt(dataSource: DataSource, researchId: string): Promise<Date | null> {
  const first: { at: Date | null }[] = await dataSource.query(
    `SELECT ${STAMP} AS at FROM reading WHERE research_id = $1 AND "time" >= 0 ORDER BY "time" LIMIT 1`,
    [researchId],
  );
  if (first[0]?.at) return new Date(first[0].at);
  const rows: { at: Date }[] = await dataSource.query(
    `(SELECT ${STAMP} AS at, 0 AS k FROM reading WHERE research_id = $1 AND "time" >= 0 AND ${HAS_STAMP} ORDER BY "time" LIMIT 1)
     UNION ALL
     (SELECT ${STAMP} AS at, 1 AS k FROM reading WHERE research_id = $1 AND "time" < 0 AND ${HAS_STAMP} ORDER BY "time" DESC LIMIT 1)
     ORDER BY k LIMIT 1`,
    [researchId],
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
