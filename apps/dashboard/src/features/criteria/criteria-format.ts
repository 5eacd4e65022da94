import { formatTestTime, formatValue, type CriteriaSnapshot } from '@furnace/contracts';

/*
 * Plain formatting of the criteria numbers for the panel, the monitor and the history (testable
 * without rendering). Temperatures with one decimal; rises signed in K; d_e in % with two decimals.
 */

export type Category = CriteriaSnapshot['categories'][number];
export type CriterionKey = 'E' | 'I' | 'W';
export type Failure = CriteriaSnapshot['failures'][number];

/** A rise in kelvin with its sign: "+34.2 K", "−1.0 K", '---'. */
export function formatRise(rise: number | null | undefined): string {
  const text = formatValue(rise);
  if (text === '---') return text;
  return rise !== null && rise !== undefined && rise < 0 && text !== '0.0' ? `−${text.slice(1)} K` : `+${text} K`;
}

/** Green / red / neutral for d_e against its tolerance (null: no tolerance yet, t ≤ 5 min). */
export function deviationColor(deviation: CriteriaSnapshot['deviation']): 'green' | 'red' | 'gray' {
  if (deviation.ok === null || deviation.d_e === null) return 'gray';
  return deviation.ok ? 'green' : 'red';
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

