import type { DataSource } from 'typeorm';
import { FIRST_IGNITION_STAMP, IGNITION_STAMP_SEARCH } from './history.queries';

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
  const first: { at: Date | null }[] = await dataSource.query(FIRST_IGNITION_STAMP, [researchId]);
  if (first[0]?.at) return new Date(first[0].at);
  const rows: { at: Date }[] = await dataSource.query(IGNITION_STAMP_SEARCH, [researchId]);
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
