import { RunTracker, type RunEvent } from './exceedance';

/** Scans one entity over frames [time, over] (null: no valid reading in that frame) and returns the events. */
function scan(frames: [number, boolean | null][]): RunEvent[] {
  const runs = new RunTracker(1);
  const events: RunEvent[] = [];
  for (const [time, over] of frames) {
    const event = runs.scan(0, over, time);
    if (event !== null) events.push(event);
  }
  return events;
}

describe('RunTracker', () => {
  it('a failure needs two consecutive scans over the limit; its time is the first', () => {
    expect(
      scan([
        [0, false],
        [5, true],
        [10, true],
        [15, true],
      ]),
    ).toEqual([{ kind: 'failure', time: 5, intervalFrom: null }]);
  });

  it('a single scan over the limit is an excursion', () => {
    expect(
      scan([
        [0, false],
        [5, true],
        [10, false],
        [15, true],
        [20, false],
        [25, true],
        [30, true],
      ]),
    ).toEqual([
      { kind: 'excursion', time: 5 },
      { kind: 'excursion', time: 15 },
      { kind: 'failure', time: 25, intervalFrom: null },
    ]);
  });

  // EN 1363-1 §11.3 judges consecutive scans of the thermocouple; a scan it did not deliver is no scan.
  it('a missing scan is skipped: over, missing, over fails at the first scan over', () => {
    expect(
      scan([
        [0, false],
        [5, true],
        [10, null],
        [15, true],
      ]),
    ).toEqual([{ kind: 'failure', time: 5, intervalFrom: null }]);
  });

  it('a thermocouple over its limit that misses every other scan (a loose connector) fails at its first scan over', () => {
    const frames: [number, boolean | null][] = [
      [0, false],
      [5, false],
    ];
    for (let t = 10; t <= 60; t += 5) frames.push([t, t % 10 === 0 ? true : null]);
    expect(scan(frames)).toEqual([{ kind: 'failure', time: 10, intervalFrom: null }]);
  });

  it('over, missing, under is an excursion', () => {
    expect(
      scan([
        [0, true],
        [5, null],
        [10, false],
      ]),
    ).toEqual([{ kind: 'excursion', time: 0 }]);
  });

  it('a gap over 60 s since the last valid scan before the first one over the limit makes the time an interval', () => {
    expect(
      scan([
        [0, false],
        [61, true],
        [62, true],
      ]),
    ).toEqual([{ kind: 'failure', time: 61, intervalFrom: 0 }]);
    expect(
      scan([
        [0, false],
        [60, true],
        [200, true],
      ]),
    ).toEqual([{ kind: 'failure', time: 60, intervalFrom: null }]);
    // The frames came every 10 s, but the thermocouple read nothing from 10 to 90 s: the failure lies in (10, 100].
    const silent: [number, boolean | null][] = [
      [0, false],
      [10, false],
    ];
    for (let t = 20; t <= 90; t += 10) silent.push([t, null]);
    silent.push([100, true], [110, true]);
    expect(scan(silent)).toEqual([{ kind: 'failure', time: 100, intervalFrom: 10 }]);
    // Nothing valid since ignition: the interval starts at ignition.
    expect(
      scan([
        [30, null],
        [90, true],
        [95, true],
      ]),
    ).toEqual([{ kind: 'failure', time: 90, intervalFrom: 0 }]);
  });

  it('keeps entities apart', () => {
    const runs = new RunTracker(2);
    expect(runs.scan(0, true, 0)).toBeNull();
    expect(runs.scan(1, false, 0)).toBeNull();
    expect(runs.scan(0, false, 5)).toEqual({ kind: 'excursion', time: 0 });
    expect(runs.scan(1, true, 5)).toBeNull();
    expect(runs.pending(1)).toBe(5);
    expect(runs.pending(0)).toBeNull();
  });

  it('goes on from a saved state as the saved one would', () => {
    const runs = new RunTracker(1);
    runs.scan(0, false, 0);
    runs.scan(0, true, 5);
    const again = new RunTracker(1);
    again.restore(JSON.parse(JSON.stringify(runs.save())));
    expect(again.scan(0, null, 10)).toBeNull();
    expect(again.scan(0, true, 15)).toEqual({ kind: 'failure', time: 5, intervalFrom: null });
  });
});
