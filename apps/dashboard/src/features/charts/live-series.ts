import type { HistoryDto } from '@furnace/api-client';
import { type DaqPayload, RecentTimes, insertionIndex } from '@furnace/contracts';
import { categoryStats } from '../../lib/category-stats';
import type { CurveMarker } from './categories';
import { seriesKey } from './categories';
import { appendWithinBudget, MAX_POINTS_PER_SERIES } from './downsample';
import { historyPoints, historySeriesByKey, secondsToMs, type Point } from './points';

/**
 * The frames to draw of `frames`: those after the history's `lastTime` (seconds; null without
 * history) not drawn yet (`drawn`, updated), once each, in time order. The history covers every
 * frame up to its last_time and every frame the socket delivers was stored before it was sent, so
 * history + these frames has no gap and no duplicate. A redelivered frame (same time) is dropped;
 * a late one (another ingest's, sent after a newer frame) is kept: the store puts it in its place.
 */
export function framesToDraw(lastTime: number | null, drawn: RecentTimes, frames: readonly DaqPayload[]): DaqPayload[] {
  const floor = lastTime ?? Number.NEGATIVE_INFINITY;
  const out: DaqPayload[] = [];
  for (const frame of frames) if (frame.time > floor && drawn.add(frame.time)) out.push(frame);
  return out.sort((a, b) => a.time - b.time);
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
 * The live curves' data: the downsampled history, then the live frames placed by their time (a
 * late frame goes into its place, never drawn as a line back in time), every series kept within
 * MAX_POINTS_PER_SERIES (re-downsampled with min/max buckets past it).
 */
export class LiveSeriesStore {
  private readonly series = new Map<string, Point[]>();
  /** Time (s) of the newest point drawn: the history's last_time, then the newest appended frame. */
  private last: number | null = null;
  /** The history's last_time: frames up to it are in the history. */
  private historyLast: number | null = null;
  /** Times of the live frames drawn. */
  private readonly drawn = new RecentTimes();
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
      this.series.set(
        key,
        history && series ? appendWithinBudget([], historyPoints(history, series), this.maxPoints) : [],
      );
    }
    this.last = history?.last_time ?? null;
    this.historyLast = this.last;
    this.drawn.clear();
    this.loaded = true;
  }

  /**
   * Draws the frames not drawn yet: appended after the tail, or, for a late one, inserted at its
   * time. Returns the keys of the series that changed (none when every frame was drawn already).
   */
  append(frames: readonly DaqPayload[]): string[] {
    const accepted = framesToDraw(this.historyLast, this.drawn, frames);
    if (accepted.length === 0) return [];
    const last = this.last ?? Number.NEGATIVE_INFINITY;
    const tails = new Map<string, Point[]>(this.keys.map((key) => [key, []]));
    for (const frame of accepted) {
      const t = secondsToMs(frame.time);
      const values = frameValues(frame, this.markers);
      for (const [key, tail] of tails) {
        const point: Point = [t, values.get(key) ?? null];
        if (frame.time > last) {
          tail.push(point);
        } else {
          const series = this.series.get(key) ?? [];
          series.splice(insertionIndex(series, t), 0, point);
          this.series.set(key, series);
        }
      }
    }
    for (const [key, tail] of tails)
      this.series.set(key, appendWithinBudget(this.series.get(key) ?? [], tail, this.maxPoints));
    this.last = Math.max(last, (accepted[accepted.length - 1] as DaqPayload).time);
    return [...this.keys];
  }

  /** The points of one series (the store's own array: read, do not change). */
  points(key: string): readonly Point[] {
    return this.series.get(key) ?? [];
  }
}
