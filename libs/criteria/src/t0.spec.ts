import { T0Estimator } from './t0';

/** Feeds frames (time, readings of the counted thermocouples) and returns the estimator. */
function feed(frames: [number, (number | null)[]][], override: number | null = null) {
  const t0 = new T0Estimator(frames[0]?.[1].length ?? 0, override);
  for (const [time, values] of frames) t0.push(time, (j) => values[j] ?? null);
  return t0;
}

describe('T0', () => {
  it('is the mean over the 60 s before ignition, frames before −60 s ignored', () => {
    const t0 = feed([
      [-120, [40, 40]],
      [-61, [40, 40]],
      [-60, [20, 21]],
      [-30, [20.2, 21.2]],
      [-1, [20.4, null]],
      [0, [90, 90]],
      [10, [95, 95]],
    ]);
    // thermocouple 1: (20 + 20.2 + 20.4)/3 = 20.2; thermocouple 2: (21 + 21.2)/2 = 21.1
    expect(t0.current?.value).toBeCloseTo(20.65, 10);
    expect(t0.current?.source).toBe('auto');
  });

  it('without frames in the window, is the first frame at or after ignition', () => {
    const t0 = feed([
      [-300, [40, 40]],
      [0, [null, null]],
      [1, [19, 21]],
      [2, [50, 50]],
    ]);
    expect(t0.current).toEqual({ value: 20, source: 'first_frame' });
  });

  it('is provisional before ignition and null with nothing to go on', () => {
    expect(feed([[-200, [20, 20]]]).current).toBeNull();
    const t0 = feed([[-10, [20, 22]]]);
    expect(t0.current).toEqual({ value: 21, source: 'auto' });
    expect(t0.isFixed).toBe(false);
  });

  it('an override wins', () => {
    const t0 = feed(
      [
        [-10, [20, 22]],
        [0, [20, 22]],
      ],
      18.5,
    );
    expect(t0.current).toEqual({ value: 18.5, source: 'override' });
  });
});
