import { RunTracker, type RunEvent } from './exceedance';

/** Scans one entity over frames [time, over] and returns the events. */
function scan(frames: [number, boolean][]): RunEvent[] {
  const runs = new RunTracker(1);
  const events: RunEvent[] = [];
  let prev: number | null = null;
  frames.forEach(([time, over], n) => {
    const event = runs.scan(0, over, n, time, prev);
    if (event !== null) events.push(event);
    prev = time;
  });
  return events;
}

describe('RunTracker', () => {
  it('a failure needs two consecutive scans over the limit; its time is the first', () => {
    expect(scan([[0, false], [5, true], [10, true], [15, true]])).toEqual([{ kind: 'failure', time: 5, intervalFrom: null }]);
  });

  it('a single scan over the limit is an excursion', () => {
    expect(scan([[0, false], [5, true], [10, false], [15, true], [20, false], [25, true], [30, true]])).toEqual([
      { kind: 'excursion', time: 5 },
      { kind: 'excursion', time: 15 },
      { kind: 'failure', time: 25, intervalFrom: null },
    ]);
  });

  it('a scan without a valid reading breaks the run', () => {
    // `over` is false when the reading is not valid.
    expect(scan([[0, true], [5, false], [10, true]])).toEqual([{ kind: 'excursion', time: 0 }]);
  });

  it('a gap over 60 s before the first scan over the limit makes the time an interval', () => {
    expect(scan([[0, false], [61, true], [62, true]])).toEqual([{ kind: 'failure', time: 61, intervalFrom: 0 }]);
    expect(scan([[0, false], [60, true], [200, true]])).toEqual([{ kind: 'failure', time: 60, intervalFrom: null }]);
  });

  it('keeps entities apart', () => {
    const runs = new RunTracker(2);
    expect(runs.scan(0, true, 0, 0, null)).toBeNull();
    expect(runs.scan(1, false, 0, 0, null)).toBeNull();
    expect(runs.scan(0, false, 1, 5, 0)).toEqual({ kind: 'excursion', time: 0 });
    expect(runs.scan(1, true, 1, 5, 0)).toBeNull();
  });
});
