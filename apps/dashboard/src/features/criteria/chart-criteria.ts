import type { HistoryDto } from '@furnace/api-client';
import { type CriteriaSnapshot, type HeatingCurveId, type ObservationKind } from '@furnace/contracts';
import { DeviationAccumulator, furnaceTolerance, heatingCurve, pressureTolerance } from '@furnace/criteria';
import type { ChartCategory } from '../charts/categories';
import type { HorizontalBand, Threshold, VerticalBand, VerticalMark } from '../charts/chart-option';

import { type CriteriaOverlay, deviationKey } from '../charts/curve-specs';
import { type Point, secondsToMs } from '../charts/points';

/*
 * The criteria drawn on the curves: the profile's limits as the categories' critical lines, marks for
 * observations, failures and exclusions, the pressure band over time, the radiation limit and the d_e curve.
 */

const CRITERIA_COLORS = {
  observation: '#e8590c',
  stopped: '#495057',
  failure: '#c92a2a',
  exclusion: '#868e96',
  pressure: '#1c7ed6',
  radiation: '#c92a2a',
  deviation: '#2f9e44',
  tolerance: '#adb5bd',
} as const;

/** W: the radiation limit of EN 13501-2 (15 kW/m² at 1 m). */
const RADIATION_LIMIT_KW = 15;

export interface LimitLabels {
  max: (text: string) => string;
  mean: (text: string) => string;
  frame: (text: string) => string;
}

/**
 * The categories with the snapshot's limits as their critical lines (°C): max (or the frame limit
 * for frame thermocouples) and mean where the profile counts the type for them; none otherwise.
 */
export function withCriteriaLimits(
  categories: readonly ChartCategory[],
  snapshot: CriteriaSnapshot | null,
  labels: LimitLabels,
): ChartCategory[] {
  if (!snapshot) return [...categories];
  return categories.map((category) => {
    const view = snapshot.categories.find((c) => c.type_name === category.typeName);
    const maxLimit = view?.role.max ? snapshot.limits.max : view?.role.frame ? snapshot.limits.frame : null;
    const meanLimit = view?.role.mean ? snapshot.limits.mean : null;
    return {
      ...category,
      critical: { max: maxLimit?.c ?? null, mean: meanLimit?.c ?? null },
      limitLabels: {
        max: maxLimit ? (view?.role.max ? labels.max(maxLimit.text) : labels.frame(maxLimit.text)) : undefined,
        mean: meanLimit ? labels.mean(meanLimit.text) : undefined,
      },
    };
  });
}

export interface OverlayInput {
  snapshot: CriteriaSnapshot | null;
  observations: readonly { time: number; kind: ObservationKind; note: string | null }[];
  exclusions: readonly { thermo_id: number; from_time: number }[];
  profile: { pressure_target_pa: number | null; pressure_tolerance_pa: number | null };
  /** s since ignition: the end of the test drawn (the pressure band reaches it); null without frames. */
  until?: number | null;
  names: ReadonlyMap<number, string>;
  texts: {
    observation: (kind: ObservationKind) => string;
    failure: (criterion: string) => string;
    exclusion: (name: string) => string;
    pressureBand: (target: number, tolerance: number) => string;
    radiationLimit: string;
  };
}

/**
 * The pressure target ± its tolerance from ignition to `until` (EN 1363-1 §5.2): one stretch per tolerance
 * as `pressureTolerance` gives it second by second (none before 5 min, where nothing is required).
 */
function pressureBands(
  profile: OverlayInput['profile'],
  until: number | null | undefined,
  label: (target: number, tolerance: number) => string,
): HorizontalBand[] {
  const target = profile.pressure_target_pa;
  if (target === null || !Number.isFinite(target) || typeof until !== 'number' || !(until > 0)) return [];
  const stretches: { from: number; tolerance: number | null }[] = [];
  for (let t = 0; t < until; t += 1) {
    const tolerance = pressureTolerance(profile, t);
    if (stretches.at(-1)?.tolerance !== tolerance) stretches.push({ from: t, tolerance });
  }
  return stretches.flatMap(({ from, tolerance }, i) =>
    tolerance === null
      ? []
      : [
          {
            from: target - tolerance,
            to: target + tolerance,
            start: secondsToMs(from),
            end: secondsToMs(stretches[i + 1]?.from ?? until),
            label: label(target, tolerance),
            color: CRITERIA_COLORS.pressure,
          },
        ],
  );
}

/** The marks, bands and lines of the criteria on the curves. */
export function criteriaOverlay(input: OverlayInput): CriteriaOverlay {
  const marks: VerticalMark[] = [];
  const bands: VerticalBand[] = [];
  for (const o of input.observations) {
    const label =
      o.kind === 'note' && o.note
        ? `${input.texts.observation(o.kind)}: ${o.note.slice(0, 24)}`
        : input.texts.observation(o.kind);
    marks.push({
      x: secondsToMs(o.time),
      label,
      color: o.kind === 'test_stopped' || o.kind === 'note' ? CRITERIA_COLORS.stopped : CRITERIA_COLORS.observation,
    });
  }
  for (const f of input.snapshot?.failures ?? []) {
    const label = input.texts.failure(f.criterion);
    if (f.interval_from !== null)
      bands.push({
        from: secondsToMs(f.interval_from),
        to: secondsToMs(f.time),
        label,
        color: CRITERIA_COLORS.failure,
      });
    else
      marks.push({
        x: secondsToMs(f.time),
        label,
        color: CRITERIA_COLORS.failure,
        grids: f.criterion === 'W' ? ['scalars'] : ['categories', 'thermocouples'],
      });
  }
  for (const e of input.exclusions) {
    marks.push({
      x: secondsToMs(e.from_time),
      label: input.texts.exclusion(input.names.get(e.thermo_id) ?? `#${e.thermo_id}`),
      color: CRITERIA_COLORS.exclusion,
      grids: ['categories', 'thermocouples'],
    });
  }
  const radiationLimit: Threshold = {
    value: RADIATION_LIMIT_KW,
    label: input.texts.radiationLimit,
    color: CRITERIA_COLORS.radiation,
  };
  return {
    marks,
    bands,
    radiationLimit,
    pressureBands: pressureBands(input.profile, input.until, input.texts.pressureBand),
  };
}

/**
 * d_e over the test from the history's mean furnace temperature (each point's mean), with its
 * tolerance envelope (± the tolerance from 5 min on), as chart points.
 */
export function deviationPoints(
  history: Pick<HistoryDto, 'time' | 'series'>,
  curve: HeatingCurveId,
): Map<string, Point[]> {
  const pk = history.series.find((s) => s.kind === 'pk');
  const de: Point[] = [];
  const upper: Point[] = [];
  const lower: Point[] = [];
  if (pk) {
    const area = new DeviationAccumulator((t) => heatingCurve(curve, t));
    history.time.forEach((t, i) => {
      const value = pk.mean[i] ?? null;
      if (t < 0) return;
      area.push(t, value);
      const x = secondsToMs(t);
      const d = area.deviation();
      de.push([x, d === null ? null : Math.round(d * 100) / 100]);
      const tolerance = furnaceTolerance(t);
      upper.push([x, tolerance]);
      lower.push([x, tolerance === null ? null : -tolerance]);
    });
  }
  return new Map([
    [deviationKey.de, de],
    [deviationKey.upper, upper],
    [deviationKey.lower, lower],
  ]);
}

/** The d_e grid's series. */
export function deviationSeries(labels: { deviation: string; upper: string; lower: string }) {
  return [
    { id: deviationKey.de, name: labels.deviation, grid: 0, color: CRITERIA_COLORS.deviation, width: 2 },
    {
      id: deviationKey.upper,
      name: labels.upper,
      grid: 0,
      color: CRITERIA_COLORS.tolerance,
      dashed: true,
      width: 1,
      legend: false,
    },
    {
      id: deviationKey.lower,
      name: labels.lower,
      grid: 0,
      color: CRITERIA_COLORS.tolerance,
      dashed: true,
      width: 1,
      legend: false,
    },
  ] as const;
}
