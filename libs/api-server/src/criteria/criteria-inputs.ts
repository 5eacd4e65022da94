import type {
  CriteriaSnapshot,
  CriterionResult,
  Observation,
  ObservationKind,
  TestProfile,
  ThermoExclusion,
} from '@furnace/contracts';
import type { ObservationEntity, ResearchEntity, ThermoExclusionEntity } from '@furnace/db';

/** Rows of the database as the criteria engine takes them. */

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

export const toExclusion = (e: ThermoExclusionEntity): ThermoExclusion => ({
  id: e.id,
  thermo_id: e.thermoId,
  from_time: e.fromTime,
  reason: e.reason,
});

/**
 * What a client gets when staff do not show clients the classification (research.classification_to_clients):
 * the class and the E/I/W minutes that make it are left out; everything else is everyone's one result.
 */
export function withoutClassification<T extends CriteriaSnapshot>(view: T): T {
  const withheld = (r: CriterionResult): CriterionResult => ({ ...r, minutes: null, held_minutes: null });
  return {
    ...view,
    classification: null,
    criteria: { E: withheld(view.criteria.E), I: withheld(view.criteria.I), W: withheld(view.criteria.W) },
  };
}
