/** Placeholder shown where a value is absent (docs/behaviour.md §9). */
export const NO_VALUE = '---';

/** Elapsed test time as hh:mm:ss (hours grow past 99 when needed); absent or negative → 00:00:00. */
export function formatElapsed(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '00:00:00';
  const total = Math.floor(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  return [hours, minutes, secs].map((part) => String(part).padStart(2, '0')).join(':');
}

/**
 * A time since ignition as hh:mm:ss, with a minus sign before ignition ("−00:00:30"), '---' when
 * unknown. `minus` '-' for files read by programs (the CSV and XLSX exports).
 */
export function formatTestTime(seconds: number | null | undefined, minus: '−' | '-' = '−'): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return NO_VALUE;
  return seconds < 0 ? `${minus}${formatElapsed(-seconds)}` : formatElapsed(seconds);
}

/** d_e in percent with two decimals and a real minus sign ("−5.00 %"), '---' before it is known. */
export function formatDeviation(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return NO_VALUE;
  const text = Math.abs(value).toFixed(2);
  return `${value < 0 && text !== '0.00' ? '−' : ''}${text} %`;
}

/** A measured value with one decimal ('812.4'), or '---' when absent or not a finite number. */
export function formatValue(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return NO_VALUE;
  const text = value.toFixed(1);
  // -0.04 rounds to "-0.0": show it as 0.0.
  return text === '-0.0' ? '0.0' : text;
}

const WARSAW = new Intl.DateTimeFormat('pl-PL', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** A moment as staff see it: Polish format, Europe/Warsaw time, to the second ('22.11.2025, 14:03:05'; docs/behaviour.md §9). */
export function formatWarsawDateTime(date: Date): string {
  return WARSAW.format(date);
}
