import type { CriteriaSnapshot, ObservationKind } from '@furnace/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartCategory } from '../charts/categories';
import type { CriteriaOverlay } from '../charts/curve-specs';
import { criteriaOverlay, withCriteriaLimits } from './chart-criteria';
import { formatValue } from '@furnace/contracts';

export interface CriteriaChartInput {
  categories: readonly ChartCategory[];
  snapshot: CriteriaSnapshot | null;
  observations: readonly { time: number; kind: ObservationKind; note: string | null }[];
  exclusions: readonly { thermo_id: number; from_time: number }[];
  profile: { pressure_target_pa: number | null; pressure_tolerance_pa: number | null };
  /** s since ignition: the end of the test drawn (the pressure band reaches it). */
  until?: number | null;
  names: ReadonlyMap<number, string>;
}

/**
 * The categories with the profile's limits and the criteria overlay of the curves. Keyed on what
 * they draw (limits, failures, observations, exclusions, the pressure band), not on the snapshot
 * object: a live snapshot changes twice a second, the chart's option only when a line or a mark does.
 */
export function useCriteriaChart(input: CriteriaChartInput): { categories: ChartCategory[]; overlay: CriteriaOverlay } {
  const { t, i18n } = useTranslation('criteria');
  const { snapshot } = input;
  const drawn = snapshot
    ? {
        limits: snapshot.limits,
        failures: snapshot.failures,
        categories: snapshot.categories.map((c) => [c.type_name, c.role]),
      }
    : null;
  const key = JSON.stringify([
    drawn,
    input.observations.map((o) => [o.time, o.kind, o.note]),
    input.exclusions.map((e) => [e.thermo_id, e.from_time]),
    input.profile,
    input.until,
    i18n.language,
  ]);
  return useMemo(() => {
    const categories = withCriteriaLimits(input.categories, snapshot, {
      max: (text) => t('history.limitMax', { text }),
      mean: (text) => t('history.limitMean', { text }),
      frame: (text) => t('history.limitFrame', { text }),
    });
    const overlay = criteriaOverlay({
      snapshot,
      observations: input.observations,
      exclusions: input.exclusions,
      profile: input.profile,
      until: input.until,
      names: input.names,
      texts: {
        observation: (kind) => t(`observation.${kind}`),
        failure: (criterion) => t(`criterion.${criterion as 'I_mean'}`),
        exclusion: (name) => `${name} ✕`,
        pressureBand: (target, tolerance) =>
          t('history.pressureBand', { target: formatValue(target), tolerance: formatValue(tolerance) }),
        radiationLimit: t('history.radiationLimit'),
      },
    });
    return { categories, overlay };
    // Keyed on the drawn content (see above) and the inputs' identities that define it.
  }, [key, input.categories, input.names, t]);
}
