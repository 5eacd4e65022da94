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
