import { appendWithinBudget, MAX_POINTS_PER_SERIES, minMaxDownsample } from './downsample';
import type { Point } from './points';

const line = (n: number, value: (i: number) => number | null = (i) => Math.sin(i / 50) * 100): Point[] =>
  Array.from({ length: n }, (_, i) => [i * 1000, value(i)] as Point);

describe('minMaxDownsample', () => {
  it('returns a series under the limit as it is', () => {
    const points = line(100);
    expect(minMaxDownsample(points, 2000)).toEqual(points);
  });

  it('keeps at most maxPoints points, in time order, with the first and the last point', () => {
    const points = line(50_000);
    const out = minMaxDownsample(points, 2000);
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out.length).toBeGreaterThan(1900);
    expect(out[0]).toBe(points[0]);
    expect(out.at(-1)).toBe(points.at(-1));
    for (let i = 1; i < out.length; i++) expect((out[i] as Point)[0]).toBeGreaterThanOrEqual((out[i - 1] as Point)[0]);
  });

  it('keeps a one-frame spike up and down (a mean or LTTB would flatten them)', () => {
    const points = line(100_000, (i) => (i === 31_337 ? 950 : i === 77_001 ? -40 : 20));
    const out = minMaxDownsample(points, 500);
    expect(out).toContainEqual([31_337_000, 950]);
    expect(out).toContainEqual([77_001_000, -40]);
    expect(Math.max(...out.map((p) => p[1] as number))).toBe(950);
  });

  it('keeps a gap where a whole bucket had no value, and drops nothing else', () => {
    const points = line(10_000, (i) => (i >= 4000 && i < 5000 ? null : 1));
    const out = minMaxDownsample(points, 100);
    expect(out.some((p) => p[1] === null && p[0] >= 4_000_000 && p[0] < 5_000_000)).toBe(true);
  });

  it('refuses a budget under 4 points', () => {
    expect(() => minMaxDownsample(line(10), 3)).toThrow(RangeError);
  });
});

describe('a live series never holds more than 2 000 points (the benchmark bound, as logic)', () => {
  it('stays within MAX_POINTS_PER_SERIES while 100 000 frames are appended one by one, spike kept', () => {
    expect(MAX_POINTS_PER_SERIES).toBe(2000);
    let series: Point[] = line(1500);
    let most = series.length;
    let downsamples = 0;
    for (let i = 1500; i < 101_500; i++) {
      const before = series;
      series = appendWithinBudget(series, [[i * 1000, i === 64_000 ? 1200 : 20]]);
      if (series !== before) downsamples++;
      most = Math.max(most, series.length);
    }
    expect(most).toBeLessThanOrEqual(2000);
    expect(series.some((p) => p[1] === 1200)).toBe(true);
    // Downsampled once per ~500 frames, not per frame.
    expect(downsamples).toBeLessThan(250);
    expect(series.at(-1)).toEqual([101_499_000, 20]);
  });
});
