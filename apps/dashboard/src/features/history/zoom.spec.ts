import type { Point } from '../charts/points';
import { mergeRange, zoomRange } from './zoom';

describe('zoomRange', () => {
  it('turns the zoom percents into whole seconds of the test, null for the whole test', () => {
    expect(zoomRange({ from: 0, to: 3600 }, 0, 100)).toBeNull();
    expect(zoomRange({ from: 0, to: 3600 }, 25, 50)).toEqual({ from: 900, to: 1800 });
    expect(zoomRange({ from: 0, to: 1000 }, 10.05, 10.07)).toEqual({ from: 100, to: 101 });
    expect(zoomRange({ from: 0, to: 1000 }, -5, 150)).toBeNull();
  });
});

describe('mergeRange', () => {
  const overview: Point[] = Array.from({ length: 2000 }, (_, i) => [i * 1800, 20 + (i % 7)]);
  const detail = (from: number, to: number, n: number): Point[] =>
    Array.from({ length: n }, (_, i) => [from + ((to - from) * i) / (n - 1), i === 3 ? 999 : 1]);

  it('shows the detail inside the range and the test around it, within 2 000 points', () => {
    const inner = detail(900_000, 1_800_000, 1600);
    const merged = mergeRange(overview, inner, 900_000, 1_800_000);
    expect(merged.length).toBeLessThanOrEqual(2000);
    expect(merged.filter((p) => p[0] >= 900_000 && p[0] <= 1_800_000)).toEqual(inner);
    expect(merged[0]).toEqual(overview[0]);
    expect(merged.at(-1)).toEqual(overview.at(-1));
    for (let i = 1; i < merged.length; i++)
      expect((merged[i] as Point)[0]).toBeGreaterThanOrEqual((merged[i - 1] as Point)[0]);
  });

  it('never holds more than 2 000 points, whatever sizes come in', () => {
    for (const [n, from, to] of [
      [5000, 0, 100_000],
      [1990, 3_000_000, 3_500_000],
      [10, 10_000, 20_000],
      [2000, 3_590_000, 3_598_200],
    ] as const) {
      const merged = mergeRange(overview, detail(from, to, n), from, to);
      expect(merged.length).toBeLessThanOrEqual(2000);
      expect(merged.some((p) => p[1] === 999)).toBe(true);
    }
  });
});
