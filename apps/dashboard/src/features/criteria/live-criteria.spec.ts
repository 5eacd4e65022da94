import type { HistoryDto } from '@furnace/api-client';
import { DEFAULT_TEST_PROFILE, heatingCurve } from '@furnace/criteria';
import { type CriteriaInputs, historyToFrames, LiveCriteria } from './live-criteria';

const MARKERS = [
  { thermo_id: 1, type_name: 'Tśr i Tmax' },
  { thermo_id: 2, type_name: 'Tśr i Tmax' },
];

const inputs = (overrides: Partial<CriteriaInputs> = {}): CriteriaInputs => ({
  profile: DEFAULT_TEST_PROFILE,
  markers: MARKERS,
  exclusions: [],
  observations: [],
  t0_override: null,
  ...overrides,
});

/** Raw frames (bucket_seconds 0) every 10 s from 0 to `until`: pk = 0.95 · ISO 834, faces at 20 °C + 0.1 K/s. */
function history(until: number): HistoryDto {
  const time: number[] = [];
  for (let t = 0; t <= until; t += 10) time.push(t);
  const face = (offset: number) => time.map((t) => 20 + 0.1 * t + offset);
  const series = (
    key: string,
    kind: HistoryDto['series'][number]['kind'],
    values: (number | null)[],
    thermo_id?: number,
  ) => ({
    key,
    kind,
    thermo_id,
    min: values,
    max: values,
    mean: values,
  });
  return {
    research_id: 'r',
    from: 0,
    to: until,
    last_time: until,
    frames: time.length,
    bucket_seconds: 0,
    time,
    series: [
      series(
        'pk',
        'pk',
        time.map((t) => 0.95 * heatingCurve('iso834', t)),
      ),
      series('thermo:1', 'thermocouple', face(0.5), 1),
      series('thermo:2', 'thermocouple', face(-0.5), 2),
    ],
    thermo_ids: [1, 2],
    faults: [],
    ignition_at: null,
  };
}

describe('historyToFrames', () => {
  it("flags a channel's faults on the frames of its range", () => {
    const frames = historyToFrames({
      ...history(30),
      faults: [{ thermo_id: 2, first_time: 10, last_time: 20, frames: 2 }],
    });
    expect(frames.map((f) => f.faults ?? [])).toEqual([[], [2], [2], []]);
  });

  it('puts each thermocouple back at its channel and keeps pk', () => {
    const frames = historyToFrames(history(20));
    expect(frames).toHaveLength(3);
    expect(frames[1]).toEqual({
      time: 10,
      pk: expect.closeTo(0.95 * heatingCurve('iso834', 10), 6),
      thermocouples_out: [21.5, 20.5],
    });
  });
});

describe('LiveCriteria', () => {
  it('is empty until the history is loaded, then follows history and live frames', () => {
    const live = new LiveCriteria(inputs());
    expect(live.snapshot()).toBeNull();
    expect(live.push({ time: 5, pk: 500 })).toBe(false);

    live.load(history(600), []);
    const first = live.snapshot();
    expect(first?.t0).toBeCloseTo(20, 5);
    expect(first?.elapsed).toBe(600);
    // pk = 0.95 · ISO 834 everywhere: d_e −5.00 % within the 15 % tolerance at 10 min.
    expect(first?.deviation.d_e).toBeCloseTo(-5, 1);
    expect(first?.deviation.ok).toBe(true);

    expect(live.push({ time: 610, pk: 0.95 * heatingCurve('iso834', 610), thermocouples_out: [81.5, 80.5] })).toBe(
      true,
    );
    expect(live.push({ time: 610, pk: 1, thermocouples_out: [1, 1] })).toBe(false); // not newer
    const next = live.snapshot();
    expect(next?.elapsed).toBe(610);
    expect(next?.categories[0]?.mean_rise).toBeCloseTo(61, 5);
  });

  it('reports a server T0 as automatic; a T0 by hand wins over it', () => {
    const live = new LiveCriteria(inputs({ auto_t0: 18 }));
    live.load(history(300), [{ time: 310, pk: 700, thermocouples_out: [51.5, 50.5] }]);
    expect(live.snapshot()).toMatchObject({ t0: 18, t0_source: 'auto', elapsed: 310 });
    const byHand = new LiveCriteria(inputs({ t0_override: 25, auto_t0: null }));
    byHand.load(history(300), [{ time: 310, pk: 700, thermocouples_out: [51.5, 50.5] }]);
    const snapshot = byHand.snapshot();
    expect(snapshot).toMatchObject({ t0: 25, t0_source: 'override', elapsed: 310 });
    expect(snapshot?.categories[0]?.mean_rise).toBeCloseTo(26, 5);
  });
});
