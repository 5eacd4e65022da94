import { iso834 } from '@furnace/contracts';
import { CriteriaEngine } from './engine';
import { DEFAULT_TEST_PROFILE } from './profiles';
import type { CriteriaEngineInput, CriteriaFrame, Observation, TestProfile } from '@furnace/contracts';

/*
 * A synthetic door test (EN 1634-1, I2, rise basis) with known answers:
 * - thermocouples 1–5 'Tśr i Tmax' read 20.1…20.5 °C in the minute before ignition (30 °C before that,
 *   which must not count): T0 = 20.3 °C; after ignition each rises 2 K/min from its own start;
 * - thermocouple 2 breaks at 30:00 (null + fault), thermocouple 3 is excluded from 40:00;
 * - thermocouple 6 'Tmax' rises so that it passes T0 + 180 K = 200.3 °C at 47:08: the first scan over the
 *   limit is 47:10; a one-scan spike to 400 °C at 20:00 is an excursion (and a jump);
 * - thermocouple 7 'Tmax ościeżnicy' stays far below 360 K; thermocouple 8 'T' never moves (stuck);
 * - pk = 1.02·ISO 834 (d_e = +2.00 %); radiation 2 kW/m²; cotton pad ignites at 63:40; stop at 66:00.
 * Frames every 5 s.
 */
const STEP = 5;
const T0 = 20.3;
const door: TestProfile = { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1', insulation: 'I2' };
const markers = [
  ...[1, 2, 3, 4, 5].map((thermo_id) => ({ thermo_id, type_name: 'Tśr i Tmax' })),
  { thermo_id: 6, type_name: 'Tmax' },
  { thermo_id: 7, type_name: 'Tmax ościeżnicy' },
  { thermo_id: 8, type_name: 'T' },
];
const observations: Observation[] = [
  { id: 'o1', time: 63 * 60 + 40, kind: 'cotton_pad', note: null, visible_to_clients: true },
  { id: 'o2', time: 66 * 60, kind: 'test_stopped', note: null, visible_to_clients: true },
];
const exclusions = [{ id: 'x1', thermo_id: 3, from_time: 40 * 60, reason: 'detached' }];

function frameAt(time: number): CriteriaFrame {
  const minutes = Math.max(0, time) / 60;
  const face = [1, 2, 3, 4, 5].map((j) => (time < -60 ? 30 : 20 + 0.1 * j + 2 * minutes));
  const broken = time >= 30 * 60;
  if (broken) face[1] = null as unknown as number;
  const tmax = time === 20 * 60 ? 400 : T0 + (180 * Math.max(0, time)) / 2828;
  return {
    time,
    pk: time < 0 ? 20 : 1.02 * iso834(time),
    radiance: 2,
    thermocouples_out: [...face, tmax, 25 + 0.5 * minutes, 20],
    ...(broken ? { faults: [2] } : {}),
  };
}

function run(until: number, input: Partial<CriteriaEngineInput> = {}) {
  const engine = new CriteriaEngine({ profile: door, markers, exclusions, observations, ...input });
  for (let t = -120; t <= until; t += STEP) engine.push(frameAt(t));
  return engine;
}

describe('CriteriaEngine on a synthetic door test', () => {
  const end = run(66 * 60, { ended: true }).snapshot();

  it('T0 from the minute before ignition, limits as rises above it', () => {
    expect(end.t0).toBeCloseTo(T0, 10);
    expect(end.t0_source).toBe('auto');
    expect(end.basis).toBe('rise');
    expect(end.limits.max?.text).toBe('T0 + 180 K = 200.3 °C');
    expect(end.limits.mean?.text).toBe('T0 + 140 K = 160.3 °C');
    expect(end.limits.frame?.text).toBe('T0 + 360 K = 380.3 °C');
    expect(end.limits.max?.k).toBe(180);
  });

  it('failures, excursions and the classification', () => {
    expect(end.failures).toEqual([
      { criterion: 'I_max', time: 47 * 60 + 10, interval_from: null, thermo_id: 6, type_name: 'Tmax' },
    ]);
    expect(end.excursions).toEqual([{ criterion: 'I_max', time: 20 * 60, thermo_id: 6 }]);
    // The cotton pad at 63:40 came after the insulation failure at 47:10: EN 1363-1 §11.2 no longer applies
    // it then, so E holds to the stop at 66:00.
    expect(end.criteria.E).toEqual({
      time: null,
      minutes: 66,
      reached: false,
      held_minutes: 66,
      measured: true,
      deemed: false,
    });
    expect(end.criteria.I).toEqual({
      time: 47 * 60 + 10,
      minutes: 47,
      reached: true,
      held_minutes: 47,
      measured: true,
      deemed: false,
    });
    expect(end.criteria.W).toEqual({
      time: null,
      minutes: 66,
      reached: false,
      held_minutes: 66,
      measured: true,
      deemed: false,
    });
    // EN 1634-1 door, insulation I2: EI2; E 66 → 60 and EW 66 → 60 from the door's lists (EN 13501-2 §7.5.5).
    expect(end.classification).toBe('E 60, EI2 45, EW 60');
    expect(end.forecast).toEqual([]);
  });

  it('category max and mean over the valid thermocouples only', () => {
    const face = end.categories.find((c) => c.type_name === 'Tśr i Tmax')!;
    // 1, 4, 5 remain (2 broken, 3 excluded): starts 20.1, 20.4, 20.5, then +132 K.
    expect(face.valid).toBe(3);
    expect(face.thermocouples).toBe(5);
    expect(face.mean).toBeCloseTo((20.1 + 20.4 + 20.5) / 3 + 132, 10);
    expect(face.max).toBeCloseTo(20.5 + 132, 10);
    expect(face.mean_rise).toBeCloseTo((20.1 + 20.4 + 20.5) / 3 + 132 - T0, 10);
    expect(face.role).toEqual({ mean: true, max: true, frame: false });
    expect(end.excluded).toEqual([3]);
  });

  it('d_e of 1.02·ISO is +2.00 %, inside 2.5 % at 66 min', () => {
    expect(end.deviation.d_e?.toFixed(2)).toBe('2.00');
    expect(end.deviation.tolerance).toBe(2.5);
    expect(end.deviation.ok).toBe(true);
  });

  it('suspects: the spike, the broken channel, the one that never moves', () => {
    expect(end.suspects).toEqual(
      expect.arrayContaining([
        { thermo_id: 6, reason: 'jump', time: 20 * 60 },
        { thermo_id: 2, reason: 'fault', time: 30 * 60 },
        { thermo_id: 8, reason: 'stuck', time: 120 },
      ]),
    );
    expect(end.suspects).toHaveLength(3);
  });

  it('live at 50:00: the time each criterion has held so far, and the class so far', () => {
    const live = run(50 * 60).snapshot();
    expect(live.elapsed).toBe(3000);
    expect(live.criteria.E).toEqual({
      time: null,
      minutes: null,
      reached: false,
      held_minutes: 50,
      measured: true,
      deemed: false,
    });
    expect(live.criteria.I).toEqual({
      time: 2830,
      minutes: 47,
      reached: true,
      held_minutes: 47,
      measured: true,
      deemed: false,
    });
    expect(live.criteria.W.held_minutes).toBe(50);
    expect(live.classification).toBe('E 45, EI2 45, EW 30');
  });

  it('forecast: the mean at 2 K/min reaches T0 + 140 K within 15 minutes', () => {
    const live = run(60 * 60).snapshot();
    // mean at 60:00 = 20.333… + 120 → (160.3 − 140.333…) / (2 K/min) = 9.98 min
    const mean = (20.1 + 20.4 + 20.5) / 3 + 120;
    expect(live.forecast).toHaveLength(1);
    expect(live.forecast[0]!.criterion).toBe('I_mean');
    expect(live.forecast[0]!.rate_k_per_min).toBeCloseTo(2, 6);
    expect(live.forecast[0]!.eta_s).toBeCloseTo(((T0 + 140 - mean) / 2) * 60, 3);
    expect(live.forecast[0]!.at_s).toBeCloseTo(3600 + ((T0 + 140 - mean) / 2) * 60, 3);
  });

  it('an exclusion from before the failure moves it to the next thermocouple', () => {
    const snapshot = run(66 * 60, {
      ended: true,
      exclusions: [{ id: 'x', thermo_id: 6, from_time: 0, reason: 'off the face' }],
    }).snapshot();
    expect(snapshot.failures).toEqual([]);
    expect(snapshot.criteria.I).toEqual({
      time: null,
      minutes: 63,
      reached: false,
      held_minutes: 63,
      measured: true,
      deemed: false,
    });
    expect(snapshot.classification).toBe('E 60, EI2 60, EW 60');
  });

  it('the absolute basis compares with the spec numbers as °C: the failure comes earlier', () => {
    const snapshot = run(66 * 60, { ended: true, profile: { ...door, criteria_basis: 'absolute' } }).snapshot();
    expect(snapshot.limits.max).toEqual({ k: null, c: 180, text: '180 °C' });
    // T0 + 180·t/2828 > 180 first at t = 2828·(180 − 20.3)/180 = 2509.1 s → the scan at 2510 s
    expect(snapshot.failures[0]).toMatchObject({ criterion: 'I_max', time: 2510, thermo_id: 6 });
    expect(snapshot.classification).toBe('E 60, EI2 30, EW 60');
  });

  it('an observation added live moves E at once; what follows the stop does not count', () => {
    const engine = run(50 * 60, { observations: [] });
    expect(engine.snapshot().criteria.E.held_minutes).toBe(50);
    engine.setObservations([
      { id: 'o', time: 45 * 60 + 30, kind: 'sustained_flaming', note: null, visible_to_clients: false },
    ]);
    expect(engine.snapshot().criteria.E).toEqual({
      time: 2730,
      minutes: 45,
      reached: true,
      held_minutes: 45,
      measured: true,
      deemed: false,
    });
    expect(engine.snapshot().classification).toBe('E 45, EI2 45, EW 30');

    // Stopped at 40:00: the failure at 47:10 came after the stop.
    engine.setObservations([{ id: 's', time: 40 * 60, kind: 'test_stopped', note: null, visible_to_clients: true }]);
    const stopped = engine.snapshot();
    expect(stopped.failures).toEqual([]);
    expect(stopped.criteria.I).toEqual({
      time: null,
      minutes: null,
      reached: false,
      held_minutes: 40,
      measured: true,
      deemed: false,
    });
    expect(stopped.classification).toBe('E 30, EI2 30, EW 30');
    expect(stopped.forecast).toEqual([]);
    // d_e as it was at the stop (1.02·ISO: +2.00 %, tolerance at 40:00 = 5 − 0.083·10 %).
    expect(stopped.deviation.d_e?.toFixed(2)).toBe('2.00');
    expect(stopped.deviation.tolerance).toBeCloseTo(5 - 0.83, 10);
  });

  it('a T0 override wins', () => {
    const snapshot = run(60, { t0_override: 18 }).snapshot();
    expect(snapshot.t0).toBe(18);
    expect(snapshot.t0_source).toBe('override');
    expect(snapshot.limits.max?.text).toBe('T0 + 180 K = 198.0 °C');
  });
});

describe('CriteriaEngine details', () => {
  const face = [
    { thermo_id: 1, type_name: 'Tśr i Tmax' },
    { thermo_id: 2, type_name: 'Tśr i Tmax' },
  ];

  it('before any frame: nothing known', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face });
    const snapshot = engine.snapshot();
    expect(snapshot.t0).toBeNull();
    expect(snapshot.elapsed).toBeNull();
    expect(snapshot.classification).toBeNull();
    expect(snapshot.limits.max).toBeNull();
    expect(snapshot.deviation).toEqual({ d_e: null, tolerance: null, ok: null, periods: [], conforming: null });

    // Before ignition: T0 taking shape, no class yet.
    engine.push({ time: -20, thermocouples_out: [20, 21] });
    expect(engine.snapshot()).toMatchObject({ t0: 20.5, t0_source: 'auto', elapsed: -20, classification: null });
    expect(engine.snapshot().categories[0]).toMatchObject({ max: 21, mean: 20.5, max_rise: 0.5 });
  });

  it('without frames before ignition T0 is the first frame; older and repeated frames are ignored', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face });
    engine.push({ time: -4000, thermocouples_out: [100, 100] });
    engine.push({ time: 0, thermocouples_out: [19, 21] });
    engine.push({ time: 0, thermocouples_out: [500, 500] });
    engine.push({ time: 5, thermocouples_out: [30, 30] });
    const snapshot = engine.snapshot();
    expect(snapshot.t0).toBe(20);
    expect(snapshot.t0_source).toBe('first_frame');
    expect(snapshot.elapsed).toBe(5);
  });

  it('forecast of the hottest thermocouple on a 4 K/min ramp: shown from 15 minutes before the limit', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, t0_override: 20 });
    const at = (minutes: number) => {
      for (let t = engine.snapshot().elapsed === null ? 0 : engine.snapshot().elapsed! + 1; t <= minutes * 60; t += 1) {
        engine.push({ time: t, thermocouples_out: [20, 20 + (4 * t) / 60] });
      }
      return engine.snapshot().forecast;
    };
    // T0 + 180 K = 200 °C is reached at 45:00.
    expect(at(29)).toEqual([]); // 16 min away
    const forecast = at(35);
    expect(forecast).toHaveLength(1);
    expect(forecast[0]!.criterion).toBe('I_max');
    expect(forecast[0]!.rate_k_per_min).toBeCloseTo(4, 9);
    expect(forecast[0]!.eta_s).toBeCloseTo(600, 6);
    expect(forecast[0]!.at_s).toBeCloseTo(45 * 60, 6);
    expect(at(50)).toEqual([]); // failed at 45:01
  });

  it('a thermocouple marked twice in a type counts once; one listed under two types counts in both', () => {
    const markers = [...face, { thermo_id: 2, type_name: 'Tśr i Tmax' }, { thermo_id: 2, type_name: 'Tmax' }];
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers, t0_override: 20 });
    engine.push({ time: 60, thermocouples_out: [30, 250], faults: [] });
    engine.push({ time: 65, thermocouples_out: [30, 250, 99] });
    const snapshot = engine.snapshot();
    expect(snapshot.categories).toMatchObject([
      { type_name: 'Tśr i Tmax', thermocouples: 2, valid: 2, mean: 140, max: 250 },
      { type_name: 'Tmax', thermocouples: 1, valid: 1, mean: 250, max: 250 },
    ]);
    expect(snapshot.failures.map((f) => [f.criterion, f.type_name, f.thermo_id])).toEqual([
      ['I_max', 'Tśr i Tmax', 2],
      ['I_max', 'Tmax', 2],
    ]);
  });

  it('d_e is the value at the stop, however late the stop is recorded', () => {
    const stop: Observation = { id: 's', time: 1200, kind: 'test_stopped', note: null, visible_to_clients: true };
    const push = (engine: CriteriaEngine) => {
      // The furnace is switched off at 20:00.
      for (let t = 0; t <= 1800; t += 10)
        engine.push({ time: t, pk: t <= 1200 ? 1.05 * iso834(t) : 100, thermocouples_out: [20, 20] });
      return engine;
    };
    const known = push(new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, observations: [stop] }));
    const late = push(new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face }));
    expect(late.snapshot().deviation.d_e!).toBeLessThan(0);
    late.setObservations([stop]);
    for (const engine of [known, late]) {
      expect(engine.snapshot().deviation.d_e?.toFixed(2)).toBe('5.00');
      expect(engine.snapshot().deviation).toMatchObject({ tolerance: 10, ok: true });
    }
  });

  it('a reading exactly at the limit does not exceed it', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, t0_override: 20, ended: true });
    // max exactly T0 + 180 K = 200 °C, mean exactly T0 + 140 K = 160 °C
    for (const t of [60, 65, 70]) engine.push({ time: t, thermocouples_out: [120, 200] });
    expect(engine.snapshot().failures).toEqual([]);
    for (const t of [75, 80]) engine.push({ time: t, thermocouples_out: [120.2, 200.1] });
    expect(engine.snapshot().failures.map((f) => [f.criterion, f.time])).toEqual([
      ['I_max', 75],
      ['I_mean', 75],
    ]);
  });

  it('a thermocouple excluded from ignition on is left out of T0 as well', () => {
    const exclusions = [{ id: 'x', thermo_id: 2, from_time: 0, reason: 'never attached' }];
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, exclusions });
    engine.push({ time: -30, thermocouples_out: [20, 80] });
    engine.push({ time: 0, thermocouples_out: [20, 80] });
    expect(engine.snapshot().t0).toBe(20);
  });

  it('a gap over 60 s makes the failure an interval; the class counts from its start', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, ended: true });
    engine.push({ time: -10, thermocouples_out: [20, 20] });
    for (let t = 0; t <= 1790; t += 10) engine.push({ time: t, thermocouples_out: [30, 30] });
    engine.push({ time: 1900, thermocouples_out: [30, 250] });
    engine.push({ time: 1910, thermocouples_out: [30, 250] });
    const snapshot = engine.snapshot();
    expect(snapshot.failures).toEqual([
      { criterion: 'I_max', time: 1900, interval_from: 1790, thermo_id: 2, type_name: 'Tśr i Tmax' },
    ]);
    expect(snapshot.criteria.I).toEqual({
      time: 1900,
      minutes: 29,
      reached: true,
      held_minutes: 29,
      measured: true,
      deemed: false,
    });
    // No radiation reading in this test: no EW.
    expect(snapshot.classification).toBe('E 30, EI 20');
  });

  it('I is the earliest failure; the class counts from the earliest time it is known to have held to', () => {
    const markers = [...face, { thermo_id: 3, type_name: 'Tmax' }];
    const stop: Observation = { id: 's', time: 2400, kind: 'test_stopped', note: null, visible_to_clients: true };
    const late: Observation = { id: 'e', time: 2500, kind: 'cotton_pad', note: null, visible_to_clients: true };
    const engine = new CriteriaEngine({
      profile: DEFAULT_TEST_PROFILE,
      markers,
      t0_override: 20,
      ended: true,
      observations: [stop, late],
    });
    for (let t = 0; t <= 1790; t += 10) engine.push({ time: t, thermocouples_out: [30, 30, 30] });
    // After a gap: thermocouple 2 ('Tśr i Tmax') over from 1900, in (1790, 1900]; thermocouple 3 ('Tmax') at 1930.
    for (let t = 1900; t <= 2600; t += 10) engine.push({ time: t, thermocouples_out: [30, 250, t >= 1930 ? 250 : 30] });
    const snapshot = engine.snapshot();
    expect(snapshot.failures.map((f) => [f.type_name, f.time, f.interval_from])).toEqual([
      ['Tśr i Tmax', 1900, 1790],
      ['Tmax', 1930, null],
    ]);
    expect(snapshot.criteria.I).toEqual({
      time: 1900,
      minutes: 29,
      reached: true,
      held_minutes: 29,
      measured: true,
      deemed: false,
    });
    // The cotton pad at 41:40 came after the stop at 40:00: E held to the stop.
    expect(snapshot.criteria.E).toEqual({
      time: null,
      minutes: 40,
      reached: false,
      held_minutes: 40,
      measured: true,
      deemed: false,
    });
  });

  it('a failure at the first frame after a late start is an interval from ignition', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face, t0_override: 20 });
    engine.push({ time: 90, thermocouples_out: [30, 250] });
    engine.push({ time: 95, thermocouples_out: [30, 250] });
    expect(engine.snapshot().failures[0]).toMatchObject({ time: 90, interval_from: 0, thermo_id: 2 });
  });

  it('a single scan over the limit in the last frame of an ended test is an excursion', () => {
    const input = { profile: DEFAULT_TEST_PROFILE, markers: face, t0_override: 20 };
    for (const ended of [false, true]) {
      const engine = new CriteriaEngine({ ...input, ended });
      engine.push({ time: 60, thermocouples_out: [30, 30] });
      engine.push({ time: 65, thermocouples_out: [30, 250] });
      expect(engine.snapshot().excursions).toEqual(ended ? [{ criterion: 'I_max', time: 65, thermo_id: 2 }] : []);
      expect(engine.snapshot().failures).toEqual([]);
    }
  });

  it('W: radiation over 15 kW/m² for two scans', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face });
    const radiance = [1, 16, 2, 15, 15.5, 16];
    radiance.forEach((r, i) => engine.push({ time: 600 * (i + 1), radiance: r, thermocouples_out: [20, 20] }));
    const snapshot = engine.snapshot();
    expect(snapshot.failures).toEqual([
      { criterion: 'W', time: 3000, interval_from: 2400, thermo_id: null, type_name: null },
    ]);
    expect(snapshot.excursions).toEqual([{ criterion: 'W', time: 1200, thermo_id: null }]);
  });

  it('the mean fails on the category mean, not on one thermocouple', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face });
    engine.push({ time: -1, thermocouples_out: [20, 20] });
    // one at T0 + 170 K, the other at T0 + 100 K: mean rise 135 K → no failure; then 150 K twice → failure
    engine.push({ time: 60, thermocouples_out: [190, 120] });
    engine.push({ time: 65, thermocouples_out: [190, 120] });
    engine.push({ time: 70, thermocouples_out: [190, 150] });
    engine.push({ time: 75, thermocouples_out: [195, 150] });
    const snapshot = engine.snapshot();
    expect(snapshot.failures).toEqual([
      { criterion: 'I_mean', time: 70, interval_from: null, thermo_id: null, type_name: 'Tśr i Tmax' },
    ]);
    expect(snapshot.categories[0]).toMatchObject({ max: 195, mean: 172.5, max_rise: 175, mean_rise: 152.5, valid: 2 });
  });

  it('a faulted channel is left out of the mean and the max, the rest of the frame is kept', () => {
    const engine = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: face });
    engine.push({ time: -1, thermocouples_out: [20, 20] });
    engine.push({ time: 10, pk: 400, thermocouples_out: [25, null], faults: [2] });
    const snapshot = engine.snapshot();
    expect(snapshot.categories[0]).toMatchObject({ max: 25, mean: 25, valid: 1, thermocouples: 2 });
    expect(snapshot.suspects).toEqual([{ thermo_id: 2, reason: 'fault', time: 10 }]);
  });

  it('I1 door: the frame limit is 180 K', () => {
    const engine = new CriteriaEngine({
      profile: { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1', insulation: 'I1' },
      markers: [...face, { thermo_id: 3, type_name: 'Tmax ościeżnicy' }],
    });
    engine.push({ time: -1, thermocouples_out: [20, 20, 20] });
    engine.push({ time: 60, thermocouples_out: [20, 20, 201] });
    engine.push({ time: 65, thermocouples_out: [20, 20, 201] });
    expect(engine.snapshot().failures).toEqual([
      { criterion: 'I_frame', time: 60, interval_from: null, thermo_id: 3, type_name: 'Tmax ościeżnicy' },
    ]);
  });
});
