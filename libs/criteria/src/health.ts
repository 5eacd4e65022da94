import { packArray, unpackInto } from './state-codec';
import type { SuspectReason } from '@furnace/contracts';

export interface HealthState {
  lastValue: string;
  lastFrame: string;
  stuckSince: string;
  raised: string;
}

/*
 * Thermocouple health flags: advisory, a flagged thermocouple still counts until staff exclude it (a
 * faulted channel has no value, so it does not count while faulted). Thresholds (EN 1363-1 leaves judging
 * a thermocouple to the laboratory; these are the laboratory's rules):
 * - jump: more than 50 K between two consecutive scans;
 * - below_t0: more than 10 K below T0 after the first 5 minutes;
 * - stuck: exactly the same value for 2 minutes or more;
 * - fault: the channel was out of range (the DAQ's over-range value, nulled by the ingest).
 * Each flag is raised once per thermocouple, at the time it is first seen.
 */
const SUSPECT_JUMP_K = 50;
const SUSPECT_BELOW_T0_K = 10;
const SUSPECT_BELOW_T0_AFTER_S = 5 * 60;
const SUSPECT_STUCK_S = 2 * 60;

const REASONS: readonly SuspectReason[] = ['jump', 'below_t0', 'stuck', 'fault'];
const BIT: Record<SuspectReason, number> = { jump: 1, below_t0: 2, stuck: 4, fault: 8 };

export interface SuspectEvent {
  index: number;
  reason: SuspectReason;
  time: number;
}

/** Per-channel state for the flags; `index` is the engine's marker index. */
export class HealthTracker {
  private readonly lastValue: Float64Array;
  private readonly lastFrame: Int32Array;
  private readonly stuckSince: Float64Array;
  private readonly raised: Uint8Array;

  constructor(size: number) {
    this.lastValue = new Float64Array(size).fill(Number.NaN);
    this.lastFrame = new Int32Array(size).fill(-2);
    this.stuckSince = new Float64Array(size).fill(Number.NaN);
    this.raised = new Uint8Array(size);
  }

  private raise(index: number, reason: SuspectReason, time: number, out: SuspectEvent[]): void {
    const bit = BIT[reason];
    if (((this.raised[index] as number) & bit) !== 0) return;
    this.raised[index] = (this.raised[index] as number) | bit;
    out.push({ index, reason, time });
  }

  fault(index: number, time: number, out: SuspectEvent[]): void {
    this.raise(index, 'fault', time, out);
    this.stuckSince[index] = Number.NaN;
  }

  /** A valid reading of channel `index` in frame number `frame`; `t0` null while unknown. */
  reading(index: number, value: number, frame: number, time: number, t0: number | null, out: SuspectEvent[]): void {
    const previous = this.lastValue[index] as number;
    if (this.lastFrame[index] === frame - 1 && Math.abs(value - previous) > SUSPECT_JUMP_K)
      this.raise(index, 'jump', time, out);
    if (t0 !== null && time > SUSPECT_BELOW_T0_AFTER_S && value < t0 - SUSPECT_BELOW_T0_K)
      this.raise(index, 'below_t0', time, out);
    if (value === previous && !Number.isNaN(this.stuckSince[index] as number)) {
      if (time - (this.stuckSince[index] as number) >= SUSPECT_STUCK_S) this.raise(index, 'stuck', time, out);
    } else {
      this.stuckSince[index] = time;
    }
    this.lastValue[index] = value;
    this.lastFrame[index] = frame;
  }

  save(): HealthState {
    return {
      lastValue: packArray(this.lastValue),
      lastFrame: packArray(this.lastFrame),
      stuckSince: packArray(this.stuckSince),
      raised: packArray(this.raised),
    };
  }

  restore(state: HealthState): void {
    unpackInto(state.lastValue, this.lastValue);
    unpackInto(state.lastFrame, this.lastFrame);
    unpackInto(state.stuckSince, this.stuckSince);
    unpackInto(state.raised, this.raised);
  }

  static get reasons(): readonly SuspectReason[] {
    return REASONS;
  }
}
