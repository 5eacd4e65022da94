import type { HistoryDto } from '@furnace/api-client';
import type { ChartCategory } from '../charts/categories';
import { seriesKey } from '../charts/categories';

type CriterionKind = 'max' | 'mean';

/** Where a series first went above a critical value, found in a history response. */
export interface Exceedance {
  /** Seconds since the start: the frame's time, or the time of the bucket's first frame. */
  time: number;
  /** The highest value at that point (the bucket's maximum). */
  value: number;
  /** True when `time` is a frame's own time (a raw response); false: somewhere in the bucket. */
  exact: boolean;
  /** The span of frames the point groups, seconds: [time, next point's time] (inclusive bounds for a refetch). */
  range: { from: number; to: number };
}

/**
 * The first point of series `key` whose maximum is strictly above `critical` (exceedsCritical's
 * rule). From a bucketed response the precision is one bucket: the frame that crossed is somewhere
 * between this bucket's first frame and the next bucket's (see `exact` and `range`); the page then
 * reads that range again at full resolution (refineExceedance). A bucket's max is the max of its
 * frames, so the first bucket whose max is above the critical value holds the first frame that is.
 */
export function firstExceedance(history: HistoryDto, key: string, critical: number): Exceedance | null {
  const series = history.series.find((s) => s.key === key);
  if (!series) return null;
  for (let i = 0; i < history.time.length; i++) {
    const value = series.max[i];
    if (typeof value === 'number' && value > critical) {
      const time = history.time[i] as number;
      const next = history.time[i + 1];
      return {
        time,
        value,
        exact: history.bucket_seconds === 0,
        range: { from: time, to: next ?? history.to },
      };
    }
  }
  return null;
}

/** One criterion of one category: its critical value and where the history first exceeded it. */
export interface ExceedanceRow {
  typeName: string;
  kind: CriterionKind;
  critical: number;
  key: string;
  /** null: never above the critical value in the history read. */
  exceedance: Exceedance | null;
}

/** Every criterion of the categories that have critical values (max first, then mean), with its first exceedance. */
export function exceedanceRows(history: HistoryDto, categories: readonly ChartCategory[]): ExceedanceRow[] {
  const rows: ExceedanceRow[] = [];
  for (const category of categories) {
    const criteria: [CriterionKind, number | null, string][] = [
      ['max', category.critical.max, seriesKey.categoryMax(category.typeName)],
      ['mean', category.critical.mean, seriesKey.categoryMean(category.typeName)],
    ];
    for (const [kind, critical, key] of criteria) {
      if (critical === null) continue;
      rows.push({
        typeName: category.typeName,
        kind,
        critical,
        key,
        exceedance: firstExceedance(history, key, critical),
      });
    }
  }
  return rows;
}

/** The ranges to read again at full resolution: one per distinct bucket of an inexact exceedance. */
export function refinementRanges(rows: readonly ExceedanceRow[]): { from: number; to: number }[] {
  const seen = new Map<string, { from: number; to: number }>();
  for (const row of rows) {
    const e = row.exceedance;
    if (e && !e.exact) seen.set(`${e.range.from}:${e.range.to}`, e.range);
  }
  return [...seen.values()];
}

/**
 * A row with its exceedance made exact from a full-resolution read of its bucket (`detail` covers
 * row.exceedance.range). Without a usable detail the bucket's estimate stays.
 */
export function refineExceedance(row: ExceedanceRow, detail: HistoryDto | undefined): ExceedanceRow {
  const e = row.exceedance;
  if (!e || e.exact || !detail || detail.from > e.range.from || detail.to < e.range.to) return row;
  const refined = firstExceedance(detail, row.key, row.critical);
  if (!refined) return row;
  // A detail that is still bucketed (more frames in one bucket than the endpoint returns) narrows it.
  return { ...row, exceedance: refined };
}
