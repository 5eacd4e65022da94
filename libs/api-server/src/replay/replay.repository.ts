import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { StoredFrameRow } from '../history/stored-frame';

/**
 * The database reads of the replay. Each is one range scan of the readings' primary key
 * (research_id, time): a seek anywhere in a long test costs the same as at its start.
 */
@Injectable()
export class ReplayRepository {
  constructor(private readonly dataSource: DataSource) {}

  async exists(researchId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM research WHERE id = $1', [researchId]);
    return rows.length > 0;
  }

  /** The times of the research's first and last stored frames (null, null: none yet). */
  async bounds(researchId: string): Promise<{ first: number | null; last: number | null }> {
    const rows: { first: number | null; last: number | null }[] = await this.dataSource.query(
      `SELECT (SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" LIMIT 1) AS first,
              (SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1) AS last`,
      [researchId],
    );
    return { first: rows[0]?.first ?? null, last: rows[0]?.last ?? null };
  }

  /** At most `limit` frames with from ≤ time ≤ to, in time order (the thermocouples as text: see RealArrayReader). */
  frames(researchId: string, from: number, to: number, limit: number): Promise<StoredFrameRow[]> {
    return this.dataSource.query(
      `SELECT "time", radiance, pressure, pk, thermocouples::text AS thermocouples, faults FROM reading
       WHERE research_id = $1 AND "time" >= $2 AND "time" <= $3
       ORDER BY "time" LIMIT $4`,
      [researchId, from, to, limit],
    );
  }
}
