import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EARLIEST_FRAME_TIME_S } from '@furnace/criteria';
import {
  ACQUIRE_SQL,
  COUNT_FRAMES_SQL,
  READ_VIEWS_SQL,
  RELEASE_SQL,
  RENEW_SQL,
  SAVE_STATE_SQL,
  SAVE_VIEWS_SQL,
} from './criteria-state.queries';

export interface KeptRow {
  inputHash: string;
  coveredTime: number | null;
  frameCount: number;
  /** CriteriaEngineState as JSON; '' when none was kept yet. */
  state: string;
}

export interface StoredViews {
  viewHash: string;
  staff: unknown;
  client: unknown;
  coveredTime: number | null;
  /** An instance holds the lease (keeps it up to date). */
  leased: boolean;
}

export interface SavedState {
  inputHash: string;
  coveredTime: number | null;
  frameCount: number;
  state: string;
  viewHash: string;
  staff: unknown;
  client: unknown;
}

/** All database I/O of the kept criteria (criteria_state) and its lease. */
@Injectable()
export class CriteriaStateRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The kept state when this owner took (or already held) the lease; null when another holds it or the research is gone. */
  async acquire(researchId: string, owner: string, leaseMs: number): Promise<KeptRow | null> {
    const rows: { input_hash: string; covered_time: number | null; frame_count: number; state: string }[] =
      await this.dataSource.query(ACQUIRE_SQL, [researchId, owner, leaseMs]);
    const row = rows[0];
    return row
      ? { inputHash: row.input_hash, coveredTime: row.covered_time, frameCount: row.frame_count, state: row.state }
      : null;
  }

  /** The researches whose lease this owner still holds, extended. */
  async renew(owner: string, researchIds: string[], leaseMs: number): Promise<Set<string>> {
    if (researchIds.length === 0) return new Set();
    // An UPDATE answers [rows, count] through TypeORM's PostgreSQL driver.
    const [rows] = (await this.dataSource.query(RENEW_SQL, [owner, researchIds, leaseMs])) as [
      { research_id: string }[],
      number,
    ];
    return new Set(rows.map((r) => r.research_id));
  }

  async release(researchId: string, owner: string): Promise<void> {
    await this.dataSource.query(RELEASE_SQL, [researchId, owner]);
  }

  /** False when this instance no longer holds the lease (nothing was written). */
  async saveState(researchId: string, owner: string, saved: SavedState): Promise<boolean> {
    const result = (await this.dataSource.query(SAVE_STATE_SQL, [
      researchId,
      owner,
      saved.inputHash,
      saved.coveredTime,
      saved.frameCount,
      saved.state,
      saved.viewHash,
      JSON.stringify(saved.staff),
      JSON.stringify(saved.client),
    ])) as [unknown, number];
    return result[1] > 0;
  }

  async saveViews(
    researchId: string,
    owner: string,
    viewHash: string,
    staff: unknown,
    client: unknown,
  ): Promise<boolean> {
    const result = (await this.dataSource.query(SAVE_VIEWS_SQL, [
      researchId,
      owner,
      viewHash,
      JSON.stringify(staff),
      JSON.stringify(client),
    ])) as [unknown, number];
    return result[1] > 0;
  }

  async readViews(researchId: string): Promise<StoredViews | null> {
    const rows: {
      view_hash: string;
      staff_view: unknown;
      client_view: unknown;
      covered_time: number | null;
      leased: boolean;
    }[] = await this.dataSource.query(READ_VIEWS_SQL, [researchId]);
    const row = rows[0];
    return row
      ? {
          viewHash: row.view_hash,
          staff: row.staff_view,
          client: row.client_view,
          coveredTime: row.covered_time,
          leased: row.leased,
        }
      : null;
  }

  /** Stored frames the engine takes (from an hour before ignition) up to `until` s. */
  async countFrames(researchId: string, until: number): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(COUNT_FRAMES_SQL, [
      researchId,
      EARLIEST_FRAME_TIME_S,
      until,
    ]);
    return rows[0]?.n ?? 0;
  }
}
