import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CriteriaMarker } from '@furnace/contracts';
import { ObservationEntity, queryOn, ResearchEntity, researchMarkers, ThermoExclusionEntity } from '@furnace/db';
import type { StoredFrameRow } from './stored-frame';
import { EXPORT_MARKERS, exportRowsPage } from './history.queries';

/** A stored frame for an export: the thermocouples in PostgreSQL's text form of a real[] (read with RealArrayReader). */
export interface ExportFrameRow extends StoredFrameRow {
  ts: Date;
}

/** A marker of one of the research's thermocouple configs, with the config's file name. */
interface ExportMarkerRow {
  thermo_id: number;
  name: string;
  type_name: string;
  config: string;
}

/** The database reads of the history exports that the history's own repository has no use for. */
@Injectable()
export class ExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  research(id: string): Promise<ResearchEntity | null> {
    return this.dataSource.getRepository(ResearchEntity).findOneBy({ id });
  }

  /** Every marker of every config, the oldest config first (its name wins where two configs disagree). */
  markers(researchId: string): Promise<ExportMarkerRow[]> {
    return this.dataSource.query(EXPORT_MARKERS, [researchId]);
  }

  /** The markers the criteria are computed from: the same read as the kept criteria's (with a door's zones). */
  criteriaMarkers(researchId: string): Promise<CriteriaMarker[]> {
    return researchMarkers(queryOn(this.dataSource), researchId);
  }

  exclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    return this.dataSource
      .getRepository(ThermoExclusionEntity)
      .find({ where: { researchId }, order: { fromTime: 'ASC', createdAt: 'ASC' } });
  }

  observations(researchId: string, visibleOnly: boolean): Promise<ObservationEntity[]> {
    return this.dataSource.getRepository(ObservationEntity).find({
      where: visibleOnly ? { researchId, visibleToClients: true } : { researchId },
      order: { time: 'ASC', createdAt: 'ASC' },
    });
  }

  /**
   * Frames with `from` ≤ time ≤ `to` in time order, one page after `after` (keyset pagination: each
   * page is one index range scan, no cursor, no transaction, so a long test never sits in memory).
   */
  frames(researchId: string, from: number, to: number, after: number | null, limit: number): Promise<ExportFrameRow[]> {
    return this.dataSource.query(exportRowsPage(after !== null), [researchId, after ?? from, to, limit]);
  }
}
