import type { ClassifyOptions, CriterionTimes } from './types';

/** EN 13501-2 §7.5 classification periods, minutes. */
export const CLASSIFICATION_PERIODS = Object.freeze([15, 20, 30, 45, 60, 90, 120, 180, 240, 360] as const);
/** EN 13501-2 §7.5.5 (doors and shutters): EW is given only for 20, 30 and 60 minutes. */
export const DOOR_EW_PERIODS = Object.freeze([20, 30, 60] as const);

/** Completed minutes of a time in seconds (63:40 → 63). */
export function completedMinutes(seconds: number): number {
  return Math.floor(Math.max(0, seconds) / 60 + 1e-9);
}

/** The largest period not above `minutes`, or null when even the smallest is above it. */
export function classPeriod(minutes: number, periods: readonly number[] = CLASSIFICATION_PERIODS): number | null {
  let best: number | null = null;
  for (const period of periods) if (period <= minutes) best = period;
  return best;
}

/**
 * The completed minutes each criterion counts for: E its failure time (or the end when not reached);
 * I and W their failure time (or the end), capped at E.
 */
export function criterionMinutes(times: CriterionTimes): { E: number; I: number; W: number } {
  const e = completedMinutes(times.E ?? times.end);
  return {
    E: e,
    I: Math.min(completedMinutes(times.I ?? times.end), e),
    W: Math.min(completedMinutes(times.W ?? times.end), e),
  };
}

/**
 * The class per EN 13501-2, e.g. "E 60, EI 45, EW 60" ("EI2 45" for an EN 1634-1 door given its insulation
 * class). A part whose time is below its smallest period, or whose criterion was not measured, is left out;
 * '' when even E is below 15 minutes.
 */
export function classify(times: CriterionTimes, opts: ClassifyOptions): string {
  const minutes = criterionMinutes(times);
  const parts: string[] = [];
  const e = classPeriod(minutes.E);
  if (e !== null) parts.push(`E ${e}`);
  const i = classPeriod(minutes.I);
  if (i !== null && times.measured?.I !== false) parts.push(`EI${opts.insulation === 'I1' ? '1' : opts.insulation === 'I2' ? '2' : ''} ${i}`);
  const w = classPeriod(minutes.W, opts.door ? DOOR_EW_PERIODS : CLASSIFICATION_PERIODS);
  if (w !== null && times.measured?.W !== false) parts.push(`EW ${w}`);
  return parts.join(', ');
}
