import { iso834 } from '@furnace/contracts';
import { categoryMaxMean } from './category-max-mean';
import { CriteriaEngine } from './engine';
import { DEFAULT_TEST_PROFILE } from './profiles';

describe('categoryMaxMean', () => {
  const values = [20, 30, null, 50, Number.NaN, 100];

  it('takes the max and mean over the members that count', () => {
    expect(categoryMaxMean(values, [0, 1, 3], () => true)).toEqual({ max: 50, mean: (20 + 30 + 50) / 3, valid: 3 });
    // Member 2 (channel 3, 50 °C) faulted or excluded in this frame: left out.
    expect(categoryMaxMean(values, [0, 1, 3], (k) => k !== 2)).toEqual({ max: 30, mean: 25, valid: 2 });
  });

  it('never counts a missing or non-finite reading, and says so when nothing counts', () => {
    expect(categoryMaxMean(values, [2, 4, 9], () => true)).toEqual({ max: null, mean: null, valid: 0 });
    expect(categoryMaxMean(values, [2, 5], () => true)).toEqual({ max: 100, mean: 100, valid: 1 });
    expect(categoryMaxMean(undefined, [0], () => true)).toEqual({ max: null, mean: null, valid: 0 });
  });
});

describe('CriteriaEngine.frameValues', () => {
  it('gives the newest frame its categories over the valid thermocouples, T0 and d_e so far', () => {
    const engine = new CriteriaEngine({
      profile: DEFAULT_TEST_PROFILE,
      markers: [1, 2, 3]
        .map((thermo_id) => ({ thermo_id, type_name: 'Tśr i Tmax' }))
        .concat([{ thermo_id: 4, type_name: 'Tmax' }]),
      exclusions: [{ id: 'x', thermo_id: 3, from_time: 60, reason: 'detached' }],
    });
    expect(engine.frameValues()).toEqual({
      time: null,
      t0: null,
      t0_fixed: false,
      categories: [expect.objectContaining({ max: null }), expect.objectContaining({ max: null })],
      d_e: null,
    });
    engine.push({ time: -30, pk: 20, thermocouples_out: [20, 21, 22, 23] });
    expect(engine.frameValues()).toMatchObject({ t0: 21, t0_fixed: false, d_e: null });
    engine.push({ time: 0, pk: 20, thermocouples_out: [20, 21, 22, 23] });
    engine.push({ time: 60, pk: 2 * iso834(60), thermocouples_out: [30, 50, 90, 40], faults: [2] });
    const values = engine.frameValues();
    // Channel 2 faulted, channel 3 excluded from 60 s: only channel 1 counts in 'Tśr i Tmax'.
    expect(values.categories).toEqual([
      { type_name: 'Tśr i Tmax', max: 30, mean: 30, valid: 1 },
      { type_name: 'Tmax', max: 40, mean: 40, valid: 1 },
    ]);
    expect(values.t0).toBeCloseTo(21, 10);
    expect(values.t0_fixed).toBe(true);
    // Trapezoids over [0, 60]: pk 20 → 2·ISO(60), standard 20 → ISO(60).
    const expected = ((20 + 2 * iso834(60)) / (20 + iso834(60)) - 1) * 100;
    expect(values.d_e).toBeCloseTo(expected, 10);
  });
});
