import * as echarts from 'echarts';
import {
  type CategoryView,
  type CriteriaView,
  type HeatingCurveId,
  type LimitView,
  formatValue,
  type TestProfile,
} from '@furnace/contracts';
import { deviationSeries, heatingCurvePoints, pressureTolerance, RADIATION_LIMIT_KW_M2 } from '@furnace/criteria';
import type { HistoryDto } from '../history/history.dto';
import { measureText, REGULAR } from './report-fonts';
import { fill } from '@furnace/text';
import type { ReportTexts } from './report-text';

/*
 * The report's charts as SVG (ECharts' server-side renderer), drawn into the PDF as vectors. Their
 * numbers are the history's downsampled series and the criteria engine's limits, curve, d_e and
 * bands — the same the dashboard's history charts draw (docs/behaviour.md §11).
 */

// ECharts lays text out with the widths of the font the PDF draws it in.
echarts.setPlatformAPI({ measureText });

/** Colours of the dashboard's criteria overlay (apps/dashboard chart-criteria), for the same reading of both. */
const COLORS = {
  furnace: '#e8590c',
  curve: '#212529',
  deviation: '#2f9e44',
  tolerance: '#868e96',
  limit: '#c92a2a',
  max: '#c92a2a',
  mean: '#1c7ed6',
  pressure: '#1c7ed6',
  radiation: '#ae3ec9',
  observation: '#e8590c',
  band: 'rgba(28, 126, 214, 0.12)',
} as const;

type XY = [number, number | null];

/** Observations named on a chart; more are drawn as lines only. */
const MAX_MARK_LABELS = 8;

export interface ChartMark {
  /** s since ignition. */
  time: number;
  label: string;
}

interface RenderInput {
  width: number;
  height: number;
  option: echarts.EChartsCoreOption;
}

/** A chart as SVG, and its height in points. */
export interface ChartSvg {
  svg: string;
  height: number;
}

/** Renders an option to SVG (no animation, no DOM). */
function renderSvg({ width, height, option }: RenderInput): ChartSvg {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: REGULAR, fontSize: 8 }, ...option });
    return { svg: chart.renderToSVGString(), height };
  } finally {
    chart.dispose();
  }
}

const minutes = (seconds: number) => Math.round((seconds / 60) * 1000) / 1000;

/** A history series (its points' means) as [min, value] points from ignition on. */
export function seriesPoints(history: Pick<HistoryDto, 'time' | 'series'>, key: string, shift = 0): XY[] {
  const series = history.series.find((s) => s.key === key);
  if (!series) return [];
  const out: XY[] = [];
  history.time.forEach((t, i) => {
    if (t < 0) return;
    const v = series.mean[i] ?? null;
    out.push([minutes(t), v === null ? null : v - shift]);
  });
  return out;
}

const axisCommon = {
  nameTextStyle: { fontSize: 8 },
  axisLabel: { fontSize: 7 },
  splitLine: { lineStyle: { color: '#e9ecef' } },
};

function timeAxis(texts: ReportTexts, endMin: number, gridIndex = 0, show = true) {
  // At the foot of the grid, not across a value axis's zero (a rise or a d_e below zero).
  return {
    type: 'value',
    gridIndex,
    min: 0,
    max: Math.max(1, Math.ceil(endMin)),
    name: show ? texts.minutesAxis : '',
    nameGap: 4,
    ...axisCommon,
    axisLabel: { fontSize: 7, show },
    axisLine: { onZero: false },
  };
}

const legend = { top: 0, left: 'center', itemWidth: 14, itemHeight: 6, itemGap: 12, textStyle: { fontSize: 7 } };

interface MarkLine {
  silent: boolean;
  symbol: string;
  lineStyle: object;
  label: object;
  data: object[];
}

/** Vertical lines at the observations, labelled. */
function markLines(marks: readonly ChartMark[]): MarkLine | undefined {
  if (marks.length === 0) return undefined;
  return {
    silent: true,
    symbol: 'none',
    lineStyle: { color: COLORS.observation, type: 'dotted', width: 1 },
    // Named while they can be read apart; past that, the lines alone (the observations table names them).
    label: {
      show: marks.length <= MAX_MARK_LABELS,
      formatter: '{b}',
      fontSize: 6,
      position: 'end',
      color: COLORS.observation,
    },
    data: marks.map((m) => ({ xAxis: minutes(m.time), name: m.label })),
  };
}

const line = (name: string, data: XY[], color: string, extra: object = {}) => ({
  type: 'line',
  name,
  data,
  showSymbol: false,
  connectNulls: false,
  lineStyle: { width: 1, color },
  itemStyle: { color },
  ...extra,
});

/**
 * The mean furnace temperature against the profile's heating curve (°C) and, below, d_e with its
 * tolerance envelope (%), computed as the dashboard's history does from the history's furnace points.
 */
export function furnaceChartSvg(input: {
  history: Pick<HistoryDto, 'time' | 'series'>;
  curve: HeatingCurveId;
  endS: number;
  marks: readonly ChartMark[];
  texts: ReportTexts;
  curveName: string;
  width: number;
}): ChartSvg {
  const { history, texts, width } = input;
  const endMin = input.endS / 60;
  const pk = seriesPoints(history, 'pk');
  const curve: XY[] = heatingCurvePoints(
    input.curve,
    Math.max(0, input.endS),
    Math.max(10, Math.round(input.endS / 400)),
  ).map(([t, v]) => [minutes(t), v]);
  const frames = history.time.flatMap((t, i) => {
    const v = history.series.find((s) => s.kind === 'pk')?.mean[i] ?? null;
    return t >= 0 ? [{ time: t, pk: v }] : [];
  });
  const deviation = deviationSeries(frames, input.curve);
  const de: XY[] = deviation.map((p) => [minutes(p.time), Math.round(p.d_e * 100) / 100]);
  const upper: XY[] = deviation.map((p) => [minutes(p.time), p.tolerance]);
  const lower: XY[] = deviation.map((p) => [minutes(p.time), p.tolerance === null ? null : -p.tolerance]);
  return renderSvg({
    width,
    height: 300,
    option: {
      legend: { ...legend, data: [texts.furnace, input.curveName, 'd_e', texts.toleranceBand] },
      grid: [
        { left: 44, right: 12, top: 34, height: 140 },
        { left: 44, right: 12, top: 200, height: 75 },
      ],
      xAxis: [timeAxis(texts, endMin, 0, false), timeAxis(texts, endMin, 1)],
      yAxis: [
        { type: 'value', gridIndex: 0, name: '°C', nameGap: 6, scale: false, ...axisCommon },
        {
          type: 'value',
          gridIndex: 1,
          name: texts.deviationAxis,
          nameGap: 6,
          min: (v: { min: number }) => -niceMax(Math.max(-v.min, 15)),
          max: (v: { max: number }) => niceMax(Math.max(v.max, 15)),
          ...axisCommon,
        },
      ],
      series: [
        line(texts.furnace, pk, COLORS.furnace, { markLine: markLines(input.marks) }),
        line(input.curveName, curve, COLORS.curve, { lineStyle: { width: 1, color: COLORS.curve, type: 'dashed' } }),
        line('d_e', de, COLORS.deviation, { xAxisIndex: 1, yAxisIndex: 1 }),
        line(texts.toleranceBand, upper, COLORS.tolerance, {
          xAxisIndex: 1,
          yAxisIndex: 1,
          lineStyle: { width: 1, color: COLORS.tolerance, type: 'dashed' },
        }),
        line(texts.toleranceBand, lower, COLORS.tolerance, {
          xAxisIndex: 1,
          yAxisIndex: 1,
          lineStyle: { width: 1, color: COLORS.tolerance, type: 'dashed' },
        }),
      ],
    },
  });
}

/** The limit a category's max line and mean line are judged by (max, or the frame limit for frame thermocouples). */
export function categoryLimits(
  category: CategoryView,
  limits: CriteriaView['limits'],
): { max: LimitView | null; mean: LimitView | null } {
  const max = category.role.max ? limits.max : category.role.frame ? limits.frame : null;
  return { max, mean: category.role.mean ? limits.mean : null };
}

/**
 * A measurement category's max and mean against its limits: rises above T0 in K on the rise basis,
 * temperatures in °C on the absolute basis (or while T0 is unknown).
 */
export function categoryChartSvg(input: {
  history: Pick<HistoryDto, 'time' | 'series'>;
  category: CategoryView;
  criteria: Pick<CriteriaView, 't0' | 'basis' | 'limits'>;
  endS: number;
  marks: readonly ChartMark[];
  texts: ReportTexts;
  width: number;
}): ChartSvg {
  const { category, criteria, texts } = input;
  const rise = criteria.basis === 'rise' && criteria.t0 !== null;
  const shift = rise ? criteria.t0! : 0;
  const unit = rise ? 'K' : '°C';
  const limits = categoryLimits(category, criteria.limits);
  const limitLine = (limit: LimitView | null, color: string): MarkLine | undefined => {
    if (!limit) return undefined;
    const value = rise && limit.k !== null ? limit.k : limit.c;
    return {
      silent: true,
      symbol: 'none',
      lineStyle: { color, type: 'dashed', width: 1 },
      label: {
        formatter: fill(texts.limitLine, { v: `${formatValue(value)} ${unit}` }),
        fontSize: 6,
        position: 'insideEndTop',
        color,
      },
      data: [{ yAxis: value }],
    };
  };
  const max = seriesPoints(input.history, `category:${category.type_name}:max`, shift);
  const mean = seriesPoints(input.history, `category:${category.type_name}:mean`, shift);
  const observations = markLines(input.marks);
  return renderSvg({
    width: input.width,
    height: 170,
    option: {
      legend: { ...legend, data: [texts.max, texts.mean] },
      grid: { left: 44, right: 12, top: 34, bottom: 24 },
      xAxis: timeAxis(texts, input.endS / 60),
      yAxis: {
        type: 'value',
        name: unit,
        nameGap: 6,
        ...axisCommon,
        max: (v: { max: number }) =>
          niceMax(Math.max(v.max, limitValue(limits.max, rise), limitValue(limits.mean, rise))),
      },
      series: [
        line(texts.max, max, COLORS.max, {
          markLine: mergeMarkLines(limitLine(limits.max, COLORS.limit), observations),
        }),
        line(texts.mean, mean, COLORS.mean, { markLine: limitLine(limits.mean, COLORS.mean) }),
      ],
    },
  });
}

function limitValue(limit: LimitView | null, rise: boolean): number {
  if (!limit) return 0;
  return rise && limit.k !== null ? limit.k : limit.c;
}

/** The axis top a little above the highest value or limit, so a limit line is never on the frame. */
function niceMax(value: number): number {
  const top = value * 1.1;
  const step = top > 200 ? 50 : top > 50 ? 20 : 5;
  return Math.ceil(top / step) * step;
}

function mergeMarkLines(a: MarkLine | undefined, b: MarkLine | undefined): MarkLine | undefined {
  if (!a) return b;
  if (!b) return a;
  // One markLine per series: the observations' lines keep their own style item by item.
  return { ...a, data: [...a.data, ...b.data.map((d) => ({ ...d, lineStyle: b.lineStyle, label: b.label }))] };
}

/** A stretch of the pressure band: the target ± `tolerance` from `from` to `to`, s. */
interface PressureBandPiece {
  from: number;
  to: number;
  tolerance: number;
}

/**
 * The band the criteria judge the pressure by, up to `endS`: none before 5 min, then ±5 Pa, ±3 Pa from
 * 10 min (EN 1363-1 §5.2.2), or the profile's own tolerance from 5 min on (one stretch).
 */
export function pressureBandPieces(
  profile: Pick<TestProfile, 'pressure_tolerance_pa'>,
  endS: number,
): PressureBandPiece[] {
  const pieces: PressureBandPiece[] = [];
  for (const [from, to] of [
    [5 * 60, 10 * 60],
    [10 * 60, endS],
  ] as const) {
    const tolerance = pressureTolerance(profile, from);
    if (tolerance === null || !(Math.min(to, endS) > from)) continue;
    const last = pieces[pieces.length - 1];
    if (last && last.tolerance === tolerance) last.to = Math.min(to, endS);
    else pieces.push({ from, to: Math.min(to, endS), tolerance });
  }
  return pieces;
}

/** Furnace pressure against its band (shaded areas between the target's low and high, as the criteria judge it). */
export function pressureChartSvg(input: {
  history: Pick<HistoryDto, 'time' | 'series'>;
  profile: Pick<TestProfile, 'pressure_target_pa' | 'pressure_tolerance_pa'>;
  endS: number;
  marks: readonly ChartMark[];
  texts: ReportTexts;
  width: number;
}): ChartSvg {
  const target = input.profile.pressure_target_pa;
  const pieces = target === null || !Number.isFinite(target) ? [] : pressureBandPieces(input.profile, input.endS);
  const widest = Math.max(0, ...pieces.map((b) => b.tolerance));
  const band = target === null || pieces.length === 0 ? null : { low: target - widest, high: target + widest };
  const { texts } = input;
  return renderSvg({
    width: input.width,
    height: 150,
    option: {
      legend: { ...legend, data: [texts.pressure] },
      grid: { left: 44, right: 12, top: 34, bottom: 24 },
      xAxis: timeAxis(texts, input.endS / 60),
      yAxis: {
        type: 'value',
        name: 'Pa',
        nameGap: 6,
        ...axisCommon,
        // The band in view even when the pressure stays inside it.
        min: (v: { min: number }) => Math.floor(Math.min(v.min, band?.low ?? v.min) - 1),
        max: (v: { max: number }) => Math.ceil(Math.max(v.max, band?.high ?? v.max) + 1),
      },
      series: [
        line(texts.pressure, seriesPoints(input.history, 'pressure'), COLORS.pressure, {
          markLine: markLines(input.marks),
          markArea:
            target !== null && pieces.length > 0
              ? {
                  silent: true,
                  itemStyle: { color: COLORS.band },
                  label: { fontSize: 6, position: 'insideTopLeft', color: COLORS.pressure },
                  // Each stretch named by its band, but one too narrow to hold the name (5–10 min of a long test); the last always.
                  data: pieces.map((b, i) => [
                    {
                      xAxis: minutes(b.from),
                      yAxis: target - b.tolerance,
                      name: fill(texts.pressureBand, {
                        target: formatValue(target),
                        tolerance: formatValue(b.tolerance),
                      }),
                      label: { show: i === pieces.length - 1 || (b.to - b.from) / Math.max(input.endS, 1) > 0.2 },
                    },
                    { xAxis: minutes(b.to), yAxis: target + b.tolerance },
                  ]),
                }
              : undefined,
        }),
      ],
    },
  });
}

/** Radiation against the W limit (15 kW/m²). */
export function radiationChartSvg(input: {
  history: Pick<HistoryDto, 'time' | 'series'>;
  endS: number;
  marks: readonly ChartMark[];
  texts: ReportTexts;
  width: number;
}): ChartSvg {
  const { texts } = input;
  return renderSvg({
    width: input.width,
    height: 150,
    option: {
      legend: { ...legend, data: [texts.radiation] },
      grid: { left: 44, right: 12, top: 34, bottom: 24 },
      xAxis: timeAxis(texts, input.endS / 60),
      yAxis: {
        type: 'value',
        name: 'kW/m²',
        nameGap: 6,
        ...axisCommon,
        max: (v: { max: number }) => niceMax(Math.max(v.max, RADIATION_LIMIT_KW_M2)),
      },
      series: [
        line(texts.radiation, seriesPoints(input.history, 'radiance'), COLORS.radiation, {
          markLine: mergeMarkLines(
            {
              silent: true,
              symbol: 'none',
              lineStyle: { color: COLORS.limit, type: 'dashed', width: 1 },
              label: {
                formatter: fill(texts.radiationLimit, { v: RADIATION_LIMIT_KW_M2 }),
                fontSize: 6,
                position: 'insideEndTop',
                color: COLORS.limit,
              },
              data: [{ yAxis: RADIATION_LIMIT_KW_M2 }],
            },
            markLines(input.marks),
          ),
        }),
      ],
    },
  });
}
