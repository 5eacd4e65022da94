import { packFloats, unpackFloats } from './state-codec';
import type { TestProfile } from '@furnace/contracts';

/*
 * Furnace conformity, EN 1363-1:2020 §5.1.2: the percentage deviation d_e of the area under the mean
 * furnace temperature curve from the area under the standard curve, both from t = 0, and its tolerance.
 */

/** Absolute tolerance on d_e in %, at `tSeconds` since ignition; null for t ≤ 5 min (no requirement). */
export function furnaceTolerance(tSeconds: number): number | null {
  if (!Number.isFinite(tSeconds)) return null;
  const t = tSeconds / 60;
  if (t <= 5) return null;
  if (t <= 10) return 15;
  if (t <= 30) return 15 - 0.5 * (t - 10);
  if (t <= 60) return 5 - 0.083 * (t - 30);
  return 2.5;
}

/**
 * Furnace pressure tolerance, EN 1363-1:2020 §5.2.2: ±5 Pa of the target from 5 min, ±3 Pa from 10 min;
 * null before 5 min (no requirement). A profile's own `pressure_tolerance_pa` (a method that sets another
 * band) replaces both from 5 min on.
 */
export function pressureTolerance(
  profile: Pick<TestProfile, 'pressure_tolerance_pa'>,
  tSeconds: number,
): number | null {
  if (!Number.isFinite(tSeconds) || tSeconds < 5 * 60) return null;
  const own = profile.pressure_tolerance_pa;
  if (own !== null && own !== undefined && Number.isFinite(own)) return Math.abs(own);
  return tSeconds < 10 * 60 ? 5 : 3;
}

export { withinTolerance } from './periods';

export interface DeviationState {
  /** The newest furnace reading before ignition (the furnace at t = 0), °C; null without one. */
  preIgnitionPk: number | null;
  lastT: number | null;
  lastPk: number;
  lastStd: number;
  area: number;
  areaStd: number;
  /** Packed floats (keepHistory only). */
  times: string;
  areas: string;
  areasStd: string;
}

/**
 * Running trapezoid areas under the furnace curve (A) and the standard curve (A_s), both from t = 0.
 * `push` per frame in time order. When the first frame with a reading comes after ignition, the first
 * trapezoid spans (0, t1]: the furnace at t = 0 is its newest reading before ignition (it had not been lit
 * yet), or without one the curve's own value at 0 (20 °C, the ambient the curves start from); the
 * standard curve at 0 is its formula's. Frames before ignition add no area.
 */
export class DeviationAccumulator {
  private preIgnitionPk: number | null = null;
  private lastT: number | null = null;
  private lastPk = 0;
  private lastStd = 0;
  private area = 0;
  private areaStd = 0;
  // With `keepHistory`: time and both areas after every frame, to answer d_e at an earlier time.
  private readonly times: number[] = [];
  private readonly areas: number[] = [];
  private readonly areasStd: number[] = [];

  constructor(
    private readonly curve: (tSeconds: number) => number,
    private readonly keepHistory = false,
  ) {}

  /** A frame; `pk` null or missing is skipped (the trapezoid spans the gap). */
  push(tSeconds: number, pk: number | null | undefined): void {
    if (pk === null || pk === undefined || !Number.isFinite(pk)) return;
    if (tSeconds < 0) {
      if (this.lastT === null) this.preIgnitionPk = pk;
      return;
    }
    if (this.lastT !== null && tSeconds <= this.lastT) return;
    const std = this.curve(tSeconds);
    if (this.lastT === null && tSeconds > 0) {
      this.lastT = 0;
      this.lastPk = this.preIgnitionPk ?? this.curve(0);
      this.lastStd = this.curve(0);
    }
    if (this.lastT !== null) {
      const dt = tSeconds - this.lastT;
      this.area += ((this.lastPk + pk) / 2) * dt;
      this.areaStd += ((this.lastStd + std) / 2) * dt;
    }
    this.lastT = tSeconds;
    this.lastPk = pk;
    this.lastStd = std;
    if (this.keepHistory) {
      this.times.push(tSeconds);
      this.areas.push(this.area);
      this.areasStd.push(this.areaStd);
    }
  }

  /** d_e (%) and its time at the last frame at or before `tSeconds` (needs `keepHistory`); null when none. */
  deviationAt(tSeconds: number): { time: number; d_e: number } | null {
    let lo = 0;
    let hi = this.times.length - 1;
    if (hi < 0 || (this.times[0] as number) > tSeconds) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.times[mid] as number) <= tSeconds) lo = mid;
      else hi = mid - 1;
    }
    const areaStd = this.areasStd[lo] as number;
    if (areaStd <= 0) return null;
    return { time: this.times[lo] as number, d_e: (((this.areas[lo] as number) - areaStd) / areaStd) * 100 };
  }

  /** d_e in % at the last frame; null before two frames. */
  deviation(): number | null {
    if (this.areaStd <= 0) return null;
    return ((this.area - this.areaStd) / this.areaStd) * 100;
  }

  save(): DeviationState {
    return {
      preIgnitionPk: this.preIgnitionPk,
      lastT: this.lastT,
      lastPk: this.lastPk,
      lastStd: this.lastStd,
      area: this.area,
      areaStd: this.areaStd,
      times: packFloats(this.times),
      areas: packFloats(this.areas),
      areasStd: packFloats(this.areasStd),
    };
  }

  restore(state: DeviationState): void {
    this.preIgnitionPk = state.preIgnitionPk;
    this.lastT = state.lastT;
    this.lastPk = state.lastPk;
    this.lastStd = state.lastStd;
    this.area = state.area;
    this.areaStd = state.areaStd;
    this.times.length = 0;
    this.areas.length = 0;
    this.areasStd.length = 0;
    if (!this.keepHistory) return;
    for (const t of unpackFloats(state.times)) this.times.push(t);
    for (const a of unpackFloats(state.areas)) this.areas.push(a);
    for (const a of unpackFloats(state.areasStd)) this.areasStd.push(a);
  }

  get time(): number | null {
    return this.lastT;
  }
}
