import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readIgnitionAt } from '../history/ignition';
import { ObservationEntity, ResearchEntity, ThermoExclusionEntity } from '@furnace/db';

/** A stored frame for the criteria: the thermocouples in PostgreSQL's text form of a real[] (read with RealArrayReader). */
export interface CriteriaFrameRow {
  time: number;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: string | null;
  faults: number[] | null;
}

/** All database I/O of the criteria: observations, thermocouple exclusions and the frames the engine reads. */
@Injectable()
export class CriteriaRepository {
  constructor(private readonly dataSource: DataSource) {}

  research(id: string): Promise<ResearchEntity | null> {
    return this.dataSource.getRepository(ResearchEntity).findOneBy({ id });
  }

  listObservations(researchId: string, visibleOnly: boolean): Promise<ObservationEntity[]> {
    return this.dataSource.getRepository(ObservationEntity).find({
      where: visibleOnly ? { researchId, visibleToClients: true } : { researchId },
      order: { time: 'ASC', createdAt: 'ASC' },
    });
  }

  findObservation(id: string): Promise<ObservationEntity | null> {
    return this.dataSource.getRepository(ObservationEntity).findOneBy({ id });
  }

  createObservation(fields: Pick<ObservationEntity, 'researchId' | 'time' | 'kind' | 'note' | 'visibleToClients' | 'createdBy'>): Promise<ObservationEntity> {
    const repo = this.dataSource.getRepository(ObservationEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  async updateObservation(entity: ObservationEntity, fields: Partial<Pick<ObservationEntity, 'note' | 'visibleToClients'>>): Promise<ObservationEntity> {
    if (Object.keys(fields).length > 0) await this.dataSource.getRepository(ObservationEntity).update({ id: entity.id }, fields);
    return Object.assign(entity, fields);
  }

  async deleteObservation(id: string): Promise<void> {
    await this.dataSource.getRepository(ObservationEntity).delete({ id });
  }

  listExclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    return this.dataSource.getRepository(ThermoExclusionEntity).find({ where: { researchId }, order: { fromTime: 'ASC', createdAt: 'ASC' } });
  }

  findExclusion(id: string): Promise<ThermoExclusionEntity | null> {
    return this.dataSource.getRepository(ThermoExclusionEntity).findOneBy({ id });
  }

  createExclusion(fields: Pick<ThermoExclusionEntity, 'researchId' | 'thermoId' | 'fromTime' | 'reason' | 'createdBy'>): Promise<ThermoExclusionEntity> {
    const repo = this.dataSource.getRepository(ThermoExclusionEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  async deleteExclusion(id: string): Promise<void> {
    await this.dataSource.getRepository(ThermoExclusionEntity).delete({ id });
  }

  /** The distinct (thermo_id, type_name) pairs of the research's thermocouple configs. */
  async markers(researchId: string): Promise<{ thermo_id: number; type_name: string }[]> {
    return this.dataSource.query(
      `SELECT DISTINCT m.thermo_id, m.type_name FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id
       WHERE c.research_id = $1 ORDER BY m.thermo_id, m.type_name`,
      [researchId],
    );
  }

  async newestTime(researchId: string): Promise<number | null> {
    const rows: { time: number }[] = await this.dataSource.query('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1', [researchId]);
    return rows[0]?.time ?? null;
  }

  /** Wall-clock time of ignition from the frames' own timestamps (see readIgnitionAt). */
  ignitionAt(researchId: string): Promise<Date | null> {
    return readIgnitionAt(this.dataSource, researchId);
  }

  /**
   * The research's frames in time order, one page (keyset pagination: each page is one index range
   * scan, no cursor, no transaction, so a long test never sits in memory).
   */
  frames(researchId: string, after: number | null, limit: number): Promise<CriteriaFrameRow[]> {
    return this.dataSource.query(
      `SELECT "time", radiance, pressure, pk, thermocouples::text AS thermocouples, faults FROM reading
       WHERE research_id = $1 ${after === null ? '' : 'AND "time" > $3'}
       ORDER BY "time" LIMIT $2`,
      after === null ? [researchId, limit] : [researchId, limit, after],
    );
  }
}
