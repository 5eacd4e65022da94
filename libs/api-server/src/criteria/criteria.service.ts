import { Injectable, NotFoundException } from '@nestjs/common';
import type { CriteriaView, ObservationKind } from '@furnace/contracts';
import type { ObservationEntity, ResearchEntity, ThermoExclusionEntity } from '@furnace/db';
import type { Principal } from '../auth/principal';
import { changes, exclusionValues, observationValues } from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { validationException } from '../core/errors';
import { ResearchEvents } from '../research/research-events';
import { CriteriaKeeper } from './criteria-keeper';
import { CriteriaRepository } from './criteria.repository';

export interface ObservationInput {
  time?: number;
  kind: ObservationKind;
  note?: string | null;
  visibleToClients?: boolean;
}

/**
 * The fire-test criteria of a research: observations and thermocouple exclusions (staff write, the
 * research's viewers read), and the criteria computed by the engine over the stored frames.
 */
@Injectable()
export class CriteriaService {
  constructor(
    private readonly repo: CriteriaRepository,
    private readonly events: ResearchEvents,
    private readonly keeper: CriteriaKeeper,
    private readonly audit: AuditService,
  ) {}

  /** Staff see every observation; a client only those made visible to clients. */
  async observations(researchId: string, principal: Principal): Promise<ObservationEntity[]> {
    await this.research(researchId);
    return this.repo.listObservations(researchId, principal.kind === 'viewer');
  }

  async createObservation(researchId: string, input: ObservationInput, by: string): Promise<ObservationEntity> {
    await this.research(researchId);
    const note = input.note === undefined || input.note === null || input.note === '' ? null : input.note;
    if (input.kind === 'note' && note === null) {
      throw validationException([
        { loc: ['body', 'note'], msg: 'note must not be empty for an observation of kind note', type: 'observation' },
      ]);
    }
    let time = input.time;
    if (time === undefined) {
      const newest = await this.repo.newestTime(researchId);
      if (newest === null) {
        throw validationException([
          {
            loc: ['body', 'time'],
            msg: 'no frame of this research is stored yet: give the time (s since ignition)',
            type: 'observation',
          },
        ]);
      }
      time = newest;
    }
    const created = await this.audit.transaction(async (em) => {
      const row = await this.repo.createObservation(
        { researchId, time, kind: input.kind, note, visibleToClients: input.visibleToClients ?? false, createdBy: by },
        em,
      );
      await this.audit.record(
        {
          actor: by,
          researchId,
          entity: 'observation',
          entityId: row.id,
          action: 'create',
          after: observationValues(row),
        },
        em,
      );
      return row;
    });
    // Clients are not told of what they are not shown (the criteria everyone sees follow on their own).
    await this.events.changed(researchId, 'OBSERVATION', { staffOnly: !created.visibleToClients });
    return created;
  }

  async updateObservation(
    id: string,
    input: { note?: string | null; visibleToClients?: boolean },
    by: string,
  ): Promise<ObservationEntity> {
    const observation = await this.observation(id);
    const wasVisible = observation.visibleToClients;
    const fields: Partial<Pick<ObservationEntity, 'note' | 'visibleToClients'>> = {};
    if (input.note !== undefined) {
      const note = input.note === null || input.note === '' ? null : input.note;
      if (observation.kind === 'note' && note === null) {
        throw validationException([
          { loc: ['body', 'note'], msg: 'note must not be empty for an observation of kind note', type: 'observation' },
        ]);
      }
      fields.note = note;
    }
    if (input.visibleToClients !== undefined) fields.visibleToClients = input.visibleToClients;
    const updated = await this.audit.transaction(async (em) => {
      const row = await this.repo.updateObservation(observation, fields, em);
      const changed = changes(observationValues(observation), observationValues(row));
      if (changed)
        await this.audit.record(
          { actor: by, researchId: row.researchId, entity: 'observation', entityId: id, action: 'update', ...changed },
          em,
        );
      return row;
    });
    await this.events.changed(observation.researchId, 'OBSERVATION', {
      staffOnly: !wasVisible && !updated.visibleToClients,
    });
    return updated;
  }

  async deleteObservation(id: string, by: string): Promise<void> {
    const observation = await this.observation(id);
    await this.audit.transaction(async (em) => {
      await this.repo.deleteObservation(id, em);
      await this.audit.record(
        {
          actor: by,
          researchId: observation.researchId,
          entity: 'observation',
          entityId: id,
          action: 'delete',
          before: observationValues(observation),
        },
        em,
      );
    });
    await this.events.changed(observation.researchId, 'OBSERVATION', { staffOnly: !observation.visibleToClients });
  }

  async exclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    await this.research(researchId);
    return this.repo.listExclusions(researchId);
  }

  async createExclusion(
    researchId: string,
    input: { thermoId: number; fromTime: number; reason: string },
    by: string,
  ): Promise<ThermoExclusionEntity> {
    await this.research(researchId);
    const markers = await this.repo.markers(researchId);
    if (!markers.some((m) => m.thermo_id === input.thermoId)) {
      const ids = [...new Set(markers.map((m) => m.thermo_id))];
      const known =
        ids.length === 0 ? 'the research has no thermocouple config yet' : `its configs have ${describeIds(ids)}`;
      throw validationException([
        {
          loc: ['body', 'thermo_id'],
          msg: `thermo_id ${input.thermoId} is not a thermocouple of this research (${known})`,
          type: 'exclusion',
        },
      ]);
    }
    const created = await this.audit.transaction(async (em) => {
      const row = await this.repo.createExclusion(
        { researchId, thermoId: input.thermoId, fromTime: input.fromTime, reason: input.reason, createdBy: by },
        em,
      );
      await this.audit.record(
        { actor: by, researchId, entity: 'exclusion', entityId: row.id, action: 'create', after: exclusionValues(row) },
        em,
      );
      return row;
    });
    await this.events.changed(researchId, 'RESEARCH');
    return created;
  }

  async deleteExclusion(id: string, by: string): Promise<void> {
    const exclusion = await this.repo.findExclusion(id);
    if (!exclusion) throw new NotFoundException('Exclusion not found');
    await this.audit.transaction(async (em) => {
      await this.repo.deleteExclusion(id, em);
      await this.audit.record(
        {
          actor: by,
          researchId: exclusion.researchId,
          entity: 'exclusion',
          entityId: id,
          action: 'delete',
          before: exclusionValues(exclusion),
        },
        em,
      );
    });
    await this.events.changed(exclusion.researchId, 'RESEARCH');
  }

  /**
   * The criteria as kept by the server (CriteriaKeeper): computed once as the frames are stored, not per
   * request. Everyone's are computed from every observation (a client never sees a better class because an
   * observation is hidden from them); a client's view leaves the classification out when staff chose so.
   */
  criteria(researchId: string, principal: Principal): Promise<CriteriaView> {
    return this.keeper.view(researchId, principal.kind === 'viewer' ? 'client' : 'staff');
  }

  private async research(id: string): Promise<ResearchEntity> {
    const research = await this.repo.research(id);
    if (!research) throw new NotFoundException('Research not found');
    return research;
  }

  private async observation(id: string): Promise<ObservationEntity> {
    const observation = await this.repo.findObservation(id);
    if (!observation) throw new NotFoundException('Observation not found');
    return observation;
  }
}

/** "thermo_id 1–12" or "thermo_id 1, 3, 7". */
function describeIds(ids: number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const contiguous = sorted.every((id, i) => i === 0 || id === sorted[i - 1]! + 1);
  if (contiguous && sorted.length > 2) return `thermo_id ${sorted[0]}–${sorted[sorted.length - 1]}`;
  return `thermo_id ${sorted.slice(0, 20).join(', ')}${sorted.length > 20 ? ', …' : ''}`;
}
