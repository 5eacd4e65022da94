import { iso834 } from './iso834';

describe('iso834', () => {
  it.each([
    [0, 20],
    [5 * 60, 576.4],
    [15 * 60, 738.6],
    [30 * 60, 841.8],
    [60 * 60, 945.3],
    [90 * 60, 1006.0],
    [120 * 60, 1049.0],
    [240 * 60, 1153.2],
  ])('at %i s is %f °C (ISO 834-1 table)', (seconds, celsius) => {
    expect(iso834(seconds)).toBeCloseTo(celsius, 0);
  });

  it('follows the formula exactly', () => {
    expect(iso834(754)).toBeCloseTo(20 + 345 * Math.log10((8 * 754) / 60 + 1), 10);
  });

  it('stays at ambient before the start and is NaN for a non-finite time', () => {
    expect(iso834(-600)).toBe(20);
    expect(iso834(Number.NaN)).toBeNaN();
    expect(iso834(Number.POSITIVE_INFINITY)).toBeNaN();
  });
});
