import { iso834 } from '@furnace/contracts';
import { HEATING_CURVE_IDS, heatingCurve } from './curves';

describe('heatingCurve', () => {
  // Expected values worked out from each formula (see curves.ts), to 0.1 °C.
  it.each([
    ['iso834', [576.4, 678.4, 841.8, 945.3, 1152.8]],
    // 1080·(1 − 0.325·e^(−0.167·5) − 0.675·e^(−12.5)) + 20 = 947.7 …
    ['hydrocarbon', [947.7, 1033.9, 1097.7, 1100.0, 1100.0]],
    // 660·(1 − 0.687·e^(−1.6) − 0.313·e^(−19)) + 20 = 588.5 …
    ['external', [588.5, 661.5, 680.0, 680.0, 680.0]],
    // 154·5^0.25 + 20 = 250.3, 154·10^0.25 + 20 = 293.9; then 345·log10(8·(30 − 20) + 1) + 20 = 678.4 …
    ['slow', [250.3, 293.9, 678.4, 884.7, 1139.8]],
  ] as const)('%s at 5, 10, 30, 60, 240 min', (id, expected) => {
    const got = [5, 10, 30, 60, 240].map((minutes) => Math.round(heatingCurve(id, minutes * 60) * 10) / 10);
    expect(got).toEqual(expected);
  });

  it('is the existing iso834 for the standard curve', () => {
    expect(heatingCurve('iso834', 754)).toBe(iso834(754));
  });

  it('is at ambient before ignition and NaN for a non-finite time', () => {
    for (const id of HEATING_CURVE_IDS) {
      expect(heatingCurve(id, -120)).toBe(20);
      expect(heatingCurve(id, 0)).toBe(20);
      expect(heatingCurve(id, Number.NaN)).toBeNaN();
    }
  });

  it('slow heating switches to the shifted standard curve after 21 min', () => {
    expect(heatingCurve('slow', 21 * 60)).toBeCloseTo(154 * 21 ** 0.25 + 20, 10);
    expect(heatingCurve('slow', 22 * 60)).toBeCloseTo(345 * Math.log10(8 * 2 + 1) + 20, 10);
  });
});
