import { minMaxDownsample, MAX_POINTS_PER_SERIES } from '../charts/downsample';
import type { Point } from '../charts/points';

/** A zoomed range of the test, seconds since the start. */
export interface TimeRange {
  from: number;
  to: number;
}

/**
 * The range a dataZoom shows (start and end in percent of the whole extent), in whole seconds,
 * widened outwards; null when it is the whole test (nothing to read again).
 */
export function zoomRange(extent: TimeRange, startPercent: number, endPercent: number): TimeRange | null {
  const start = Math.max(0, Math.min(100, startPercent));
  const end = Math.max(start, Math.min(100, endPercent));
  if (start <= 0.01 && end >= 99.99) return null;
  const span = extent.to - extent.from;
  const from = Math.max(extent.from, Math.floor(extent.from + (span * start) / 100));
  const to = Math.min(extent.to, Math.ceil(extent.from + (span * end) / 100));
  return to > from ? { from, to } : null;
}

/**
 * The points of a series while zoomed: the detail read for the range (fromMs…toMs), and outside it
 * the whole-test points for context (so the slider and zooming out still show the test), those
 * downsampled to what is left of the budget. Never more than `maxPoints` points.
 */
export function mergeRange(
  overview: readonly Point[],
  detail: readonly Point[],
  fromMs: number,
  toMs: number,
  maxPoints = MAX_POINTS_PER_SERIES,
): Point[] {
  const inner = detail.length > maxPoints - 8 ? minMaxDownsample(detail, maxPoints - 8) : detail.slice();
  const before = overview.filter((p) => p[0] < fromMs);
  const after = overview.filter((p) => p[0] > toMs);
  // What the detail leaves of the budget (at least 8), split in proportion, each side keeping at least 4 points.
  const budget = maxPoints - inner.length;
  const outside = before.length + after.length;
  const minimum = (part: readonly Point[]) => Math.min(part.length, 4);
  let leftAllowed = outside === 0 ? 0 : Math.max(minimum(before), Math.floor((budget * before.length) / outside));
  let rightAllowed = budget - leftAllowed;
  if (rightAllowed < minimum(after)) {
    rightAllowed = minimum(after);
    leftAllowed = budget - rightAllowed;
  }
  const fit = (part: readonly Point[], allowed: number): Point[] =>
    part.length <= allowed ? part.slice() : minMaxDownsample(part, allowed);
  return [...fit(before, leftAllowed), ...inner, ...fit(after, rightAllowed)];
}
