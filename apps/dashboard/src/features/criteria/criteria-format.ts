import {
  type CriteriaSnapshot,
  type DeviationView,
  formatDeviation,
  formatTestTime,
  formatValue,
  type PressureView,
  type TolerancePeriod,
} from '@furnace/contracts';
import type { TFunction } from 'i18next';

/*
 * Plain formatting of the criteria numbers for the panel, the monitor and the history (testable
 * without rendering). Temperatures with one decimal; rises signed in K; d_e in % with two decimals; the
 * furnace pressure in Pa with one.
 */

export type Category = CriteriaSnapshot['categories'][number];
export type CriterionKey = 'E' | 'I' | 'W';
export type Failure = CriteriaSnapshot['failures'][number];
type CriterionResult = CriteriaSnapshot['criteria'][CriterionKey];

/** A rise in kelvin with its sign: "+34.2 K", "−1.0 K", '---'. */
export function formatRise(rise: number | null | undefined): string {
  const text = formatValue(rise);
  if (text === '---') return text;
  return rise !== null && rise !== undefined && rise < 0 && text !== '0.0' ? `−${text.slice(1)} K` : `+${text} K`;
}

/** d_e before any frame is known (no snapshot yet). */
export const NO_DEVIATION: DeviationView = { d_e: null, tolerance: null, ok: null, periods: [], conforming: null };

/**
 * Green / red / neutral for d_e or the furnace pressure over the test so far. Red once it was ever outside
 * its tolerance, even when it is back within now: the test no longer conforms (EN 1363-1 §5.1.2, §5.2).
 * Neutral before any frame was judged (no tolerance up to 5 min).
 */
export function conformityColor(view: Pick<DeviationView, 'periods' | 'conforming'>): 'green' | 'red' | 'gray' {
  if (view.conforming === false || view.periods.length > 0) return 'red';
  return view.conforming === true ? 'green' : 'gray';
}

/** What a tolerance period is of: d_e in %, or the furnace pressure's difference from its target in Pa. */
export type ToleranceQuantity = 'deviation' | 'pressure';

function unsigned(value: number, quantity: ToleranceQuantity): string {
  return quantity === 'deviation' ? formatDeviation(Math.abs(value)) : `${formatValue(Math.abs(value))} Pa`;
}

/** With its sign either way ("+20.00 %", "−4.2 Pa"): the side of the band the value was on. */
function signed(value: number, quantity: ToleranceQuantity): string {
  const text = unsigned(value, quantity);
  if (!/[1-9]/.test(text)) return text;
  return `${value < 0 ? '−' : '+'}${text}`;
}

/**
 * A period outside a tolerance as one line: "00:12:30–00:14:10, najgorsze +20.00 % przy ±15.00 %" (times since
 * ignition; "trwa" instead of the end while it goes on; the worst frame's value against its tolerance then).
 */
export function formatPeriod(period: TolerancePeriod, quantity: ToleranceQuantity, t: TFunction<'criteria'>): string {
  return t('panel.period', {
    from: formatTestTime(period.from),
    to: period.open ? t('panel.ongoing') : formatTestTime(period.to),
    worst: signed(period.worst, quantity),
    tolerance: unsigned(period.worst_tolerance, quantity),
  });
}

/** The pressure's target with its tolerance now ("cel 20.0 ± 3.0 Pa"); before 5 min, when there is none, the target alone. */
export function pressureTargetText(
  pressure: Pick<PressureView, 'target' | 'tolerance'>,
  t: TFunction<'criteria'>,
): string {
  const target = formatValue(pressure.target);
  return pressure.tolerance === null
    ? t('panel.pressureTargetOnly', { target })
    : t('panel.pressureTarget', { target, tolerance: formatValue(pressure.tolerance) });
}

/** How a criterion stands: failed, held so far, not measured, or (W without a radiometer) deemed met while I holds. */
export function criterionState(result: CriterionResult): 'failed' | 'held' | 'notMeasured' | 'deemed' {
  if (result.reached) return 'failed';
  if (result.deemed) return 'deemed';
  return result.measured ? 'held' : 'notMeasured';
}

/** Whether the category's current value is over its limit (on the snapshot's basis). */
export function overLimit(value: number | null, limit: { c: number } | null): boolean {
  return value !== null && limit !== null && value > limit.c;
}

/** A failure's time: hh:mm:ss, or "(from, to]" when a gap in the frames makes it an interval. */
export function failureTime(failure: Pick<Failure, 'time' | 'interval_from'>): { text: string; interval: boolean } {
  if (failure.interval_from === null) return { text: formatTestTime(failure.time), interval: false };
  return { text: `(${formatTestTime(failure.interval_from)}, ${formatTestTime(failure.time)}]`, interval: true };
}

/** A forecast's time to failure as m:ss ("4:05"). */
export function formatEta(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

const CRITERION_KEYS: readonly CriterionKey[] = ['E', 'I', 'W'];

/** E, I (or a zoned door's I1 and I2, each judged on its own thermocouples), W where radiation is measured. */
export function criterionRows(
  snapshot: Pick<CriteriaSnapshot, 'criteria' | 'insulation_classes'> | null,
  radiation: boolean,
): { key: string; label?: string; result: CriterionResult | undefined }[] {
  const rows: { key: string; label?: string; result: CriterionResult | undefined }[] = [];
  for (const key of CRITERION_KEYS) {
    if (key === 'W' && !radiation) continue;
    const classes = snapshot?.insulation_classes;
    if (key === 'I' && classes) {
      rows.push({ key: 'I1', label: 'I1', result: classes.I1 }, { key: 'I2', label: 'I2', result: classes.I2 });
    } else {
      rows.push({ key, result: snapshot?.criteria[key] });
    }
  }
  return rows;
}
