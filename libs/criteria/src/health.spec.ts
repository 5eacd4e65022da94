import { HealthTracker, type SuspectEvent } from './health';

function readings(values: [number, number][], t0: number | null = 20): SuspectEvent[] {
  const health = new HealthTracker(1);
  const out: SuspectEvent[] = [];
  values.forEach(([time, value], n) => health.reading(0, value, n, time, t0, out));
  return out;
}

describe('HealthTracker', () => {
  it('flags a jump over 50 K between two scans, once', () => {
    expect(
      readings([
        [0, 20],
        [1, 70],
        [2, 20.5],
      ]),
    ).toEqual([]);
    expect(
      readings([
        [0, 20],
        [1, 70.1],
        [2, 20],
        [3, 90],
      ]),
    ).toEqual([{ index: 0, reason: 'jump', time: 1 }]);
  });

  it('flags a reading more than 10 K below T0 only after 5 min', () => {
    expect(
      readings([
        [0, 5],
        [300, 9.9],
      ]),
    ).toEqual([]);
    expect(
      readings([
        [300, 20],
        [301, 9.9],
      ]),
    ).toEqual([{ index: 0, reason: 'below_t0', time: 301 }]);
    expect(readings([[301, 9.9]], null)).toEqual([]);
  });

  it('flags a value stuck for 2 min', () => {
    const frames: [number, number][] = [];
    for (let t = 0; t <= 130; t += 10) frames.push([t, t < 10 ? 20 : 45.5]);
    expect(readings(frames)).toEqual([{ index: 0, reason: 'stuck', time: 130 }]);
    frames.pop();
    expect(readings(frames)).toEqual([]);
  });

  it('flags a fault once', () => {
    const health = new HealthTracker(2);
    const out: SuspectEvent[] = [];
    health.fault(1, 100, out);
    health.fault(1, 101, out);
    expect(out).toEqual([{ index: 1, reason: 'fault', time: 100 }]);
  });
});
