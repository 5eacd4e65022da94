/**
 * How the dashboard must show a date: dd.mm.yyyy, hh:mm:ss in Europe/Warsaw (docs/behaviour.md §2, §9). Written
 * out here rather than imported from the app, so the tests check the app against the spec.
 */
export function warsaw(date: Date | string): string {
  return new Intl.DateTimeFormat('pl-PL', {
    timeZone: 'Europe/Warsaw',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(date));
}

/** A datetime-local value ('2026-11-26T14:03:05', '2026-11-26T14:03') of an instant in Europe/Warsaw, the browser's zone here. */
export function warsawLocal(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Warsaw',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  // The browser's own form of the value: without the seconds when they are 0.
  const seconds = parts.second === '00' ? '' : `:${parts.second}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}${seconds}`;
}
