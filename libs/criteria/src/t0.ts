/*
 * T0, the initial mean temperature of the unexposed face (EN 1363-1:2020 §11.3: rises are
 * measured above it): the mean of the thermocouples counted for the mean over the 60 s before ignition
 * (frames with −60 ≤ time < 0), each thermocouple averaged over its readings first; with no such frame, the
 * reading of the first frame at or after ignition. A value set by staff overrides both.
 */

/** Start of the window before ignition whose readings give T0, s. */
const T0_WINDOW_S = 60;
/** Earliest accepted frame time (1 h before ignition), s. */
export const EARLIEST_FRAME_TIME_S = -3600;

import { packArray, unpackInto } from './state-codec';

export type T0Source = 'auto' | 'first_frame' | 'override';

export interface T0State {
  sums: string;
  counts: string;
  fixed: { value: number; source: T0Source } | null;
}

/**
 * Collects T0 from frames pushed in time order, over `size` thermocouples (those that count for it).
 * The value is fixed by the first frame at or after ignition that has a reading on one of them.
 */
export class T0Estimator {
  private readonly sums: Float64Array;
  private readonly counts: Uint32Array;
  private fixed: { value: number; source: T0Source } | null = null;

  constructor(
    private readonly size: number,
    override: number | null = null,
  ) {
    this.sums = new Float64Array(size);
    this.counts = new Uint32Array(size);
    if (override !== null && Number.isFinite(override)) this.fixed = { value: override, source: 'override' };
  }

  /** `read(j)`: the valid reading of the j-th thermocouple in this frame, or null. */
  push(time: number, read: (j: number) => number | null): void {
    if (this.fixed !== null) return;
    if (time < 0) {
      if (time < -T0_WINDOW_S) return;
      for (let j = 0; j < this.size; j += 1) {
        const value = read(j);
        if (value !== null) {
          this.sums[j] += value;
          this.counts[j] += 1;
        }
      }
      return;
    }
    const fromWindow = this.windowMean();
    if (fromWindow !== null) {
      this.fixed = { value: fromWindow, source: 'auto' };
      return;
    }
    let sum = 0;
    let count = 0;
    for (let j = 0; j < this.size; j += 1) {
      const value = read(j);
      if (value !== null) {
        sum += value;
        count += 1;
      }
    }
    if (count > 0) this.fixed = { value: sum / count, source: 'first_frame' };
  }

  private windowMean(): number | null {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < this.size; i += 1) {
      const n = this.counts[i] as number;
      if (n > 0) {
        sum += (this.sums[i] as number) / n;
        count += 1;
      }
    }
    return count > 0 ? sum / count : null;
  }

  /** T0 once fixed; before ignition, the window's mean so far (source 'auto'); null when nothing is known. */
  get current(): { value: number; source: T0Source } | null {
    if (this.fixed !== null) return this.fixed;
    const provisional = this.windowMean();
    return provisional === null ? null : { value: provisional, source: 'auto' };
  }

  /** What `restore` needs to go on exactly where this left off. */
  save(): T0State {
    return {
      sums: packArray(this.sums),
      counts: packArray(this.counts),
      fixed: this.fixed === null ? null : { ...this.fixed },
    };
  }

  /** Goes on from a saved state of an estimator over the same thermocouples (a T0 set by staff stays). */
  restore(state: T0State): void {
    unpackInto(state.sums, this.sums);
    unpackInto(state.counts, this.counts);
    if (this.fixed?.source !== 'override') this.fixed = state.fixed === null ? null : { ...state.fixed };
  }

  /** True once T0 no longer changes. */
  get isFixed(): boolean {
    return this.fixed !== null;
  }
}
