import type { DataSource } from 'typeorm';

/**
 * Wall-clock time of ignition (time 0) from the frames' own timestamps: the DAQ's clock where it sent
 * one, else when the ingest received the frame, minus the frame's `time`; from the first frame at or
 * after ignition that has one (else the latest before it). The scheduled start_at is what staff typed,
 * not when the furnace was lit. Null when no frame has either (rows stored before receipt times were kept).
 */
export async function readIgnitionAt(dataSource: DataSource, researchId: string): Promise<Date | null> {
  const stamp = `COALESCE(daq_ts, received_at) - "time" * INTERVAL '1 second'`;
  const has = '(daq_ts IS NOT NULL OR received_at IS NOT NULL)';
  const rows: { at: Date }[] = await dataSource.query(
    `(SELECT ${stamp} AS at, 0 AS k FROM reading WHERE research_id = $1 AND "time" >= 0 AND ${has} ORDER BY "time" LIMIT 1)
     UNION ALL
     (SELECT ${stamp} AS at, 1 AS k FROM reading WHERE research_id = $1 AND "time" < 0 AND ${has} ORDER BY "time" DESC LIMIT 1)
     ORDER BY k LIMIT 1`,
    [researchId],
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
