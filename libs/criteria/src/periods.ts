import type { TolerancePeriod } from '@furnace/contracts';

/** At most this many periods outside a tolerance are kept per quantity (the first ones); `overflow` counts the rest. */
const MAX_PERIODS = 100;

/** Floating-point slack when comparing a value with its tolerance (−5.000000000001 % is still −5.00 %). */
const EPSILON = 1e-9;

/** |value| within ± tolerance (with floating-point slack). */
export function withinTolerance(value: number, tolerance: number): boolean {
  return Math.abs(value) <= tolerance + EPSILON;
}

export interface PeriodState {
  periods: TolerancePeriod[];
  outside: boolean;
  judged: boolean;
  overflow: number;
}

/**
 * The periods a quantity spent outside its tolerance (d_e, the furnace pressure): `judge` every frame that
 * has the value, in time order. Consecutive judged frames outside make one period; a frame without the
 * value is not judged, so it neither ends nor starts one. The worst frame of a period is the one furthest
 * outside its tolerance at that time (|value| − tolerance), not the largest |value|; the first of equals.
 */
export class PeriodTracker {
  private periods: TolerancePeriod[] = [];
  private outside = false;
  private judged = false;
  private overflow = 0;

  judge(time: number, value: number, tolerance: number): void {
    this.judged = true;
    if (withinTolerance(value, tolerance)) {
      if (this.outside) {
        const last = this.periods[this.periods.length - 1];
        if (last !== undefined && last.open) last.open = false;
      }
      this.outside = false;
      return;
    }
    const last = this.periods[this.periods.length - 1];
    if (this.outside && last !== undefined && last.open) {
      last.to = time;
      if (Math.abs(value) - tolerance > Math.abs(last.worst) - last.worst_tolerance + EPSILON) {
        last.worst = value;
        last.worst_tolerance = tolerance;
        last.worst_time = time;
      }
    } else if (!this.outside) {
      if (this.periods.length < MAX_PERIODS)
        this.periods.push({
          from: time,
          to: time,
          open: true,
          worst: value,
          worst_tolerance: tolerance,
          worst_time: time,
        });
      else this.overflow += 1;
    }
    this.outside = true;
  }

  /**
   * The periods that began at or before `until` (a test_stopped observation: what came after does not
   * count), the one going on then cut there; and whether every judged frame was within (null before any).
   */
  view(until: number | null): { periods: TolerancePeriod[]; conforming: boolean | null } {
    const periods: TolerancePeriod[] = [];
    for (const period of this.periods) {
      if (until !== null && period.from > until) break;
      periods.push(until !== null && period.to > until ? { ...period, to: until, open: false } : { ...period });
    }
    const conforming = !this.judged ? null : periods.length === 0 && (until !== null || this.overflow === 0);
    return { periods, conforming };
  }

  save(): PeriodState {
    return {
      periods: this.periods.map((p) => ({ ...p })),
      outside: this.outside,
      judged: this.judged,
      overflow: this.overflow,
    };
  }

  restore(state: PeriodState): void {
    this.periods = state.periods.map((p) => ({ ...p }));
    this.outside = state.outside;
    this.judged = state.judged;
    this.overflow = state.overflow;
  }
}
