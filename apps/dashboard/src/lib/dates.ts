import { formatWarsawDateTime } from '@furnace/contracts';

/** Dates as the staff see them (docs/behaviour.md §2, §9): '22.11.2025, 14:03:05'; an unreadable date is shown as it came. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatWarsawDateTime(date);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a datetime-local input value ('2025-11-22T14:03', with seconds '2025-11-22T14:03:05') in the browser's time zone. */
export function toDatetimeLocal(date: Date, withSeconds = false): string {
  const minutes = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return withSeconds ? `${minutes}:${pad(date.getSeconds())}` : minutes;
}

/** An ISO date-time from the API as a datetime-local input value (to the minute, or to the second). */
export function isoToDatetimeLocal(iso: string, withSeconds = false): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : toDatetimeLocal(date, withSeconds);
}

/** A datetime-local value (browser time zone) as an ISO instant for the API; null when unreadable. */
export function datetimeLocalToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return null;
  const date = new Date(value); // No offset: the browser's local time.
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const DEFAULT_RESEARCH_HOURS = 3;

/** The create form's default times: now and now + 3 h, as datetime-local strings (docs/behaviour.md §9). */
export function defaultResearchTimes(now: Date = new Date()): { start_at: string; end_at: string } {
  const end = new Date(now.getTime() + DEFAULT_RESEARCH_HOURS * 3600_000);
  return { start_at: toDatetimeLocal(now), end_at: toDatetimeLocal(end) };
}
