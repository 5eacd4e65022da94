/*
 * An exceedance counts as a failure only when two consecutive valid scans are over the limit; the failure
 * time is the first of them; a missing scan between them is skipped. A single scan over the limit followed
 * by a valid one that is not is an excursion, listed apart. When the entity's valid scan before the first one over the
 * limit lies more than 60 s earlier, the failure is only known to lie in (t_prev, t]: `intervalFrom` is
 * then t_prev (ignition at the latest).
 */

import { packArray, unpackInto } from './state-codec';

export interface RunState {
  runLength: string;
  runStart: string;
  runIntervalFrom: string;
  lastValid: string;
}

/** A gap longer than this before the first scan over the limit makes a failure time an interval, s. */
const MAX_FRAME_GAP_S = 60;

export type RunEvent =
  { kind: 'failure'; time: number; intervalFrom: number | null } | { kind: 'excursion'; time: number } | null;

/**
 * Tracks runs of scans over a limit for many entities (thermocouples, category means, the radiometer) at
 * once. Call `scan` once per frame after ignition for every entity: `over` true or false for a valid
 * reading, null when the entity has none in this frame (missing, faulted, excluded).
 *
 * A missing scan is skipped: it neither confirms nor breaks a run, so "over, missing, over" is two
 * consecutive valid scans over the limit and fails at the first (README.md, "Missing scans"). The interval
 * is measured from the entity's own last valid scan: a thermocouple silent for 5 minutes that comes back
 * over the limit failed somewhere in those 5 minutes.
 */
export class RunTracker {
  /** 0: the last valid scan was not over; 1: one scan over (unconfirmed); 2: failed. */
  private readonly runLength: Uint8Array;
  private readonly runStart: Float64Array;
  private readonly runIntervalFrom: Float64Array;
  /** Time of the entity's last valid scan; ignition (0) before its first. */
  private readonly lastValid: Float64Array;

  constructor(size: number) {
    this.runLength = new Uint8Array(size);
    this.runStart = new Float64Array(size);
    this.runIntervalFrom = new Float64Array(size).fill(Number.NaN);
    this.lastValid = new Float64Array(size);
  }

  /** `time`: this frame's, s since ignition (≥ 0). */
  scan(entity: number, over: boolean | null, time: number): RunEvent {
    if (over === null) return null;
    const length = this.runLength[entity] as number;
    if (!over) {
      // The usual scan (under the limit, no run): one store.
      this.lastValid[entity] = time;
      if (length === 0) return null;
      this.runLength[entity] = 0;
      return length === 1 ? { kind: 'excursion', time: this.runStart[entity] as number } : null;
    }
    const previous = this.lastValid[entity] as number;
    this.lastValid[entity] = time;
    if (length === 1) {
      this.runLength[entity] = 2;
      const from = this.runIntervalFrom[entity] as number;
      return { kind: 'failure', time: this.runStart[entity] as number, intervalFrom: Number.isNaN(from) ? null : from };
    }
    if (length === 2) return null;
    this.runLength[entity] = 1;
    this.runStart[entity] = time;
    this.runIntervalFrom[entity] = time - previous > MAX_FRAME_GAP_S ? previous : Number.NaN;
    return null;
  }

  save(): RunState {
    return {
      runLength: packArray(this.runLength),
      runStart: packArray(this.runStart),
      runIntervalFrom: packArray(this.runIntervalFrom),
      lastValid: packArray(this.lastValid),
    };
  }

  restore(state: RunState): void {
    unpackInto(state.runLength, this.runLength);
    unpackInto(state.runStart, this.runStart);
    unpackInto(state.runIntervalFrom, this.runIntervalFrom);
    unpackInto(state.lastValid, this.lastValid);
  }

  /** The time of a single scan over the limit not yet confirmed (the entity's last valid scan); else null. */
  pending(entity: number): number | null {
    return this.runLength[entity] === 1 ? (this.runStart[entity] as number) : null;
  }
}
