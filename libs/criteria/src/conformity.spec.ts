import { iso834 } from '@furnace/contracts';
import { DeviationAccumulator, furnaceTolerance, withinTolerance } from './conformity';

/** Pushes frames every `step` s from t = 0 to `until`, returning d_e (%) at the requested times. */
function run(pk: (t: number) => number, until: number, step = 1) {
  const acc = new DeviationAccumulator(iso834);
  const at = new Map<number, number>();
  for (let t = 0; t <= until; t += step) {
    acc.push(t, pk(t));
    const dE = acc.deviation();
    if (dE !== null) at.set(t, dE);
  }
  return at;
}

describe('furnaceTolerance', () => {
  it.each([
    [0, null],
    [300, null],
    [301, 15],
    [600, 15],
    [900, 12.5],
    [1800, 5],
    [2700, 5 - 0.083 * 15],
    [3600, 5 - 0.083 * 30],
    [3601, 2.5],
    [14400, 2.5],
  ])('at %i s is %p %%', (t, tolerance) => {
    if (tolerance === null) expect(furnaceTolerance(t)).toBeNull();
    else expect(furnaceTolerance(t)).toBeCloseTo(tolerance, 10);
  });
});

describe('d_e', () => {
  it('pk = 0.95·ISO gives −5.00 % at every t, inside the tolerance to 30:00 and outside from 30:01', () => {
    const dE = run((t) => 0.95 * iso834(t), 3600);
    for (const [t, value] of dE) {
      expect([t, value.toFixed(2)]).toEqual([t, '-5.00']);
      const tolerance = furnaceTolerance(t);
      if (tolerance !== null) expect([t, withinTolerance(value, tolerance)]).toEqual([t, t <= 1800]);
    }
    expect(withinTolerance(dE.get(1800)!, furnaceTolerance(1800)!)).toBe(true);
    expect(withinTolerance(dE.get(1801)!, furnaceTolerance(1801)!)).toBe(false);
  });

  it('pk = ISO(t − 60 s), frames every 1 s from t = 0: −20.42 % at 6 min, −12.12 % at 10 min, −8.00 % at 15 min', () => {
    const dE = run((t) => iso834(t - 60), 900);
    expect(dE.get(360)!.toFixed(2)).toBe('-20.42');
    expect(dE.get(600)!.toFixed(2)).toBe('-12.12');
    expect(dE.get(900)!.toFixed(2)).toBe('-8.00');
  });

  it('frames every 5 s reproduce the same figures; a minute apart they do not', () => {
    const every5 = run((t) => iso834(t - 60), 900, 5);
    expect([360, 600, 900].map((t) => every5.get(t)!.toFixed(2))).toEqual(['-20.42', '-12.12', '-8.00']);
    const every60 = run((t) => iso834(t - 60), 900, 60);
    expect(every60.get(360)!.toFixed(2)).not.toBe('-20.42');
  });

  it('ignores frames before ignition, frames out of order and frames without pk', () => {
    const acc = new DeviationAccumulator(iso834);
    acc.push(-30, 500);
    acc.push(0, 20);
    acc.push(10, null);
    acc.push(60, 0.9 * iso834(60));
    acc.push(30, 5000);
    const standard = ((20 + iso834(60)) / 2) * 60;
    const furnace = ((20 + 0.9 * iso834(60)) / 2) * 60;
    expect(acc.deviation()).toBeCloseTo(((furnace - standard) / standard) * 100, 10);
  });

  it('answers d_e at an earlier time from its history', () => {
    const acc = new DeviationAccumulator(iso834, true);
    for (let t = 0; t <= 1200; t += 10) acc.push(t, (t <= 600 ? 0.9 : 1.2) * iso834(t));
    expect(acc.deviationAt(-1)).toBeNull();
    expect(acc.deviationAt(0)).toBeNull();
    expect(acc.deviationAt(605)?.time).toBe(600);
    expect(acc.deviationAt(605)?.d_e.toFixed(2)).toBe('-10.00');
    expect(acc.deviationAt(5000)).toEqual({ time: 1200, d_e: acc.deviation() });
  });
});
