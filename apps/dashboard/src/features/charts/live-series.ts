import type { HistoryDto } from '@furnace/api-client';
import { categoryStats, type DaqPayload } from '@furnace/contracts';
import type { CurveMarker } from './categories';
import { seriesKey } from './categories';
import { appendWithinBudget, MAX_POINTS_PER_SERIES } from './downsample';
import { historyPoints, historySeriesByKey, secondsToMs, type Point } from './points';

/**
 * The frames to draw after `lastTime` (seconds; null before any frame): in time order, each after
 * the previous and after `lastTime`. The history covers every frame up to its last_time and every
 * frame the socket delivers was stored before it was sent, so history + these frames has no gap
 * and no duplicate. A redelivered frame (same time) and a frame older than the drawn tail are
 * dropped: a line drawn back in time would be wrong, and the next history load has it anyway.
 */
export function framesAfter(lastTime: number | null, frames: readonly DaqPayload[]): DaqPayload[] {
  const sorted = [...frames].sort((a, b) => a.time - b.time);
  const out: DaqPayload[] = [];
  let last = lastTime ?? Number.NEGATIVE_INFINITY;
  for (const frame of sorted) {
    if (frame.time > last) {
      out.push(frame);
      last = frame.time;
    }
  }
  return out;
}

/**
 * The values one live frame adds, by series key: the mean furnace temperature and each category's
 * max and mean (categoryStats, the same numbers as the side panel). A value the frame lacks is a gap.
 */
export function frameValues(frame: DaqPayload, markers: readonly CurveMarker[]): Map<string, number | null> {
  const values = new Map<string, number | null>();
  values.set(seriesKey.pk, frame.pk ?? null);
  for (const stats of categoryStats(markers, frame.thermocouples_out)) {
    values.set(seriesKey.categoryMax(stats.type_name), stats.max);
    values.set(seriesKey.categoryMean(stats.type_name), stats.mean);
  }
  return values;
}

/**
 * The live curves' data: the downsampled history, then the live tail appended frame by frame,
 * every series kept within MAX_POINTS_PER_SERIES (re-downsampled with min/max buckets past it).
 */
export class LiveSeriesStore {
  private readonly series = new Map<string, Point[]>();
  /** Time (s) of the newest point drawn: the history's last_time, then the newest appended frame. */
  private last: number | null = null;
  private loaded = false;

  constructor(
    private readonly keys: readonly string[],
    private readonly markers: readonly CurveMarker[],
    private readonly maxPoints = MAX_POINTS_PER_SERIES,
  ) {
    for (const key of keys) this.series.set(key, []);
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  get lastTime(): number | null {
    return this.last;
  }

  /**
   * Replaces every series by the history's points; the live tail continues after its last_time.
   * null (the history could not be read): the curves start empty and show what arrives live.
   */
  loadHistory(history: HistoryDto | null): void {
    const byKey = history ? historySeriesByKey(history) : new Map<string, never>();
    for (const key of this.keys) {
      const series = byKey.get(key);
      this.series.set(key, history && series ? appendWithinBudget([], historyPoints(history, series), this.maxPoints) : []);
    }
    this.last = history?.last_time ?? null;
    this.loaded = true;
  }

  /** Appends the frames after the drawn tail; returns the keys of the series that changed. */
  append(frames: readonly DaqPayload[]): string[] {
    const accepted = framesAfter(this.last, frames);
    if (accepted.length === 0) return [];
    const tails = new Map<string, Point[]>(this.keys.map((key) => [key, []]));
    for (const frame of accepted) {
      const t = secondsToMs(frame.time);
      const values = frameValues(frame, this.markers);
      for (const [key, tail] of tails) tail.push([t, values.get(key) ?? null]);
    }
    for (const [key, tail] of tails) this.series.set(key, appendWithinBudget(this.series.get(key) ?? [], tail, this.maxPoints));
    this.last = (accepted[accepted.length - 1] as DaqPayload).time;
    return [...this.keys];
  }

  /** The points of one series (the store's own array: read, do not change). */
  points(key: string): readonly Point[] {
    return this.series.get(key) ?? [];
  }
}
