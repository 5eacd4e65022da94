import { DeviationAccumulator, furnaceTolerance } from './conformity';
import { heatingCurve } from './curves';
import type { CriteriaFrame, HeatingCurveId, TestProfile } from '@furnace/contracts';

/*
 * Data the charts draw beside the readings: the heating curve, d_e with its tolerance envelope, the
 * pressure band of the profile.
 */

/** The furnace pressure band of a profile, Pa; null when the profile sets no target. */
export function pressureBand(
  profile: Pick<TestProfile, 'pressure_target_pa' | 'pressure_tolerance_pa'>,
): { target: number; low: number; high: number } | null {
  const target = profile.pressure_target_pa;
  if (target === null || !Number.isFinite(target)) return null;
  const tolerance = Math.abs(profile.pressure_tolerance_pa ?? 0);
  return { target, low: target - tolerance, high: target + tolerance };
}

/** [t s, °C] points of a heating curve from 0 to `untilS` every `stepS` (and at `untilS`). */
export function heatingCurvePoints(id: HeatingCurveId, untilS: number, stepS = 60): [number, number][] {
  const points: [number, number][] = [];
  if (!(untilS >= 0) || !(stepS > 0)) return points;
  for (let t = 0; t < untilS; t += stepS) points.push([t, heatingCurve(id, t)]);
  points.push([untilS, heatingCurve(id, untilS)]);
  return points;
}

export interface DeviationPoint {
  /** s since ignition. */
  time: number;
  /** %. */
  d_e: number;
  /** ± %, null for t ≤ 5 min. */
  tolerance: number | null;
}

/**
 * d_e at every frame (frames in time order; the area counts every frame, the result keeps one point per
 * `everyS` seconds of test time, and the last).
 */
export function deviationSeries(
  frames: Iterable<Pick<CriteriaFrame, 'time' | 'pk'>>,
  curve: HeatingCurveId,
  everyS = 0,
): DeviationPoint[] {
  const acc = new DeviationAccumulator((t) => heatingCurve(curve, t));
  const out: DeviationPoint[] = [];
  let lastKept = Number.NEGATIVE_INFINITY;
  let pending: DeviationPoint | null = null;
  for (const frame of frames) {
    const before = acc.time;
    acc.push(frame.time, frame.pk);
    const time = acc.time;
    const dE = acc.deviation();
    if (time === null || time === before || dE === null) continue;
    const point = { time, d_e: dE, tolerance: furnaceTolerance(time) };
    if (time - lastKept >= everyS) {
      out.push(point);
      lastKept = time;
      pending = null;
    } else {
      pending = point;
    }
  }
  if (pending !== null) out.push(pending);
  return out;
}
