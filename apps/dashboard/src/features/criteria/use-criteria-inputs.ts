import type { ObservationDto, ResearchDto, ThermoExclusionDto } from '@furnace/api-client';
import { type TestProfile } from '@furnace/contracts';
import { isDoorStandard } from '@furnace/criteria';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ReadAuth } from '../stream/read-auth';
import { exclusionsQuery, observationsQuery } from '../stream/criteria-api';
import type { CriteriaInputs } from './live-criteria';

type ProfileSource = Pick<
  ResearchDto,
  | 'standard'
  | 'insulation'
  | 'heating_curve'
  | 'criteria_basis'
  | 'planned_duration_min'
  | 'pressure_target_pa'
  | 'pressure_tolerance_pa'
>;

/** The research's test profile as the engine takes it (the insulation class only for a door standard). */
export function profileOf(research: ProfileSource): TestProfile {
  return {
    standard: research.standard,
    insulation: isDoorStandard(research.standard) ? (research.insulation ?? 'I2') : null,
    heating_curve: research.heating_curve,
    criteria_basis: research.criteria_basis,
    planned_duration_min: research.planned_duration_min,
    pressure_target_pa: research.pressure_target_pa,
    pressure_tolerance_pa: research.pressure_tolerance_pa,
  };
}

const NONE: readonly never[] = [];

/**
 * The observations and exclusions of a research, refetched on the live UPDATEs (a viewer gets only
 * the observations visible to clients); `ready` once both have loaded (or failed: then empty).
 */
export function useCriteriaLists(
  auth: ReadAuth,
  researchId: string,
): { ready: boolean; observations: readonly ObservationDto[]; exclusions: readonly ThermoExclusionDto[] } {
  const observations = useQuery(observationsQuery(auth, researchId));
  const exclusions = useQuery(exclusionsQuery(auth, researchId));
  return {
    ready: !observations.isPending && !exclusions.isPending,
    observations: observations.data ?? NONE,
    exclusions: exclusions.data ?? NONE,
  };
}

/**
 * What the browser's criteria engine (the replay's) is built from, with the observations and
 * exclusions it takes; `inputs` is null until both have loaded (or failed: then without them).
 */
export function useCriteriaInputs(
  auth: ReadAuth,
  research: ResearchDto,
  markers: readonly { thermo_id: number; type_name: string }[],
): {
  inputs: CriteriaInputs | null;
  observations: readonly ObservationDto[];
  exclusions: readonly ThermoExclusionDto[];
} {
  const { ready, observations: observationList, exclusions: exclusionList } = useCriteriaLists(auth, research.id);
  const inputs = useMemo(
    (): CriteriaInputs | null =>
      ready
        ? {
            profile: profileOf(research),
            markers: markers.map((m) => ({ thermo_id: m.thermo_id, type_name: m.type_name })),
            observations: observationList,
            exclusions: exclusionList,
            t0_override: research.t0_override,
          }
        : null,
    [ready, research, markers, observationList, exclusionList],
  );
  return { inputs, observations: observationList, exclusions: exclusionList };
}
