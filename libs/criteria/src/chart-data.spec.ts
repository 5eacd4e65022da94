import { iso834 } from '@furnace/contracts';
import { deviationSeries, heatingCurvePoints, pressureBand } from './chart-data';

describe('chart data', () => {
  it('pressure band from the profile', () => {
    expect(pressureBand({ pressure_target_pa: 20, pressure_tolerance_pa: 3 })).toEqual({
      target: 20,
      low: 17,
      high: 23,
    });
    expect(pressureBand({ pressure_target_pa: 20, pressure_tolerance_pa: null })).toEqual({
      target: 20,
      low: 20,
      high: 20,
    });
    expect(pressureBand({ pressure_target_pa: null, pressure_tolerance_pa: 3 })).toBeNull();
  });

  it('heating curve points include the end', () => {
    const points = heatingCurvePoints('iso834', 150, 60);
    expect(points.map(([t]) => t)).toEqual([0, 60, 120, 150]);
    expect(points[3]![1]).toBeCloseTo(iso834(150), 10);
  });

  it('d_e series: 0.95·ISO is −5 % throughout, with the tolerance envelope', () => {
    const frames = Array.from({ length: 3601 }, (_, t) => ({ time: t, pk: 0.95 * iso834(t) }));
    const series = deviationSeries(frames, 'iso834', 60);
    expect(series.map((p) => p.time)).toEqual(Array.from({ length: 60 }, (_, i) => 1 + i * 60).concat(3600));
    expect(series.every((p) => p.d_e.toFixed(2) === '-5.00')).toBe(true);
    expect(series.find((p) => p.time === 1801)?.tolerance).toBeCloseTo(5 - 0.083 / 60, 10);
    expect(series[0]!.tolerance).toBeNull();
  });
});
