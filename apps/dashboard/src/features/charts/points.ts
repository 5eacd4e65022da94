import type { HistoryDto, HistorySeriesDto } from '@furnace/api-client';
import { iso834 } from '@furnace/contracts';

/**
 * A chart point: [elapsed time in milliseconds since the test started, value or null for a gap].
 * The x values are milliseconds because the charts use a time axis in UTC: it places its ticks at
 * whole minutes and hours of the elapsed time, where a value axis would tick at 500 s, 1000 s…
 */
export type Point = [number, number | null];

export const secondsToMs = (seconds: number): number => Math.round(seconds * 1000);

/**
 * One series of a history response as chart points. Raw frames (bucket_seconds 0) are their own
 * points; a bucket becomes two points at its time, its minimum then its maximum, so a spike inside a
 * bucket stays on the chart (a mean, or LTTB, could drop it). A bucket without a value is a gap.
 */
export function historyPoints(
  history: Pick<HistoryDto, 'time' | 'bucket_seconds'>,
  series: Pick<HistorySeriesDto, 'min' | 'max'>,
): Point[] {
  const points: Point[] = [];
  const raw = history.bucket_seconds === 0;
  for (let i = 0; i < history.time.length; i++) {
    const t = secondsToMs(history.time[i] as number);
    const low = series.min[i] ?? null;
    const high = series.max[i] ?? null;
    if (raw || low === null || high === null || low === high) points.push([t, high ?? low]);
    else points.push([t, low], [t, high]);
  }
  return points;
}

/** The series of a history response by key (radiance, pressure, pk, thermo:{id}, category:{type}:max|mean). */
export function historySeriesByKey(history: HistoryDto): Map<string, HistorySeriesDto> {
  return new Map(history.series.map((series) => [series.key, series]));
}

/** Whether a history series has at least one value. */
export function hasValues(series: Pick<HistorySeriesDto, 'max'> | undefined): boolean {
  return series !== undefined && series.max.some((value) => value !== null);
}

/**
 * The standard heating curve (ISO 834 unless `curve` is another) at the times of `points` (each time once): drawn along the furnace
 * temperature, so that the axis tooltip, which lists the series that have a point at the hovered
 * time, shows the standard value beside the measured one.
 */
export function iso834Along(points: readonly Point[], curve: (seconds: number) => number = iso834): Point[] {
  const out: Point[] = [];
  let last = Number.NaN;
  for (const [t] of points) {
    if (t === last) continue;
    last = t;
    out.push([t, Math.round(curve(t / 1000) * 10) / 10]);
  }
  return out;
}
