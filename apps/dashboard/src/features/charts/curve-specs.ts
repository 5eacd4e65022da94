import type { ChartCategory } from './categories';
import { seriesKey } from './categories';
import {
  THRESHOLD_COLORS,
  type ChartSpec,
  type GridSpec,
  type HorizontalBand,
  type SeriesSpec,
  type Threshold,
  type VerticalBand,
  type VerticalMark,
} from './chart-option';

/** Already translated texts of the curves (namespace "history", key "chart"). */
export interface CurveLabels {
  furnace: string;
  pk: string;
  iso834: string;
  categories: string;
  thermocouples: string;
  scalars: string;
  radiance: string;
  pressure: string;
  categoryMax: (typeName: string) => string;
  categoryMean: (typeName: string) => string;
  criticalMax: (value: number) => string;
  criticalMean: (value: number) => string;
}

const CURVE_COLORS = {
  pk: '#d9480f',
  iso834: '#868e96',
  radiance: '#7048e8',
  pressure: '#1c7ed6',
} as const;

/** A thermocouple of the history: its channel, its name and colour from the config (when it has one). */
export interface ChartThermocouple {
  readonly thermoId: number;
  readonly name: string;
  readonly color?: string;
}

function furnaceSeries(grid: number, labels: CurveLabels): SeriesSpec[] {
  return [
    { id: seriesKey.pk, name: labels.pk, grid, color: CURVE_COLORS.pk, width: 2 },
    { id: seriesKey.iso834, name: labels.iso834, grid, color: CURVE_COLORS.iso834, dashed: true, width: 1.5 },
  ];
}

/** Per category its max (solid) with the critical max line, and its mean (dashed) with the critical mean line. */
function categorySeries(grid: number, categories: readonly ChartCategory[], labels: CurveLabels): SeriesSpec[] {
  return categories.flatMap((category): SeriesSpec[] => {
    const maxLine: Threshold[] =
      category.critical.max === null
        ? []
        : [
            {
              value: category.critical.max,
              label: category.limitLabels?.max ?? labels.criticalMax(category.critical.max),
              color: THRESHOLD_COLORS.max,
            },
          ];
    const meanLine: Threshold[] =
      category.critical.mean === null
        ? []
        : [
            {
              value: category.critical.mean,
              label: category.limitLabels?.mean ?? labels.criticalMean(category.critical.mean),
              color: THRESHOLD_COLORS.mean,
            },
          ];
    return [
      {
        id: seriesKey.categoryMax(category.typeName),
        name: labels.categoryMax(category.typeName),
        grid,
        color: category.color,
        width: 2,
        thresholds: maxLine,
      },
      {
        id: seriesKey.categoryMean(category.typeName),
        name: labels.categoryMean(category.typeName),
        grid,
        color: category.color,
        dashed: true,
        width: 1.5,
        thresholds: meanLine,
      },
    ];
  });
}

/**
 * What the fire-test criteria add to the curves: vertical marks (observations, failures, exclusions),
 * shaded intervals (a failure after a gap), the pressure band, the radiation limit and, in the
 * history, the d_e curve with its tolerance envelope on a grid of its own.
 */
export interface CriteriaOverlay {
  readonly marks: readonly VerticalMark[];
  readonly bands: readonly VerticalBand[];
  /** The pressure target ± its tolerance, one per stretch of time with the same tolerance. */
  readonly pressureBands?: readonly HorizontalBand[];
  readonly radiationLimit?: Threshold;
  readonly deviation?: { readonly title: string; readonly series: readonly SeriesSpec[] };
}

/** Series ids of the d_e grid (computed in the browser, not read from the history endpoint). */
export const deviationKey = { de: 'criteria:de', upper: 'criteria:tol+', lower: 'criteria:tol-' } as const;

/** The grids both charts start with: the furnace against ISO 834 (when drawn), then the categories (when any). */
function temperatureGrids(input: { furnace: boolean; categories: readonly ChartCategory[]; labels: CurveLabels }): {
  grids: GridSpec[];
  series: SeriesSpec[];
} {
  const grids: GridSpec[] = [];
  const series: SeriesSpec[] = [];
  if (input.furnace) {
    series.push(...furnaceSeries(grids.length, input.labels));
    grids.push({ id: 'furnace', title: input.labels.furnace, units: ['°C'] });
  }
  if (input.categories.length > 0) {
    series.push(...categorySeries(grids.length, input.categories, input.labels));
    grids.push({ id: 'categories', title: input.labels.categories, units: ['°C'] });
  }
  return { grids, series };
}

/**
 * The live curves: the mean furnace temperature against ISO 834 (only for a research that measures
 * it), and per category max and mean against the critical values. No grid: no chart (null).
 */
export function liveCurvesSpec(input: {
  furnace: boolean;
  categories: readonly ChartCategory[];
  labels: CurveLabels;
  gridHeight?: number;
  overlay?: CriteriaOverlay;
}): ChartSpec | null {
  const { grids, series } = temperatureGrids(input);
  return grids.length === 0
    ? null
    : {
        grids,
        series,
        zoom: false,
        gridHeight: input.gridHeight ?? 180,
        marks: input.overlay?.marks,
        bands: input.overlay?.bands,
      };
}

export interface HistoryChartInput {
  /** Draw the furnace grid (pk and ISO 834). */
  furnace: boolean;
  radiance: boolean;
  pressure: boolean;
  categories: readonly ChartCategory[];
  thermocouples: readonly ChartThermocouple[];
  labels: CurveLabels;
  gridHeight?: number;
  overlay?: CriteriaOverlay;
}

/**
 * The staff history chart: furnace (pk, ISO 834), categories with their critical lines, every
 * thermocouple (outside the legend: the page toggles them), radiation and pressure (two axes).
 * One chart, one zoom over every grid.
 */
export function historyChartSpec(input: HistoryChartInput): ChartSpec | null {
  const { grids, series } = temperatureGrids(input);
  const overlay = input.overlay;
  if (overlay?.deviation) {
    const grid = grids.length;
    for (const s of overlay.deviation.series) series.push({ ...s, grid });
    grids.push({ id: 'deviation', title: overlay.deviation.title, units: ['%'] });
  }
  if (input.thermocouples.length > 0) {
    const grid = grids.length;
    for (const thermo of input.thermocouples) {
      series.push({
        id: seriesKey.thermo(thermo.thermoId),
        name: thermo.name,
        grid,
        color: thermo.color,
        width: 1,
        legend: false,
      });
    }
    grids.push({ id: 'thermocouples', title: input.labels.thermocouples, units: ['°C'] });
  }
  if (input.radiance || input.pressure) {
    const grid = grids.length;
    const units: [string] | [string, string] =
      input.radiance && input.pressure ? ['kW/m²', 'Pa'] : [input.radiance ? 'kW/m²' : 'Pa'];
    if (input.radiance) {
      const thresholds = overlay?.radiationLimit ? [overlay.radiationLimit] : undefined;
      series.push({
        id: seriesKey.radiance,
        name: input.labels.radiance,
        grid,
        color: CURVE_COLORS.radiance,
        width: 1.5,
        thresholds,
      });
    }
    if (input.pressure) {
      series.push({
        id: seriesKey.pressure,
        name: input.labels.pressure,
        grid,
        axis: input.radiance ? 1 : 0,
        color: CURVE_COLORS.pressure,
        width: 1.5,
        bands: overlay?.pressureBands,
      });
    }
    const title =
      input.radiance && input.pressure
        ? input.labels.scalars
        : input.radiance
          ? `${input.labels.radiance} [kW/m²]`
          : `${input.labels.pressure} [Pa]`;
    grids.push({ id: 'scalars', title, units });
  }
  return grids.length === 0
    ? null
    : { grids, series, zoom: true, gridHeight: input.gridHeight ?? 220, marks: overlay?.marks, bands: overlay?.bands };
}
