/**
 * Rate-limits a log line per key: the first event of a key is reported, later ones at most once per
 * `intervalMs`, each report saying how many events it stands for. Keeps a fault that repeats at the
 * DAQ's rate (a bad channel, a full buffer, a bus outage) from flooding the log.
 */
export class LogThrottle {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Records one event. Returns null when it is not to be logged now; otherwise `events`, the events
   * this report stands for (this one and those held back since the last report), and `first` when
   * the key was never reported before.
   */
  event(key = ''): { events: number; first: boolean } | null {
    const now = this.now();
    const entry = this.last.get(key);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed++;
      return null;
    }
    this.last.set(key, { at: now, suppressed: 0 });
    return { events: (entry?.suppressed ?? 0) + 1, first: !entry };
  }
}
