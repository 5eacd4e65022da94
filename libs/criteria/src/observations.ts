import type { Observation, ObservationKind } from '@furnace/contracts';

export const OBSERVATION_KINDS = Object.freeze([
  'cotton_pad',
  'gap_6mm',
  'gap_25mm',
  'sustained_flaming',
  'note',
  'test_stopped',
] as const) satisfies readonly ObservationKind[];

/** Integrity failures (EN 1363-1 §11.2): the first of them ends E. */
export const INTEGRITY_OBSERVATIONS: readonly ObservationKind[] = Object.freeze([
  'cotton_pad',
  'gap_6mm',
  'gap_25mm',
  'sustained_flaming',
]);

export function isIntegrityObservation(observation: Pick<Observation, 'kind'>): boolean {
  return INTEGRITY_OBSERVATIONS.includes(observation.kind);
}

export function isObservationKind(value: unknown): value is ObservationKind {
  return typeof value === 'string' && (OBSERVATION_KINDS as readonly string[]).includes(value);
}
