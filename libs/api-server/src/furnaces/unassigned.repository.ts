import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import {
  ATTACH_SQL,
  COUNT_UNASSIGNED_SQL,
  FORGET_CRITERIA_STATE_SQL,
  LOCK_RESEARCH_SQL,
  UNASSIGNED_RANGES_SQL,
} from './unassigned.queries';

export interface UnassignedRange {
  from: Date;
  to: Date;
  frames: number;
}

export interface LockedResearch {
  id: string;
  name: string;
  furnace_id: string | null;
  start_at: Date;
  end_at: Date;
  archived_at: Date | null;
  approved_revision: number | null;
}

/** All database I/O of a furnace's unassigned readings. */
@Injectable()
export class UnassignedRepository {
  constructor(private readonly dataSource: DataSource) {}

  ranges(furnaceId: string, gapS: number): Promise<UnassignedRange[]> {
    return this.dataSource.query(UNASSIGNED_RANGES_SQL, [furnaceId, gapS]);
  }

  async count(furnaceId: string, em: EntityManager = this.dataSource.manager): Promise<number> {
    const [row] = (await em.query(COUNT_UNASSIGNED_SQL, [furnaceId])) as { n: number }[];
    return row?.n ?? 0;
  }

  async lockResearch(id: string, em: EntityManager): Promise<LockedResearch | null> {
    const [row] = (await em.query(LOCK_RESEARCH_SQL, [id])) as LockedResearch[];
    return row ?? null;
  }

  /** Moves the readings (ATTACH_SQL); with any attached, the research's rollups are made again and its kept criteria set aside. */
  async attach(
    furnaceId: string,
    researchId: string,
    from: Date,
    to: Date,
    em: EntityManager,
  ): Promise<{ found: number; attached: number }> {
    const [row] = (await em.query(ATTACH_SQL, [furnaceId, researchId, from, to])) as {
      found: number;
      attached: number;
    }[];
    if (row!.attached > 0) {
      for (const sql of REBUILD_ROLLUPS_SQL) await em.query(sql, [researchId]);
      await em.query(FORGET_CRITERIA_STATE_SQL, [researchId]);
    }
    return row!;
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
