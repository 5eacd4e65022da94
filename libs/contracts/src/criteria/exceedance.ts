/*
 * An exceedance counts as a failure only when two consecutive valid scans are over the limit; the failure
 * time is the first of them. A single scan over the limit, followed by one that is not (or by no valid
 * reading), is an excursion, listed apart. When the frame before the first scan over the limit lies more
 * than 60 s earlier, the failure is only known to lie in (t_prev, t]: `intervalFrom` is then t_prev.
 */

import { packArray, unpackInto } from './state-codec';

export interface RunState {
  lastOverFrame: string;
  runLength: string;
  runStart: string;
  runIntervalFrom: string;
}

/** A gap between frames longer than this makes a failure time an interval, s. */
const MAX_FRAME_GAP_S = 60;

export type RunEvent =
  | { kind: 'failure'; time: number; intervalFrom: number | null }
  | { kind: 'excursion'; time: number }
  | null;

/**
 * Tracks runs of scans over a limit for many entities (thermocouples or category means) at once.
 * Call `scan` once per frame for every entity, with `over` false when the entity has no valid reading.
 */
export class RunTracker {
  private readonly lastOverFrame: Int32Array;
  private readonly runLength: Uint8Array;
  private readonly runStart: Float64Array;
  private readonly runIntervalFrom: Float64Array;

  constructor(size: number) {
    this.lastOverFrame = new Int32Array(size).fill(-2);
    this.runLength = new Uint8Array(size);
    this.runStart = new Float64Array(size);
    this.runIntervalFrom = new Float64Array(size).fill(Number.NaN);
  }

  /**
   * `frame`: a counter that grows by one per frame; `time`, `prevTime`: this frame's and the previous
   * frame's time (null for the first frame).
   */
  scan(entity: number, over: boolean, frame: number, time: number, prevTime: number | null): RunEvent {
    const continues = this.lastOverFrame[entity] === frame - 1;
    if (over) {
      this.lastOverFrame[entity] = frame;
      if (continues) {
        const length = this.runLength[entity] as number;
        if (length === 1) {
          this.runLength[entity] = 2;
          const from = this.runIntervalFrom[entity] as number;
          return { kind: 'failure', time: this.runStart[entity] as number, intervalFrom: Number.isNaN(from) ? null : from };
        }
        return null;
      }
      this.runLength[entity] = 1;
      this.runStart[entity] = time;
      this.runIntervalFrom[entity] = prevTime !== null && time - prevTime > MAX_FRAME_GAP_S ? prevTime : Number.NaN;
      return null;
    }
    if (continues && this.runLength[entity] === 1) {
      this.runLength[entity] = 0;
      return { kind: 'excursion', time: this.runStart[entity] as number };
    }
    this.runLength[entity] = 0;
    return null;
  }

  save(): RunState {
    return {
      lastOverFrame: packArray(this.lastOverFrame),
      runLength: packArray(this.runLength),
      runStart: packArray(this.runStart),
      runIntervalFrom: packArray(this.runIntervalFrom),
    };
  }

  restore(state: RunState): void {
    unpackInto(state.lastOverFrame, this.lastOverFrame);
    unpackInto(state.runLength, this.runLength);
    unpackInto(state.runStart, this.runStart);
    unpackInto(state.runIntervalFrom, this.runIntervalFrom);
  }

  /** The time of a single scan over the limit in the last frame (`frame`), still unconfirmed; else null. */
  pending(entity: number, frame: number): number | null {
    return this.lastOverFrame[entity] === frame && this.runLength[entity] === 1 ? (this.runStart[entity] as number) : null;
  }
}
