import type { ClassifyOptions, ClassSystem, CriterionTimes } from '@furnace/contracts';

/** Completed minutes of a time in seconds (63:40 → 63). */
export function completedMinutes(seconds: number): number {
  return Math.floor(Math.max(0, seconds) / 60 + 1e-9);
}

/** The largest period of `periods` not above `minutes`, or null when even the smallest is above it. */
export function classPeriod(minutes: number, periods: readonly number[]): number | null {
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
 * The class in the standard's own notation (README.md, "Class periods"):
 * - EN 13501-2: "E 60, EI 45, EW 60" ("EI2 45" for an EN 1634-1 door given its insulation class; "EI1 30,
 *   EI2 60" for a door judged for both, `times.insulation_classes`), each part
 *   the largest period of the element's own list not above its time. A part below its smallest period, or
 *   whose criterion was not measured, is left out (W deemed met by I adds nothing EI does not say);
 * - DIN 4102-5: "T 30" … "T 180", the period both E and I held; none without an insulation measurement.
 * '' when no part reaches a period.
 */
export function classify(times: CriterionTimes, opts: ClassifyOptions): string {
  const minutes = criterionMinutes(times);
  const system: ClassSystem = opts.classes;
  if (system.system === 'DIN_4102_5') {
    if (times.measured?.I === false) return '';
    const t = classPeriod(Math.min(minutes.E, minutes.I), system.periods);
    return t === null ? '' : `T ${t}`;
  }
  const parts: string[] = [];
  const e = classPeriod(minutes.E, system.periods.E);
  if (e !== null) parts.push(`E ${e}`);
  const insulation: [string, number][] = times.insulation_classes
    ? [
        ['1', Math.min(completedMinutes(times.insulation_classes.I1 ?? times.end), minutes.E)],
        ['2', Math.min(completedMinutes(times.insulation_classes.I2 ?? times.end), minutes.E)],
      ]
    : [[opts.insulation === 'I1' ? '1' : opts.insulation === 'I2' ? '2' : '', minutes.I]];
  for (const [suffix, held] of insulation) {
    const i = classPeriod(held, system.periods.EI);
    if (i !== null && times.measured?.I !== false) parts.push(`EI${suffix} ${i}`);
  }
  const w = classPeriod(minutes.W, system.periods.EW);
  if (w !== null && times.measured?.W !== false) parts.push(`EW ${w}`);
  return parts.join(', ');
}
