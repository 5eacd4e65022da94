import type { Point } from './points';

/**
 * No chart series ever holds more points than this (the benchmark bound): past it, a series
 * is downsampled again in the browser with min/max buckets.
 */
export const MAX_POINTS_PER_SERIES = 2000;

/**
 * Min/max downsampling (as the server does it, per time bucket): the points are grouped into equal
 * time buckets and each bucket keeps its lowest and its highest point, at their own times and in
 * time order, so every spike survives where LTTB or a mean can drop it. The first and the last
 * point are always kept, so a downsampled series starts and ends where it did. A bucket with only
 * gaps (null values) keeps one gap. `points` must be in time order; the result has at most
 * `maxPoints` points (at least 4). Under the limit the points are returned as they are (a copy).
 */
export function minMaxDownsample(points: readonly Point[], maxPoints: number): Point[] {
  if (!Number.isInteger(maxPoints) || maxPoints < 4)
    throw new RangeError(`maxPoints must be an integer of at least 4, got ${maxPoints}`);
  if (points.length <= maxPoints) return points.slice();

  const first = points[0] as Point;
  const last = points[points.length - 1] as Point;
  const start = first[0];
  const buckets = Math.floor((maxPoints - 2) / 2);
  const width = (last[0] - start) / buckets;
  const out: Point[] = [first];

  let current = -1;
  let low: Point | null = null;
  let high: Point | null = null;
  let gap: Point | null = null;
  const flush = () => {
    if (low && high) {
      if (low === high) out.push(low);
      else if (low[0] <= high[0]) out.push(low, high);
      else out.push(high, low);
    } else if (gap) {
      out.push(gap);
    }
    low = high = gap = null;
  };

  for (let i = 1; i < points.length - 1; i++) {
    const point = points[i] as Point;
    // All points at one time (width 0) fall into one bucket.
    const bucket = width > 0 ? Math.min(buckets - 1, Math.floor((point[0] - start) / width)) : 0;
    if (bucket !== current) {
      flush();
      current = bucket;
    }
    const value = point[1];
    if (value === null) {
      gap ??= point;
      continue;
    }
    if (low === null || value < (low[1] as number)) low = point;
    if (high === null || value > (high[1] as number)) high = point;
  }
  flush();
  out.push(last);
  return out;
}

/**
 * Appends `tail` to `series` (both in time order) and keeps the series within the budget: when it
 * grows past `maxPoints` it is downsampled to `target` points, so that the next appends are cheap
 * again (a live series is downsampled once per `maxPoints - target` frames, not once per frame).
 */
export function appendWithinBudget(
  series: Point[],
  tail: readonly Point[],
  maxPoints = MAX_POINTS_PER_SERIES,
  target = Math.floor(maxPoints * 0.75),
): Point[] {
  for (const point of tail) series.push(point);
  return series.length > maxPoints ? minMaxDownsample(series, target) : series;
}
