import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { CriteriaMarker } from '@furnace/contracts';
import { readIgnitionAt } from '../history/ignition';
import type { StoredFrameRow } from '../history/stored-frame';
import {
  lastFrameTime,
  ObservationEntity,
  queryOn,
  ResearchEntity,
  researchMarkers,
  ThermoExclusionEntity,
} from '@furnace/db';
import { criteriaFramesSql } from './criteria.queries';

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

  createObservation(
    fields: Pick<ObservationEntity, 'researchId' | 'time' | 'kind' | 'note' | 'visibleToClients' | 'createdBy'>,
    em: EntityManager,
  ): Promise<ObservationEntity> {
    const repo = em.getRepository(ObservationEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  /** The observation with `fields` changed (a new object: `entity` stays as it was). */
  async updateObservation(
    entity: ObservationEntity,
    fields: Partial<Pick<ObservationEntity, 'note' | 'visibleToClients'>>,
    em: EntityManager,
  ): Promise<ObservationEntity> {
    if (Object.keys(fields).length > 0) await em.getRepository(ObservationEntity).update({ id: entity.id }, fields);
    return Object.assign(new ObservationEntity(), entity, fields);
  }

  async deleteObservation(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ObservationEntity).delete({ id });
  }

  listExclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    return this.dataSource
      .getRepository(ThermoExclusionEntity)
      .find({ where: { researchId }, order: { fromTime: 'ASC', createdAt: 'ASC' } });
  }

  findExclusion(id: string): Promise<ThermoExclusionEntity | null> {
    return this.dataSource.getRepository(ThermoExclusionEntity).findOneBy({ id });
  }

  createExclusion(
    fields: Pick<ThermoExclusionEntity, 'researchId' | 'thermoId' | 'fromTime' | 'reason' | 'createdBy'>,
    em: EntityManager,
  ): Promise<ThermoExclusionEntity> {
    const repo = em.getRepository(ThermoExclusionEntity);
    return repo.save(repo.create({ ...fields, id: randomUUID() }));
  }

  async deleteExclusion(id: string, em: EntityManager): Promise<void> {
    await em.getRepository(ThermoExclusionEntity).delete({ id });
  }

  /** The distinct (thermo_id, type_name) pairs of the research's thermocouple configs, with a door's zone (I1 / I2). */
  markers(researchId: string): Promise<CriteriaMarker[]> {
    return researchMarkers(queryOn(this.dataSource), researchId);
  }

  newestTime(researchId: string): Promise<number | null> {
    return lastFrameTime(queryOn(this.dataSource), researchId);
  }

  /** Wall-clock time of ignition from the frames' own timestamps (see readIgnitionAt). */
  ignitionAt(researchId: string): Promise<Date | null> {
    return readIgnitionAt(this.dataSource, researchId);
  }

  /**
   * The research's frames in time order, one page (keyset pagination: each page is one index range
   * scan, no cursor, no transaction, so a long test never sits in memory).
   */
  frames(researchId: string, after: number | null, limit: number): Promise<StoredFrameRow[]> {
    return this.dataSource.query(
      criteriaFramesSql(after !== null),
      after === null ? [researchId, limit] : [researchId, limit, after],
    );
  }
}
