import { Injectable, NotFoundException } from '@nestjs/common';
import {
  CriteriaEngine,
  type Observation,
  type ObservationKind,
  type TestProfile,
  type ThermoExclusion,
} from '@furnace/contracts';
import type { ObservationEntity, ResearchEntity, ThermoExclusionEntity } from '@furnace/db';
import type { Principal } from '../auth/principal';
import { validationException } from '../core/errors';
import { RealArrayReader } from '../history/real-array';
import { toCriteriaFrame } from '../history/stored-frame';
import { ResearchEvents } from '../research/research-events';
import { CriteriaRepository } from './criteria.repository';
import type { CriteriaDto } from './criteria.dto';

/**
 * Frames read at a time (the next page is read while this one is pushed through the engine). Small: a
 * page's rows then die young in the garbage collector instead of being promoted to the old generation,
 * which is what grows the process's RSS over a long test (docs/performance.md, "Exports").
 */
const FRAMES_PAGE = 500;

export interface ObservationInput {
  time?: number;
  kind: ObservationKind;
  note?: string | null;
  visibleToClients?: boolean;
}

export const profileOf = (r: ResearchEntity): TestProfile => ({
  standard: r.standard as TestProfile['standard'],
  insulation: r.insulation as TestProfile['insulation'],
  heating_curve: r.heatingCurve as TestProfile['heating_curve'],
  criteria_basis: r.criteriaBasis as TestProfile['criteria_basis'],
  planned_duration_min: r.plannedDurationMin,
  pressure_target_pa: r.pressureTargetPa,
  pressure_tolerance_pa: r.pressureTolerancePa,
});

export const toObservation = (o: ObservationEntity): Observation => ({
  id: o.id,
  time: o.time,
  kind: o.kind as ObservationKind,
  note: o.note,
  visible_to_clients: o.visibleToClients,
});

export const toExclusion = (e: ThermoExclusionEntity): ThermoExclusion => ({ id: e.id, thermo_id: e.thermoId, from_time: e.fromTime, reason: e.reason });

/**
 * The fire-test criteria of a research: observations and thermocouple exclusions (staff write, the
 * research's viewers read), and the criteria computed by the engine over the stored frames.
 */
@Injectable()
export class CriteriaService {
  constructor(
    private readonly repo: CriteriaRepository,
    private readonly events: ResearchEvents,
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
      throw validationException([{ loc: ['body', 'note'], msg: 'note must not be empty for an observation of kind note', type: 'observation' }]);
    }
    let time = input.time;
    if (time === undefined) {
      const newest = await this.repo.newestTime(researchId);
      if (newest === null) {
        throw validationException([{ loc: ['body', 'time'], msg: 'no frame of this research is stored yet: give the time (s since ignition)', type: 'observation' }]);
      }
      time = newest;
    }
    const created = await this.repo.createObservation({ researchId, time, kind: input.kind, note, visibleToClients: input.visibleToClients ?? false, createdBy: by });
    await this.events.changed(researchId, 'OBSERVATION');
    return created;
  }

  async updateObservation(id: string, input: { note?: string | null; visibleToClients?: boolean }): Promise<ObservationEntity> {
    const observation = await this.observation(id);
    const fields: Partial<Pick<ObservationEntity, 'note' | 'visibleToClients'>> = {};
    if (input.note !== undefined) {
      const note = input.note === null || input.note === '' ? null : input.note;
      if (observation.kind === 'note' && note === null) {
        throw validationException([{ loc: ['body', 'note'], msg: 'note must not be empty for an observation of kind note', type: 'observation' }]);
      }
      fields.note = note;
    }
    if (input.visibleToClients !== undefined) fields.visibleToClients = input.visibleToClients;
    const updated = await this.repo.updateObservation(observation, fields);
    await this.events.changed(observation.researchId, 'OBSERVATION');
    return updated;
  }

  async deleteObservation(id: string): Promise<void> {
    const observation = await this.observation(id);
    await this.repo.deleteObservation(id);
    await this.events.changed(observation.researchId, 'OBSERVATION');
  }

  async exclusions(researchId: string): Promise<ThermoExclusionEntity[]> {
    await this.research(researchId);
    return this.repo.listExclusions(researchId);
  }

  async createExclusion(researchId: string, input: { thermoId: number; fromTime: number; reason: string }, by: string): Promise<ThermoExclusionEntity> {
    await this.research(researchId);
    const markers = await this.repo.markers(researchId);
    if (!markers.some((m) => m.thermo_id === input.thermoId)) {
      const ids = [...new Set(markers.map((m) => m.thermo_id))];
      const known = ids.length === 0 ? 'the research has no thermocouple config yet' : `its configs have ${describeIds(ids)}`;
      throw validationException([{ loc: ['body', 'thermo_id'], msg: `thermo_id ${input.thermoId} is not a thermocouple of this research (${known})`, type: 'exclusion' }]);
    }
    const created = await this.repo.createExclusion({ researchId, thermoId: input.thermoId, fromTime: input.fromTime, reason: input.reason, createdBy: by });
    await this.events.changed(researchId, 'RESEARCH');
    return created;
  }

  async deleteExclusion(id: string): Promise<void> {
    const exclusion = await this.repo.findExclusion(id);
    if (!exclusion) throw new NotFoundException('Exclusion not found');
    await this.repo.deleteExclusion(id);
    await this.events.changed(exclusion.researchId, 'RESEARCH');
  }

  /**
   * The criteria over every stored frame, read page by page. A client's criteria are computed from
   * the observations visible to clients only: E (and so the class) follows the integrity
   * observations they can see, and nothing staff keep to themselves leaks through the numbers.
   */
  async criteria(researchId: string, principal: Principal, now = new Date()): Promise<CriteriaDto> {
    const research = await this.research(researchId);
    const [markers, exclusions, all, ignitionAt] = await Promise.all([
      this.repo.markers(researchId),
      this.repo.listExclusions(researchId),
      this.repo.listObservations(researchId, false),
      this.repo.ignitionAt(researchId),
    ]);
    const observations = principal.kind === 'viewer' ? all.filter((o) => o.visibleToClients) : all;
    const ended = now.getTime() > research.endAt.getTime() || all.some((o) => o.kind === 'test_stopped');
    const engine = new CriteriaEngine({
      profile: profileOf(research),
      markers,
      exclusions: exclusions.map(toExclusion),
      observations: observations.map(toObservation),
      t0_override: research.t0Override,
      ended,
    });
    const reader = new RealArrayReader();
    const scratch: number[] = [];
    let page = this.repo.frames(researchId, null, FRAMES_PAGE);
    for (;;) {
      const rows = await page;
      const more = rows.length === FRAMES_PAGE;
      if (more) page = this.repo.frames(researchId, rows[rows.length - 1]!.time, FRAMES_PAGE);
      for (const row of rows) engine.push(toCriteriaFrame(row, row.thermocouples === null ? null : reader.read(row.thermocouples), scratch));
      if (!more) break;
    }
    return { ...engine.snapshot(), ended, ignition_at: ignitionAt?.toISOString() ?? null };
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
