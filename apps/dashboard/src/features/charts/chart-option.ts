import type { LineSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { formatElapsed } from '@furnace/contracts';

/*
 * The charts' ECharts option, built by plain functions from a description of grids and series.
 * The option carries no data: the components push each series' points by id (setOption with
 * {series: [{id, data}]}), so a live frame or a zoom never rebuilds the option.
 */

export type ChartOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
>;

/** A horizontal line at a critical value. */
export interface Threshold {
  readonly value: number;
  readonly label: string;
  readonly color: string;
}

/** A vertical line at a time on every grid (an observation, a failure, an exclusion). */
export interface VerticalMark {
  /** ms since the start, like the points. */
  readonly x: number;
  readonly label: string;
  readonly color: string;
  /** Only on the grids with these ids (default: every grid). */
  readonly grids?: readonly string[];
}

/** A shaded time range on every grid (a failure known only as an interval after a gap in the frames). */
export interface VerticalBand {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  readonly color: string;
}

/** A shaded value range on a series' axis over a time range (the pressure target ± the tolerance of that time). */
export interface HorizontalBand {
  readonly from: number;
  readonly to: number;
  /** ms since the start, like the points. */
  readonly start: number;
  readonly end: number;
  readonly label: string;
  readonly color: string;
}

export interface GridSpec {
  readonly id: string;
  readonly title: string;
  /** Units of the grid's y axes: one, or two (left and right). */
  readonly units: readonly [string] | readonly [string, string];
}

export interface SeriesSpec {
  /** The series id, also the key its points are pushed under (the history endpoint's key). */
  readonly id: string;
  readonly name: string;
  /** Index into ChartSpec.grids. */
  readonly grid: number;
  /** 1 for a grid's right-hand axis. */
  readonly axis?: 0 | 1;
  readonly color?: string;
  readonly dashed?: boolean;
  readonly width?: number;
  /** Listed in the legend (default true); thermocouples are toggled by their own list instead. */
  readonly legend?: boolean;
  readonly thresholds?: readonly Threshold[];
  readonly bands?: readonly HorizontalBand[];
}

export interface ChartSpec {
  readonly grids: readonly GridSpec[];
  readonly series: readonly SeriesSpec[];
  /** dataZoom inside + slider over every grid's time axis. */
  readonly zoom: boolean;
  /** Height of each grid's plot area, px. */
  readonly gridHeight: number;
  /** Drawn on the first series of each grid (so they need no series of their own). */
  readonly marks?: readonly VerticalMark[];
  readonly bands?: readonly VerticalBand[];
}

export interface ChartTexts {
  /** "+{{count}} more" under a long tooltip. */
  more: (count: number) => string;
  /** Tooltip header for a time (ms since the start): elapsed time, and where known the time of day. */
  header: (ms: number) => string;
  /** The dark colour scheme: labels over the plot get a dark backdrop instead of a light one. */
  dark?: boolean;
}

export const THRESHOLD_COLORS = { max: '#e03131', mean: '#f08c00' } as const;

const LEGEND_HEIGHT = 30;
const TITLE_HEIGHT = 26;
const X_LABELS_HEIGHT = 30;
const SLIDER_HEIGHT = 46;
const TOOLTIP_ROWS = 14;

export interface ChartLayout {
  /** Height of the whole chart, px. */
  readonly height: number;
  /** Top of each grid's plot area, px. */
  readonly tops: readonly number[];
}

/** Grids stacked top to bottom: the legend, then per grid a title, the plot and its time labels, then the zoom slider. */
export function chartLayout(spec: Pick<ChartSpec, 'grids' | 'zoom' | 'gridHeight'>): ChartLayout {
  const block = TITLE_HEIGHT + spec.gridHeight + X_LABELS_HEIGHT;
  const tops = spec.grids.map((_, i) => LEGEND_HEIGHT + i * block + TITLE_HEIGHT);
  return { height: LEGEND_HEIGHT + spec.grids.length * block + (spec.zoom ? SLIDER_HEIGHT : 8), tops };
}

/** A value axis label without thousands separators (ECharts would write 1,000) and float noise. */
const axisNumber = (value: number): string => String(Math.round(value * 1000) / 1000);

/** The data's range on an axis, as ECharts gives it to a `min`/`max` function. */
interface AxisExtent {
  min: number;
  max: number;
}
/** The shortest time span an axis shows (ms). */
const MIN_TIME_SPAN_MS = 60_000;

/** Elapsed time of the test as an axis label: hh:mm:ss. */
export const elapsedLabel = (ms: number): string => formatElapsed(ms / 1000);

interface TooltipParam {
  seriesId?: string;
  seriesName?: string;
  color?: unknown;
  value?: unknown;
  axisValue?: unknown;
}

/**
 * The tooltip: the time, then the series with a value at it (at most TOOLTIP_ROWS). Built as DOM
 * nodes, not HTML: names from uploaded config files go in as text, and styles are set through
 * CSSOM, which the Content-Security-Policy allows (ECharts' own HTML markers carry style attributes,
 * which it refuses).
 */
export function tooltipContent(
  params: readonly TooltipParam[],
  units: ReadonlyMap<string, string>,
  texts: ChartTexts,
): HTMLElement {
  const root = document.createElement('div');
  const first = params[0];
  if (!first) return root;
  const time =
    typeof first.axisValue === 'number' ? first.axisValue : Array.isArray(first.value) ? Number(first.value[0]) : 0;
  const line = (...children: (Node | string)[]) => {
    const div = document.createElement('div');
    div.append(...children);
    root.append(div);
  };
  const bold = (text: string) => {
    const b = document.createElement('b');
    b.textContent = text;
    return b;
  };
  line(bold(texts.header(time)));
  let rows = 0;
  let hidden = 0;
  const seen = new Set<string>();
  for (const param of params) {
    const value = Array.isArray(param.value) ? param.value[1] : null;
    const id = param.seriesId ?? '';
    if (typeof value !== 'number' || seen.has(id)) continue;
    seen.add(id);
    if (rows >= TOOLTIP_ROWS) {
      hidden++;
      continue;
    }
    rows++;
    const marker = document.createElement('span');
    Object.assign(marker.style, {
      display: 'inline-block',
      width: '10px',
      height: '10px',
      borderRadius: '5px',
      marginRight: '5px',
    });
    if (typeof param.color === 'string') marker.style.backgroundColor = param.color;
    const unit = units.get(id) ?? '';
    line(marker, `${param.seriesName ?? id}: `, bold(value.toFixed(1)), unit ? ` ${unit}` : '');
  }
  if (hidden > 0) line(texts.more(hidden));
  return root;
}

/** The ECharts option of a chart spec (no data: see the file comment). */
export function buildChartOption(spec: ChartSpec, texts: ChartTexts): ChartOption {
  const layout = chartLayout(spec);
  const gridIndexes = spec.grids.map((_, i) => i);
  const axisBase: number[] = [];
  const yAxis: NonNullable<ChartOption['yAxis']> & unknown[] = [];
  const thresholdMax = new Map<string, number>();
  const bandMin = new Map<string, number>();
  for (const series of spec.series) {
    const bands = series.bands ?? [];
    const top = Math.max(0, ...(series.thresholds ?? []).map((th) => th.value), ...bands.map((b) => b.to));
    const key = `${series.grid}:${series.axis ?? 0}`;
    if (top > 0) thresholdMax.set(key, Math.max(thresholdMax.get(key) ?? 0, top));
    // A band (the pressure target ± tolerance) stays on the chart whole.
    for (const band of bands) bandMin.set(key, Math.min(bandMin.get(key) ?? Number.POSITIVE_INFINITY, band.from));
  }
  spec.grids.forEach((grid, i) => {
    axisBase.push(yAxis.length);
    grid.units.forEach((_, side) => {
      const colored =
        grid.units.length > 1 ? spec.series.find((s) => s.grid === i && (s.axis ?? 0) === side)?.color : undefined;
      yAxis.push({
        type: 'value',
        gridIndex: i,
        position: side === 0 ? 'left' : 'right',
        scale: true,
        // Critical lines stay on the chart even while every reading is far below them.
        dataMax: thresholdMax.get(`${i}:${side}`),
        dataMin: bandMin.get(`${i}:${side}`),
        splitLine: { show: side === 0 },
        axisLabel: { formatter: axisNumber, ...(colored ? { color: colored } : {}) },
      });
    });
  });

  const units = new Map<string, string>();
  // Several categories share a critical value (180 °C): one label per line, not a smudge of copies.
  const labelled = new Set<string>();
  const showLabel = (s: SeriesSpec, th: Threshold) => {
    const key = `${s.grid}:${s.axis ?? 0}:${th.value}:${th.label}`;
    if (labelled.has(key)) return false;
    labelled.add(key);
    return true;
  };
  const backdrop = texts.dark ? 'rgba(36, 36, 36, 0.85)' : 'rgba(255, 255, 255, 0.85)';
  const firstOfGrid = new Set(spec.grids.map((_, i) => spec.series.find((s) => s.grid === i)?.id));
  const series: LineSeriesOption[] = spec.series.map((s) => {
    const grid = spec.grids[s.grid];
    units.set(s.id, grid?.units[s.axis ?? 0] ?? '');
    const first = firstOfGrid.has(s.id);
    const marks = first ? (spec.marks ?? []).filter((m) => !m.grids || m.grids.includes(grid?.id ?? '')) : [];
    const bands = first ? (spec.bands ?? []) : [];
    const thresholds = s.thresholds ?? [];
    const valueBands = s.bands ?? [];
    return {
      type: 'line',
      id: s.id,
      name: s.name,
      xAxisIndex: s.grid,
      yAxisIndex: (axisBase[s.grid] ?? 0) + (s.axis ?? 0),
      showSymbol: false,
      symbol: 'none',
      connectNulls: false,
      animation: false,
      emphasis: { disabled: true },
      color: s.color,
      lineStyle: { width: s.width ?? 1.5, type: s.dashed ? 'dashed' : 'solid', color: s.color },
      ...(thresholds.length > 0 || marks.length > 0
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              animation: false,
              data: [
                ...thresholds.map((th) => ({
                  name: th.label,
                  yAxis: th.value,
                  lineStyle: { color: th.color, type: 'dashed', width: 1.5 },
                  // At the start: a test heats up over time, so the lines' left end is the one the curves leave free.
                  label: {
                    show: showLabel(s, th),
                    formatter: th.label,
                    position: 'insideStartTop',
                    color: th.color,
                    fontSize: 11,
                    // A backdrop keeps the label readable where a curve runs through it.
                    backgroundColor: backdrop,
                    padding: [1, 4],
                    borderRadius: 3,
                  },
                })),
                ...marks.map((m) => ({
                  name: m.label,
                  xAxis: m.x,
                  lineStyle: { color: m.color, type: 'solid' as const, width: 1.5 },
                  label: {
                    show: true,
                    formatter: m.label,
                    position: 'insideEndTop' as const,
                    color: m.color,
                    fontSize: 11,
                    backgroundColor: backdrop,
                    padding: [1, 4],
                    borderRadius: 3,
                  },
                })),
              ],
            },
          }
        : {}),
      ...(bands.length > 0 || valueBands.length > 0
        ? {
            markArea: {
              silent: true,
              animation: false,
              data: [
                ...bands.map((b): [Record<string, unknown>, Record<string, unknown>] => [
                  {
                    name: b.label,
                    xAxis: b.from,
                    itemStyle: { color: b.color, opacity: 0.18 },
                    label: { color: b.color, fontSize: 11, position: 'insideTop' },
                  },
                  { xAxis: b.to },
                ]),
                ...valueBands.map((b): [Record<string, unknown>, Record<string, unknown>] => [
                  {
                    name: b.label,
                    xAxis: b.start,
                    yAxis: b.from,
                    itemStyle: { color: b.color, opacity: 0.15 },
                    label: { color: b.color, fontSize: 11, position: 'insideTopRight' },
                  },
                  { xAxis: b.end, yAxis: b.to },
                ]),
              ],
            },
          }
        : {}),
    } as LineSeriesOption;
  });

  const option: ChartOption = {
    animation: false,
    // The time axis shows elapsed time: whole minutes and hours in UTC, never shifted by a time zone.
    useUTC: true,
    backgroundColor: 'transparent',
    legend: {
      type: 'scroll',
      top: 2,
      left: 8,
      right: 8,
      data: spec.series.filter((s) => s.legend !== false).map((s) => s.name),
    },
    title: spec.grids.map((grid, i) => ({
      text: grid.title,
      left: 8,
      top: (layout.tops[i] ?? 0) - TITLE_HEIGHT + 2,
      textStyle: { fontSize: 13, fontWeight: 600 },
    })),
    grid: spec.grids.map((grid, i) => ({
      id: grid.id,
      left: 56,
      right: grid.units.length > 1 ? 64 : 20,
      top: layout.tops[i],
      height: spec.gridHeight,
    })),
    xAxis: spec.grids.map((_, i) => ({
      type: 'time',
      gridIndex: i,
      min: (extent: AxisExtent) => extent.min,
      // One reading (a test's first frame) would make an empty range that ECharts widens to a day.
      max: (extent: AxisExtent) => Math.max(extent.max, extent.min + MIN_TIME_SPAN_MS),
      axisLabel: { formatter: (value: number) => elapsedLabel(value), hideOverlap: true },
      splitLine: { show: false },
    })),
    yAxis,
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line', animation: false },
      formatter: (params) =>
        tooltipContent((Array.isArray(params) ? params : [params]) as TooltipParam[], units, texts),
    },
    series,
  };
  if (spec.zoom) {
    option.dataZoom = [
      { type: 'inside', xAxisIndex: gridIndexes, filterMode: 'filter' },
      {
        type: 'slider',
        xAxisIndex: gridIndexes,
        filterMode: 'filter',
        bottom: 10,
        height: 24,
        labelFormatter: (value: number) => elapsedLabel(value),
      },
    ];
  }
  return option;
}
