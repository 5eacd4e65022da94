import type { HistoryDto } from '@furnace/api-client';
import type { CriteriaSnapshot, DaqPayload } from '@furnace/contracts';
import { type CriteriaInputs, LiveCriteria } from '../criteria/live-criteria';

/** The history's points with time < `before` (the series cut alike); last_time the last point kept. */
function historyBefore(history: HistoryDto, before: number): HistoryDto {
  let count = 0;
  while (count < history.time.length && history.time[count]! < before) count++;
  const cut = <T>(values: readonly T[]) => values.slice(0, count);
  return {
    ...history,
    time: cut(history.time),
    series: history.series.map((s) => ({ ...s, min: cut(s.min), max: cut(s.max), mean: cut(s.mean) })),
    last_time: count > 0 ? history.time[count - 1]! : null,
    to: count > 0 ? history.time[count - 1]! : history.from,
  };
}

/**
 * The criteria at a moment of a replayed test, by the live view's engine (LiveCriteria): the
 * history's buckets before the window being replayed, then every stored frame of the window up to
 * the moment. Moving forward pushes the frames in between; moving back (or far ahead) starts over.
 */
export class ReplayCriteria {
  private criteria: LiveCriteria | null = null;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly inputs: CriteriaInputs,
    /** null: the history could not be read (the engine runs over the window's frames only). */
    private readonly history: HistoryDto | null,
  ) {}

  /**
   * The engine at `time`, given the frames after the last one pushed (`between`: null when they are
   * not at hand) and, to start over, the frames from `windowStart` up to `time`.
   */
  moveTo(
    time: number,
    between: readonly DaqPayload[] | null,
    windowStart: number,
    fromWindow: () => readonly DaqPayload[] | null,
  ): void {
    if (this.criteria && time >= this.last && between !== null) {
      for (const frame of between) this.criteria.push(frame);
      this.last = time;
      return;
    }
    const frames = fromWindow();
    if (frames === null) return;
    this.criteria = new LiveCriteria(this.inputs);
    this.criteria.load(this.history ? historyBefore(this.history, windowStart) : null, frames);
    this.last = time;
  }

  /** The time the engine has reached (−∞ before the first move). */
  reached(): number {
    return this.last;
  }

  snapshot(): CriteriaSnapshot | null {
    return this.criteria?.snapshot() ?? null;
  }
}
