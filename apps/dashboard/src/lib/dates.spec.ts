import { datetimeLocalToIso, defaultResearchTimes, formatDateTime, isoToDatetimeLocal, toDatetimeLocal } from './dates';

describe('dates', () => {
  it('shows instants in Polish format, Europe/Warsaw time, to the second', () => {
    expect(formatDateTime('2025-01-15T10:04:05Z')).toBe('15.01.2025, 11:04:05'); // CET, UTC+1
    expect(formatDateTime('2025-07-15T10:04:05Z')).toBe('15.07.2025, 12:04:05'); // CEST, UTC+2
    expect(formatDateTime('not a date')).toBe('not a date');
  });

  it('defaults a new research to now and now + 3 h as datetime-local values', () => {
    const now = new Date(2025, 10, 22, 9, 5, 59);
    expect(defaultResearchTimes(now)).toEqual({ start_at: '2025-11-22T09:05', end_at: '2025-11-22T12:05' });
    // Across midnight.
    expect(defaultResearchTimes(new Date(2025, 11, 31, 22, 30)).end_at).toBe('2026-01-01T01:30');
  });

  it('round-trips between datetime-local values and ISO instants in the local time zone', () => {
    const local = toDatetimeLocal(new Date(2025, 2, 3, 4, 5));
    expect(local).toBe('2025-03-03T04:05');
    const iso = datetimeLocalToIso(local);
    expect(iso).toBe(new Date(2025, 2, 3, 4, 5).toISOString());
    expect(isoToDatetimeLocal(iso as string)).toBe(local);
    expect(datetimeLocalToIso('')).toBeNull();
    expect(datetimeLocalToIso('2025-13-45T99:99')).toBeNull();
  });

  it('gives the seconds when asked (a range of readings narrowed to the second)', () => {
    const date = new Date(2025, 2, 3, 4, 5, 6, 789);
    expect(toDatetimeLocal(date, true)).toBe('2025-03-03T04:05:06');
    expect(isoToDatetimeLocal(date.toISOString(), true)).toBe('2025-03-03T04:05:06');
    expect(datetimeLocalToIso('2025-03-03T04:05:06')).toBe(new Date(2025, 2, 3, 4, 5, 6).toISOString());
  });
});
