import { seededRandom as random } from './testing/random';
import { iso834 } from '@furnace/contracts';
import { CRITERIA_STATE_VERSION, CriteriaEngine, type CriteriaEngineState } from './engine';
import { DEFAULT_TEST_PROFILE } from './profiles';
import type { CriteriaEngineInput, CriteriaFrame, Observation } from '@furnace/contracts';

/**
 * A messy random test: pre-ignition frames, thermocouples that rise, jump, stick, drop readings and
 * fault; gaps of over 60 s; a furnace around ISO 834; radiation that may pass 15 kW/m².
 */
function messyTest(seed: number): { input: CriteriaEngineInput; frames: CriteriaFrame[] } {
  const rnd = random(seed);
  const channels = 4 + Math.floor(rnd() * 12);
  const types = ['Tśr i Tmax', 'Tmax', 'Tmax ościeżnicy', 'T'];
  const markers = Array.from({ length: channels }, (_, i) => ({
    thermo_id: i + 1,
    type_name: types[Math.floor(rnd() * types.length)] as string,
  }));
  // One thermocouple counted under two types.
  markers.push({ thermo_id: 1, type_name: 'Tmax' });
  const exclusions =
    rnd() < 0.5
      ? []
      : [
          {
            id: 'x',
            thermo_id: 1 + Math.floor(rnd() * channels),
            from_time: Math.floor(rnd() * 3000) - 100,
            reason: 'loose',
          },
        ];
  const observations: Observation[] = [];
  if (rnd() < 0.5)
    observations.push({
      id: 'o1',
      time: Math.floor(rnd() * 4000),
      kind: 'cotton_pad',
      note: null,
      visible_to_clients: true,
    });
  if (rnd() < 0.3)
    observations.push({
      id: 'o2',
      time: Math.floor(rnd() * 4000),
      kind: 'test_stopped',
      note: null,
      visible_to_clients: true,
    });
  const input: CriteriaEngineInput = {
    profile: { ...DEFAULT_TEST_PROFILE, criteria_basis: rnd() < 0.7 ? 'rise' : 'absolute' },
    markers,
    exclusions,
    observations,
    t0_override: rnd() < 0.2 ? 18 + rnd() * 4 : null,
    ended: rnd() < 0.5,
  };
  const starts = Array.from({ length: channels }, () => 15 + 10 * rnd());
  const rates = Array.from({ length: channels }, () => 1 + 5 * rnd());
  const frames: CriteriaFrame[] = [];
  let t = -90 + Math.floor(rnd() * 30);
  const end = 1800 + Math.floor(rnd() * 3000);
  while (t <= end) {
    const values = starts.map((s, i) => {
      const r = rnd();
      if (r < 0.05) return null; // a missing reading
      if (r < 0.07) return s + 80 + ((rates[i] as number) * Math.max(0, t)) / 60; // a jump
      return s + ((rates[i] as number) * Math.max(0, t)) / 60 + rnd() * 2;
    });
    const faults = rnd() < 0.03 ? [1 + Math.floor(rnd() * channels)] : undefined;
    for (const f of faults ?? []) values[f - 1] = null;
    frames.push({
      time: t,
      pk: rnd() < 0.02 ? null : iso834(Math.max(0, t)) * (0.9 + 0.2 * rnd()),
      pressure: 10 + rnd(),
      radiance: rnd() < 0.1 ? null : (0.4 * Math.max(0, t)) / 60,
      thermocouples_out: values,
      ...(faults ? { faults } : {}),
    });
    // Mostly 1–10 s; now and then a gap of over a minute.
    t += rnd() < 0.02 ? 61 + Math.floor(rnd() * 120) : 1 + Math.floor(rnd() * 10);
  }
  return { input, frames };
}

describe.each(Array.from({ length: 16 }, (_, i) => 7000 + i))('an engine saved and restored (seed %i)', (seed) => {
  const { input, frames } = messyTest(seed);
  const full = new CriteriaEngine(input);
  for (const frame of frames) full.push(frame);
  const expected = full.snapshot();

  it('goes on exactly as one that never stopped, wherever it is saved, through JSON', () => {
    const rnd = random(seed + 1);
    const at = new Set(Array.from({ length: 5 }, () => Math.floor(rnd() * frames.length)));
    let engine = new CriteriaEngine(input);
    let restores = 0;
    for (const [i, frame] of frames.entries()) {
      engine.push(frame);
      if (at.has(i)) {
        const state = JSON.parse(JSON.stringify(engine.saveState())) as CriteriaEngineState;
        engine = CriteriaEngine.restore(input, state);
        restores += 1;
      }
    }
    expect(restores).toBeGreaterThan(0);
    expect(engine.snapshot()).toEqual(expected);
    expect(engine.lastFrameTime).toBe(frames[frames.length - 1]!.time);
  });

  it('goes on with an exclusion that starts after its newest frame as an engine given it from the start', () => {
    const rnd = random(seed + 2);
    const cut = 1 + Math.floor(rnd() * (frames.length - 2));
    const engine = new CriteriaEngine(input);
    for (const frame of frames.slice(0, cut)) engine.push(frame);
    const state = JSON.parse(JSON.stringify(engine.saveState())) as CriteriaEngineState;
    // A thermocouple excluded from a time after the state's newest frame (and after ignition), and an
    // exclusion the inputs had that now starts later or is gone.
    const newest = Math.max(0, frames[cut - 1]!.time);
    const later = newest + 1 + Math.floor(rnd() * 600);
    const thermo = input.markers[Math.floor(rnd() * input.markers.length)]!.thermo_id;
    const moved = (input.exclusions ?? [])
      .filter((e) => e.from_time > newest)
      .map((e) => ({ ...e, from_time: e.from_time + 100 }));
    const kept = (input.exclusions ?? []).filter((e) => e.from_time <= newest);
    const changed: CriteriaEngineInput = {
      ...input,
      exclusions: [...kept, ...moved, { id: 'late', thermo_id: thermo, from_time: later, reason: 'came loose' }],
    };
    const resumed = CriteriaEngine.restore(changed, state);
    for (const frame of frames.slice(cut)) resumed.push(frame);
    const fresh = new CriteriaEngine(changed);
    for (const frame of frames) fresh.push(frame);
    expect(resumed.snapshot()).toEqual(fresh.snapshot());
  });

  it('restored at the end gives the same snapshot, and the same for other observations and end', () => {
    const restored = CriteriaEngine.restore(input, JSON.parse(JSON.stringify(full.saveState())) as CriteriaEngineState);
    expect(restored.snapshot()).toEqual(expected);
    const observations: Observation[] = [
      { id: 'late', time: 100, kind: 'gap_6mm', note: null, visible_to_clients: false },
    ];
    restored.setObservations(observations);
    restored.setEnded(!input.ended);
    const fresh = new CriteriaEngine({ ...input, observations, ended: !input.ended });
    for (const frame of frames) fresh.push(frame);
    expect(restored.snapshot()).toEqual(fresh.snapshot());
  });
});

describe('a kept state that does not fit', () => {
  const { input, frames } = messyTest(42);
  const engine = new CriteriaEngine(input);
  for (const frame of frames.slice(0, 100)) engine.push(frame);
  const state = engine.saveState();

  it('is refused for other exclusions, another T0 by hand, other markers or another profile', () => {
    const others: CriteriaEngineInput[] = [
      { ...input, exclusions: [...(input.exclusions ?? []), { id: 'y', thermo_id: 2, from_time: -5000, reason: 'r' }] },
      { ...input, t0_override: 99 },
      { ...input, markers: input.markers.slice(1) },
      { ...input, profile: { ...input.profile, heating_curve: 'hydrocarbon' } },
    ];
    for (const other of others) expect(() => CriteriaEngine.restore(other, state)).toThrow(/other inputs/);
  });

  it('is refused for an exclusion that starts at or before its newest frame, or before ignition', () => {
    const newest = engine.lastFrameTime!;
    const thermo = input.markers[0]!.thermo_id;
    for (const from_time of [newest, newest - 10, -1, 0]) {
      const other = {
        ...input,
        exclusions: [...(input.exclusions ?? []), { id: 'z', thermo_id: thermo, from_time, reason: 'r' }],
      };
      expect(() => CriteriaEngine.restore(other, state)).toThrow(/other inputs/);
    }
    const fresh = new CriteriaEngine(input).saveState();
    // A state of no frame takes any exclusion after ignition, none before (T0 leaves those out).
    expect(() =>
      CriteriaEngine.restore(
        { ...input, exclusions: [{ id: 'z', thermo_id: thermo, from_time: 1, reason: 'r' }] },
        fresh,
      ),
    ).not.toThrow();
    expect(() =>
      CriteriaEngine.restore(
        { ...input, exclusions: [{ id: 'z', thermo_id: thermo, from_time: -1, reason: 'r' }] },
        fresh,
      ),
    ).toThrow(/other inputs/);
  });

  it('is refused from another version', () => {
    expect(() => CriteriaEngine.restore(input, { ...state, version: CRITERIA_STATE_VERSION + 1 })).toThrow(/version/);
  });

  it('is taken whatever the observations and the end (they change only the snapshot)', () => {
    expect(() => CriteriaEngine.restore({ ...input, observations: [], ended: !input.ended }, state)).not.toThrow();
  });
});
