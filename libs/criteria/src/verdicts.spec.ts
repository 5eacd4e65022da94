import { iso834 } from '@furnace/contracts';
import { CriteriaEngine } from './engine';
import { DEFAULT_TEST_PROFILE } from './profiles';
import type { CriteriaEngineInput, CriteriaFrame, Observation, TestProfile } from '@furnace/contracts';

/*
 * The verdicts in the cases every real test has, each with inputs whose answer is worked out here by hand
 * from the standard (README.md in this folder, the clause at each test), not by the engine's code.
 */

const face = [
  { thermo_id: 1, type_name: 'Tśr i Tmax' },
  { thermo_id: 2, type_name: 'Tśr i Tmax' },
];
const observation = (time: number, kind: Observation['kind']): Observation => ({
  id: `${kind}@${time}`,
  time,
  kind,
  note: null,
  visible_to_clients: false,
});

function engineOf(input: Partial<CriteriaEngineInput>, frames: Iterable<CriteriaFrame>) {
  const engine = new CriteriaEngine({
    profile: DEFAULT_TEST_PROFILE,
    markers: face,
    t0_override: 20,
    ended: true,
    ...input,
  });
  for (const frame of frames) engine.push(frame);
  return engine.snapshot();
}

function* every(
  step: number,
  from: number,
  to: number,
  frame: (t: number) => Omit<CriteriaFrame, 'time'>,
): Generator<CriteriaFrame> {
  for (let t = from; t <= to; t += step) yield { time: t, ...frame(t) };
}

describe('a missing reading is skipped, not "below the limit" (EN 1363-1 §11.3: consecutive scans of the thermocouple)', () => {
  // T0 = 20 °C by hand: the max limit is 200 °C. Thermocouple 2 reads 250 °C from 10:00, but only every
  // other scan (a loose connector: null on the others).
  const loose = (t: number) => ({ thermocouples_out: [30, t < 600 ? 30 : t % 20 === 0 ? 250 : null] });

  it('over, missing, over, missing…: fails at its first scan over, 10:00', () => {
    const snapshot = engineOf({}, every(10, 0, 1200, loose));
    expect(snapshot.failures).toEqual([
      { criterion: 'I_max', time: 600, interval_from: null, thermo_id: 2, type_name: 'Tśr i Tmax' },
    ]);
    // I at 10:00 → 10 completed minutes.
    expect(snapshot.criteria.I).toMatchObject({ time: 600, minutes: 10, reached: true });
  });

  it('over, missing, over fails at the first scan, not one scan late', () => {
    const frames = [
      { time: 590, thermocouples_out: [30, 30] },
      { time: 600, thermocouples_out: [30, 250] },
      { time: 610, thermocouples_out: [30, null] },
      { time: 620, thermocouples_out: [30, 250] },
    ];
    expect(engineOf({}, frames).failures.map((f) => f.time)).toEqual([600]);
  });

  it('a thermocouple silent for over 60 s that comes back over the limit failed somewhere in the silence: the interval (last valid scan, first over]', () => {
    const frames = every(10, 0, 1000, (t) => ({ thermocouples_out: [30, t <= 500 ? 30 : t < 700 ? null : 250] }));
    const snapshot = engineOf({}, frames);
    expect(snapshot.failures).toEqual([
      { criterion: 'I_max', time: 700, interval_from: 500, thermo_id: 2, type_name: 'Tśr i Tmax' },
    ]);
    // The class counts from 500 s (8:20): 8 completed minutes.
    expect(snapshot.criteria.I).toMatchObject({ time: 700, minutes: 8 });
  });
});

describe('every period of d_e outside its tolerance is kept (EN 1363-1 §5.1.2)', () => {
  // pk = 1.20·ISO 834 to 12:00, then 0.80·ISO 834; frames every 10 s from t = 0. The expected d_e is worked
  // out the way a lab's spreadsheet does: trapezoids of pk and of the curve from t = 0, d_e = (A − A_s)/A_s,
  // and the tolerance of §5.1.2 written out below.
  const pk = (t: number) => (t <= 720 ? 1.2 : 0.8) * iso834(t);
  const tolerance = (t: number) => {
    const m = t / 60;
    return m <= 5 ? null : m <= 10 ? 15 : m <= 30 ? 15 - 0.5 * (m - 10) : m <= 60 ? 5 - 0.083 * (m - 30) : 2.5;
  };
  const end = 90 * 60;
  const expected: { from: number; to: number; worst: number; worstTol: number; worstTime: number }[] = [];
  let a = 0;
  let as = 0;
  let outside = false;
  for (let t = 10; t <= end; t += 10) {
    a += ((pk(t - 10) + pk(t)) / 2) * 10;
    as += ((iso834(t - 10) + iso834(t)) / 2) * 10;
    const dE = ((a - as) / as) * 100;
    const tol = tolerance(t);
    if (tol === null || Math.abs(dE) <= tol) {
      outside = false;
      continue;
    }
    const last = expected[expected.length - 1];
    if (outside && last) {
      last.to = t;
      if (Math.abs(dE) - tol > Math.abs(last.worst) - last.worstTol)
        Object.assign(last, { worst: dE, worstTol: tol, worstTime: t });
    } else {
      expected.push({ from: t, to: t, worst: dE, worstTol: tol, worstTime: t });
    }
    outside = true;
  }

  it('two periods: too hot from 5:10, too cold later; the verdict stays "outside" though d_e is back within at times', () => {
    const snapshot = engineOf(
      {},
      every(10, 0, end, (t) => ({ pk: pk(t), thermocouples_out: [30, 30] })),
    );
    // The construction gives two periods: +20 % from the first judged frame after 5:00, and a cold one at the end.
    expect(expected).toHaveLength(2);
    expect(expected[0]).toMatchObject({ from: 310 });
    expect(expected[0]!.worst).toBeCloseTo(20, 9);
    expect(snapshot.deviation.conforming).toBe(false);
    expect(snapshot.deviation.periods.map((p) => [p.from, p.to, p.open, p.worst_time])).toEqual([
      [expected[0]!.from, expected[0]!.to, false, expected[0]!.worstTime],
      [expected[1]!.from, expected[1]!.to, true, expected[1]!.worstTime],
    ]);
    snapshot.deviation.periods.forEach((p, i) => {
      expect(p.worst).toBeCloseTo(expected[i]!.worst, 9);
      expect(p.worst_tolerance).toBeCloseTo(expected[i]!.worstTol, 9);
    });
  });

  it('a breach long ago is still reported when d_e is back within its tolerance now', () => {
    // To 16:00 the first part of the same test; its first period ends before, and d_e is within at 16:00.
    const snapshot = engineOf(
      {},
      every(10, 0, 960, (t) => ({ pk: pk(t), thermocouples_out: [30, 30] })),
    );
    expect(snapshot.deviation.ok).toBe(true);
    expect(snapshot.deviation.conforming).toBe(false);
    expect(snapshot.deviation.periods).toHaveLength(1);
    expect(snapshot.deviation.periods[0]).toMatchObject({ from: 310, to: expected[0]!.to, open: false });
  });

  it('a furnace within its tolerance throughout conforms', () => {
    const snapshot = engineOf(
      {},
      every(10, 0, end, (t) => ({ pk: 1.02 * iso834(t), thermocouples_out: [30, 30] })),
    );
    expect(snapshot.deviation).toMatchObject({ periods: [], conforming: true, ok: true });
  });
});

describe('d_e from t = 0 when the first frame comes after ignition', () => {
  // ISO 834 at 1 min: 345·log10(9) + 20 = 349.2138 °C; at 0: 20 °C.
  // A_s(60 s) = (20 + 349.2138)/2 · 60 = 11 076.41 K·s.
  it('the furnace at t = 0 is its last reading before ignition: 25 °C gives A − A_s = (25 − 20)/2 · 60 = 150 K·s, d_e = +1.354 %', () => {
    const snapshot = engineOf({}, [
      { time: -10, pk: 25, thermocouples_out: [20, 20] },
      { time: 60, pk: iso834(60), thermocouples_out: [20, 20] },
    ]);
    expect(snapshot.deviation.d_e!.toFixed(3)).toBe('1.354');
  });

  it("without a reading before ignition the furnace starts at the curve's 20 °C: d_e = 0 for a furnace on the curve", () => {
    const snapshot = engineOf({}, [{ time: 60, pk: iso834(60), thermocouples_out: [20, 20] }]);
    expect(snapshot.deviation.d_e).toBeCloseTo(0, 12);
  });
});

describe('the furnace pressure is judged (EN 1363-1 §5.2.2: ±5 Pa from 5 min, ±3 Pa from 10 min)', () => {
  const profile: TestProfile = { ...DEFAULT_TEST_PROFILE, pressure_target_pa: 20 };
  // Every 10 s: 20 Pa, except 28 Pa at 4:00 (before 5 min: not judged), 27 Pa 8:00–8:30 with 8:10 missing
  // (+7 > 5), 24 Pa at 9:00 (+4 ≤ 5: within), 24 Pa 12:00–12:20 (+4 > 3), 17.5 Pa at 12:30 (−2.5: within),
  // 16 Pa at 15:00 (−4 > 3, the last frame: still outside).
  const pressure = (t: number): number | null => {
    if (t === 240) return 28;
    if (t === 490) return null;
    if (t >= 480 && t <= 510) return 27;
    if (t === 540) return 24;
    if (t >= 720 && t <= 740) return 24;
    if (t === 750) return 17.5;
    if (t === 900) return 16;
    return 20;
  };

  it('three periods, the last one open; the worst deviation against its tolerance', () => {
    const snapshot = engineOf(
      { profile },
      every(10, 0, 900, (t) => ({ pressure: pressure(t), thermocouples_out: [30, 30] })),
    );
    expect(snapshot.pressure).toEqual({
      target: 20,
      value: 16,
      tolerance: 3,
      ok: false,
      conforming: false,
      periods: [
        { from: 480, to: 510, open: false, worst: 7, worst_tolerance: 5, worst_time: 480 },
        { from: 720, to: 740, open: false, worst: 4, worst_tolerance: 3, worst_time: 720 },
        { from: 900, to: 900, open: true, worst: -4, worst_tolerance: 3, worst_time: 900 },
      ],
    });
  });

  it('no target in the profile: not judged', () => {
    expect(
      engineOf(
        {},
        every(10, 0, 900, (t) => ({ pressure: pressure(t), thermocouples_out: [30, 30] })),
      ).pressure,
    ).toBeNull();
  });
});

describe('a criterion nobody measured is "not measured", never "held"', () => {
  it('no thermocouple counts for insulation: I not measured, no EI in the class, W neither measured nor deemed', () => {
    const markers = [{ thermo_id: 1, type_name: 'T' }];
    const snapshot = engineOf(
      { markers },
      every(10, 0, 61 * 60, () => ({ thermocouples_out: [30] })),
    );
    expect(snapshot.criteria.I).toEqual({
      time: null,
      minutes: null,
      reached: false,
      held_minutes: null,
      measured: false,
      deemed: false,
    });
    expect(snapshot.criteria.W).toMatchObject({ minutes: null, measured: false, deemed: false });
    expect(snapshot.classification).toBe('E 60');
  });

  // EN 13501-2 (the W criterion): an element that satisfies I is deemed to satisfy W for the same time.
  it("no radiometer: W is deemed met while I holds — I's minutes, and no EW beside the EI it follows from", () => {
    const frames = every(10, 0, 50 * 60, (t) => ({ thermocouples_out: [30, t >= 2000 ? 250 : 30] }));
    const snapshot = engineOf({}, frames);
    // I at 2000 s = 33:20 → 33 completed minutes.
    expect(snapshot.criteria.I).toMatchObject({ time: 2000, minutes: 33, measured: true });
    expect(snapshot.criteria.W).toMatchObject({ minutes: 33, measured: false, deemed: true, reached: false });
    expect(snapshot.classification).toBe('E 45, EI 30');
  });
});

describe('integrity after the first insulation failure (EN 1363-1 §11.2)', () => {
  // I fails at 30:00 (thermocouple 2 at 250 °C from then on).
  const frames = () => every(10, 0, 60 * 60, (t) => ({ thermocouples_out: [30, t >= 1800 ? 250 : 30] }));

  it('a cotton pad after it does not end E; the test held E to its end', () => {
    const snapshot = engineOf({ observations: [observation(2400, 'cotton_pad')] }, frames());
    expect(snapshot.criteria.E).toMatchObject({ time: null, minutes: 60, reached: false });
    expect(snapshot.classification).toBe('E 60, EI 30');
  });

  it('a gap gauge or sustained flaming after it still ends E', () => {
    for (const kind of ['gap_6mm', 'gap_25mm', 'sustained_flaming'] as const) {
      const snapshot = engineOf({ observations: [observation(2400, 'cotton_pad'), observation(2700, kind)] }, frames());
      expect([kind, snapshot.criteria.E.time, snapshot.criteria.E.minutes]).toEqual([kind, 2700, 45]);
    }
  });

  it('a cotton pad before it ends E (and caps I)', () => {
    const snapshot = engineOf({ observations: [observation(1500, 'cotton_pad')] }, frames());
    expect(snapshot.criteria.E).toMatchObject({ time: 1500, minutes: 25 });
    expect(snapshot.criteria.I).toMatchObject({ minutes: 25 });
    expect(snapshot.classification).toBe('E 20, EI 20');
  });
});

describe('the class of the element, from its own lists', () => {
  const frames = () =>
    every(10, 0, 50 * 60, (t) => ({ thermocouples_out: [30, t >= 47 * 60 ? 250 : 30], radiance: 1 }));

  it('a non-loadbearing wall (EN 1364-1) held 50 min with I failing at 47:00: "E 30, EI 45, EW 30" — no E 45 or EW 45 for a wall', () => {
    const profile: TestProfile = { ...DEFAULT_TEST_PROFILE, standard: 'EN_1364_1' };
    expect(engineOf({ profile }, frames()).classification).toBe('E 30, EI 45, EW 30');
  });

  it('a door (EN 1634-1, I2): "E 45, EI2 45, EW 30"', () => {
    const profile: TestProfile = { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1', insulation: 'I2' };
    expect(engineOf({ profile }, frames()).classification).toBe('E 45, EI2 45, EW 30');
  });

  it('DIN 4102-5: "T 30", in that standard\'s own terms', () => {
    const profile: TestProfile = { ...DEFAULT_TEST_PROFILE, standard: 'DIN_4102_5' };
    expect(engineOf({ profile }, frames()).classification).toBe('T 30');
  });
});

describe("the engine trusts no input outside the DAQ contract's bounds", () => {
  it('a thermocouple reading 5000 °C is a fault, not a failure; a furnace reading of 10⁶ °C adds no area', () => {
    const frames = every(10, 0, 600, (t) => ({
      pk: t === 300 ? 1e6 : iso834(t),
      thermocouples_out: [30, t >= 300 ? 5000 : 30],
    }));
    const snapshot = engineOf({}, frames);
    expect(snapshot.failures).toEqual([]);
    expect(snapshot.suspects.filter((s) => s.reason === 'fault')).toEqual([
      { thermo_id: 2, reason: 'fault', time: 300 },
    ]);
    expect(snapshot.categories[0]).toMatchObject({ valid: 1, max: 30 });
    // The frame at 5:00 without its pk: one trapezoid of 20 s spans the gap, so d_e stays within 0.1 %.
    expect(Math.abs(snapshot.deviation.d_e!)).toBeLessThan(0.1);
  });
});

describe('a door judged for I1 and I2 at once (EN 1634-1 §13.2: each class on the thermocouples of its zone)', () => {
  // T0 = 20 °C by hand. I1: leaf 180 K (200 °C), frame 180 K (200 °C); I2: leaf 180 K, frame 360 K (380 °C).
  // T3 ('Tmax', zone I1, 25 mm from the edge) reads 250 °C from 30:00; T4 ('Tmax', zone I2) from 60:00;
  // T5 (frame, zone I1) 250 °C from 45:00 (over I1's 200 °C); T6 (frame, zone I2) 250 °C from 45:00 (under
  // I2's 380 °C). A 25 mm gap at 92:00 ends E; radiation 1 kW/m² throughout; the test ends at 95:00.
  const profile: TestProfile = { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1', insulation: 'I2' };
  const markers = [
    { thermo_id: 1, type_name: 'Tśr i Tmax' },
    { thermo_id: 2, type_name: 'Tśr i Tmax' },
    { thermo_id: 3, type_name: 'Tmax', zone: 'I1' as const },
    { thermo_id: 4, type_name: 'Tmax', zone: 'I2' as const },
    { thermo_id: 5, type_name: 'Tmax ościeżnicy', zone: 'I1' as const },
    { thermo_id: 6, type_name: 'Tmax ościeżnicy', zone: 'I2' as const },
  ];
  const frames = () =>
    every(10, 0, 95 * 60, (t) => ({
      radiance: 1,
      thermocouples_out: [
        30,
        30,
        t >= 1800 ? 250 : 30,
        t >= 3600 ? 250 : 30,
        t >= 2700 ? 250 : 30,
        t >= 2700 ? 250 : 30,
      ],
    }));

  it('"E 90, EI1 30, EI2 60, EW 60": each class from its own thermocouples and frame limit', () => {
    const snapshot = engineOf({ profile, markers, observations: [observation(92 * 60, 'gap_25mm')] }, frames());
    expect(snapshot.failures.map((f) => [f.criterion, f.thermo_id, f.time, f.insulation_class])).toEqual([
      ['I_max', 3, 1800, 'I1'],
      ['I_frame', 5, 2700, 'I1'],
      ['I_max', 4, 3600, 'I2'],
    ]);
    expect(snapshot.insulation_classes?.I1).toMatchObject({ time: 1800, minutes: 30, reached: true });
    expect(snapshot.insulation_classes?.I2).toMatchObject({ time: 3600, minutes: 60, reached: true });
    // I is the profile's own class, I2.
    expect(snapshot.criteria.I).toMatchObject({ time: 3600, minutes: 60 });
    // E 92 → 90 (a door's E list), EI1 30, EI2 60, EW 92 → 60 (a door's EW list: 20, 30, 60).
    expect(snapshot.classification).toBe('E 90, EI1 30, EI2 60, EW 60');
  });

  it("without zones a door is judged for its profile's class only, every thermocouple counting", () => {
    const plain = markers.map(({ thermo_id, type_name }) => ({ thermo_id, type_name }));
    const snapshot = engineOf({ profile, markers: plain, observations: [observation(92 * 60, 'gap_25mm')] }, frames());
    expect(snapshot.insulation_classes).toBeNull();
    // T3 over 200 °C at 30:00 counts for I2's leaf maximum too.
    expect(snapshot.criteria.I).toMatchObject({ time: 1800, minutes: 30 });
    expect(snapshot.classification).toBe('E 90, EI2 30, EW 60');
  });
});
