import { criteriaSnapshot as snapshot } from '../../test/criteria-snapshot';
import { buildChartOption } from '../charts/chart-option';
import { chartCategories } from '../charts/categories';
import { deviationKey, historyChartSpec } from '../charts/curve-specs';
import { heatingCurve } from '@furnace/criteria';
import { criteriaOverlay, deviationPoints, withCriteriaLimits } from './chart-criteria';

const LIMIT_TEXTS = {
  max: (t: string) => `max: ${t}`,
  mean: (t: string) => `mean: ${t}`,
  frame: (t: string) => `frame: ${t}`,
};
const MARKERS = [
  { thermo_id: 1, type_name: 'Tśr i Tmax', color_hex: '#E53935', name: 'T1' },
  { thermo_id: 2, type_name: 'TDin', color_hex: '#43A047', name: 'T2' },
  { thermo_id: 3, type_name: 'T', color_hex: '#8E24AA', name: 'T3' },
];

describe('the criteria on the curves', () => {
  it("draws the profile's limits in °C where the type counts, labelled with T0 + K", () => {
    const categories = withCriteriaLimits(chartCategories(MARKERS), snapshot(), LIMIT_TEXTS);
    expect(categories.map((c) => [c.typeName, c.critical, c.limitLabels])).toEqual([
      [
        'Tśr i Tmax',
        { max: 200.3, mean: 160.3 },
        { max: 'max: T0 + 180 K = 200.3 °C', mean: 'mean: T0 + 140 K = 160.3 °C' },
      ],
      ['TDin', { max: 380.3, mean: null }, { max: 'frame: T0 + 360 K = 380.3 °C', mean: undefined }],
      ['T', { max: null, mean: null }, { max: undefined, mean: undefined }],
    ]);
    // Without a snapshot yet: the types' own critical values.
    expect(withCriteriaLimits(chartCategories(MARKERS), null, LIMIT_TEXTS)[0]?.critical).toEqual({
      max: 180,
      mean: 140,
    });
  });

  it('marks observations, failures (an interval after a gap) and exclusions; pressure band and the W line', () => {
    const overlay = criteriaOverlay({
      snapshot: snapshot({
        failures: [
          { criterion: 'I_max', time: 2830, interval_from: null, thermo_id: 1, type_name: 'Tśr i Tmax' },
          { criterion: 'I_mean', time: 2900, interval_from: 2800, thermo_id: null, type_name: 'Tśr i Tmax' },
        ],
      }),
      observations: [{ time: 3820, kind: 'cotton_pad', note: null }],
      exclusions: [{ thermo_id: 2, from_time: 1200 }],
      profile: { pressure_target_pa: 20, pressure_tolerance_pa: null },
      until: 3600,
      names: new Map([[2, 'T2']]),
      texts: {
        observation: (kind) => kind,
        failure: (criterion) => criterion,
        exclusion: (name) => `${name} off`,
        pressureBand: (target, tolerance) => `${target}±${tolerance}`,
        radiationLimit: 'W 15',
      },
    });
    expect(overlay.marks.map((m) => [m.x, m.label])).toEqual([
      [3_820_000, 'cotton_pad'],
      [2_830_000, 'I_max'],
      [1_200_000, 'T2 off'],
    ]);
    expect(overlay.bands).toEqual([expect.objectContaining({ from: 2_800_000, to: 2_900_000, label: 'I_mean' })]);
    // EN 1363-1 §5.2: nothing before 5 min, ±5 Pa to 10 min, ±3 Pa after, to the end of the test.
    expect(overlay.pressureBands).toEqual([
      expect.objectContaining({ start: 300_000, end: 600_000, from: 15, to: 25, label: '20±5' }),
      expect.objectContaining({ start: 600_000, end: 3_600_000, from: 17, to: 23, label: '20±3' }),
    ]);
    expect(overlay.radiationLimit).toMatchObject({ value: 15, label: 'W 15' });

    // In the option: the marks as vertical lines on the first series of each grid, the band as an area.
    const labels = {
      furnace: 'F',
      pk: 'pk',
      iso834: 'iso',
      categories: 'C',
      thermocouples: 'T',
      scalars: 'S',
      radiance: 'R',
      pressure: 'P',
      categoryMax: (t: string) => `${t} max`,
      categoryMean: (t: string) => `${t} mean`,
      criticalMax: (v: number) => `${v}`,
      criticalMean: (v: number) => `${v}`,
    };
    const spec = historyChartSpec({
      furnace: true,
      radiance: true,
      pressure: true,
      categories: [],
      thermocouples: [],
      labels,
      overlay,
    });
    const option = buildChartOption(spec!, { more: String, header: String });
    const series = option.series as {
      id: string;
      markLine?: { data: { xAxis?: number; yAxis?: number }[] };
      markArea?: { data: unknown[][] };
    }[];
    const pk = series.find((s) => s.id === 'pk');
    expect(pk?.markLine?.data.map((d) => d.xAxis)).toEqual([3_820_000]);
    expect(pk?.markArea?.data).toHaveLength(1);
    const pressure = series.find((s) => s.id === 'pressure');
    expect(pressure?.markArea?.data).toEqual([
      [expect.objectContaining({ xAxis: 300_000, yAxis: 15 }), { xAxis: 600_000, yAxis: 25 }],
      [expect.objectContaining({ xAxis: 600_000, yAxis: 17 }), { xAxis: 3_600_000, yAxis: 23 }],
    ]);
    expect(series.find((s) => s.id === 'radiance')?.markLine?.data.some((d) => d.yAxis === 15)).toBe(true);
  });

  it("draws the profile's own pressure tolerance from 5 min, and no band without a target or before 5 min", () => {
    const overlay = (
      profile: { pressure_target_pa: number | null; pressure_tolerance_pa: number | null },
      until: number | null,
    ) =>
      criteriaOverlay({
        snapshot: null,
        observations: [],
        exclusions: [],
        profile,
        until,
        names: new Map(),
        texts: {
          observation: String,
          failure: String,
          exclusion: String,
          pressureBand: (target, tolerance) => `${target}±${tolerance}`,
          radiationLimit: 'W',
        },
      }).pressureBands;
    expect(overlay({ pressure_target_pa: 20, pressure_tolerance_pa: 2 }, 1800)).toEqual([
      expect.objectContaining({ start: 300_000, end: 1_800_000, from: 18, to: 22, label: '20±2' }),
    ]);
    expect(overlay({ pressure_target_pa: 20, pressure_tolerance_pa: null }, 420)).toEqual([
      expect.objectContaining({ start: 300_000, end: 420_000, from: 15, to: 25 }),
    ]);
    expect(overlay({ pressure_target_pa: 20, pressure_tolerance_pa: null }, 240)).toEqual([]);
    expect(overlay({ pressure_target_pa: 20, pressure_tolerance_pa: 3 }, null)).toEqual([]);
    expect(overlay({ pressure_target_pa: null, pressure_tolerance_pa: 3 }, 3600)).toEqual([]);
  });

  it('computes d_e along the furnace curve: −5.00 % for 0.95 · ISO 834, with the tolerance envelope', () => {
    const time = Array.from({ length: 361 }, (_, i) => i * 10);
    const pk = time.map((t) => 0.95 * heatingCurve('iso834', t));
    const points = deviationPoints({ time, series: [{ key: 'pk', kind: 'pk', min: pk, max: pk, mean: pk }] }, 'iso834');
    const de = points.get(deviationKey.de) ?? [];
    expect(de[0]).toEqual([0, null]);
    expect(de[36]).toEqual([360_000, -5]);
    expect(de[360]).toEqual([3_600_000, -5]);
    expect(points.get(deviationKey.upper)?.[30]).toEqual([300_000, null]); // t ≤ 5 min: no tolerance
    expect(points.get(deviationKey.upper)?.[60]).toEqual([600_000, 15]);
    expect(points.get(deviationKey.lower)?.[360]?.[1]).toBeCloseTo(-2.51, 2);
  });
});
