import { seededRandom as random } from './testing/random';
import { iso834 } from '@furnace/contracts';
import { classify } from './classification';
import { CriteriaEngine } from './engine';
import { classSystemOf, DEFAULT_TEST_PROFILE } from './profiles';
import type { CriteriaFrame } from '@furnace/contracts';

/*
 * Random synthetic tests whose answers follow from their construction: thermocouples rising linearly
 * from their own start, a furnace at k·ISO 834, an integrity failure at a random time. The expected values
 * are worked out directly from the construction (closed forms and a scan of the known values), not by
 * running the engine's code.
 */
describe.each(Array.from({ length: 12 }, (_, i) => 1000 + i))('a random linear test (seed %i)', (seed) => {
  const rnd = random(seed);
  const meanCount = 3 + Math.floor(rnd() * 6);
  const maxCount = 1 + Math.floor(rnd() * 4);
  const starts = Array.from({ length: meanCount + maxCount }, () => 15 + 10 * rnd()); // °C
  const rates = Array.from({ length: meanCount + maxCount }, () => 0.5 + 3 * rnd()); // K/min
  const k = 0.9 + 0.2 * rnd();
  const step = 1 + Math.floor(rnd() * 10); // s between frames
  const duration = 3600 + Math.floor(rnd() * 7200); // s
  const eAt = rnd() < 0.5 ? null : 600 + Math.floor(rnd() * duration);
  const radiationRate = 0.1 + 0.3 * rnd(); // kW/m² per minute
  const radiance = (t: number) => (radiationRate * Math.max(0, t)) / 60;

  const markers = starts.map((_, i) => ({ thermo_id: i + 1, type_name: i < meanCount ? 'Tśr i Tmax' : 'Tmax' }));
  const value = (i: number, t: number) => (starts[i] as number) + ((rates[i] as number) * Math.max(0, t)) / 60;

  const t0 = starts.slice(0, meanCount).reduce((a, b) => a + b, 0) / meanCount;
  const times: number[] = [];
  for (let t = 0; t <= duration; t += step) times.push(t);
  // First frame over the limit (the values only rise, so the next frame is over too, when there is one).
  const firstOver = (over: (t: number) => boolean) => {
    const index = times.findIndex(over);
    return index >= 0 && index + 1 < times.length ? (times[index] as number) : null;
  };
  const maxFailure = firstOver((t) => starts.some((_, i) => value(i, t) > t0 + 180));
  const meanFailure = firstOver(
    (t) => starts.slice(0, meanCount).reduce((a, _, i) => a + value(i, t), 0) / meanCount > t0 + 140,
  );
  const wFailure = firstOver((t) => radiance(t) > 15);
  const iFailure = [maxFailure, meanFailure].filter((t): t is number => t !== null).sort((a, b) => a - b)[0] ?? null;
  const eSeen = eAt !== null && eAt <= duration ? eAt : null;

  const engine = new CriteriaEngine({
    profile: DEFAULT_TEST_PROFILE,
    markers,
    ended: true,
    observations: eAt === null ? [] : [{ id: 'e', time: eAt, kind: 'gap_25mm', note: null, visible_to_clients: true }],
  });
  const frames: CriteriaFrame[] = [];
  for (let t = -60; t < 0; t += step)
    frames.push({ time: t, pk: 20, thermocouples_out: starts.map((_, i) => value(i, t)) });
  for (const t of times)
    frames.push({
      time: t,
      pk: k * iso834(t),
      radiance: radiance(t),
      thermocouples_out: starts.map((_, i) => value(i, t)),
    });
  for (const frame of frames) engine.push(frame);
  const snapshot = engine.snapshot();

  it('T0 is the mean of the mean thermocouples before ignition', () => {
    expect(snapshot.t0).toBeCloseTo(t0, 9);
    expect(snapshot.t0_source).toBe('auto');
  });

  it('the failures are the first frames over T0 + 180 K, T0 + 140 K and 15 kW/m²', () => {
    const got = (criterion: string) => snapshot.failures.find((f) => f.criterion === criterion)?.time ?? null;
    expect({ max: got('I_max'), mean: got('I_mean'), w: got('W') }).toEqual({
      max: maxFailure,
      mean: meanFailure,
      w: wFailure,
    });
  });

  it(`d_e of ${k.toFixed(3)}·ISO is (k − 1)·100 %`, () => {
    expect(snapshot.deviation.d_e).toBeCloseTo((k - 1) * 100, 8);
    expect(snapshot.deviation.ok).toBe(Math.abs((k - 1) * 100) <= 2.5);
  });

  // EN 1363-1 §5.1.2: a constant d_e D leaves the tolerance (15 % to 10 min, then falling to 2.5 % at 60 min)
  // at the first frame after 5 min whose tolerance is below |D|, and never comes back (the tolerance only falls).
  it('d_e outside its tolerance: one period, from the first frame whose tolerance is below |d_e| to the end', () => {
    const d = Math.abs((k - 1) * 100);
    const tolerance = (t: number) =>
      t <= 600 ? 15 : t <= 1800 ? 15 - 0.5 * (t / 60 - 10) : t <= 3600 ? 5 - 0.083 * (t / 60 - 30) : 2.5;
    const from = times.find((t) => t > 300 && d > tolerance(t) + 1e-9);
    if (from === undefined) {
      expect(snapshot.deviation).toMatchObject({ periods: [], conforming: true });
    } else {
      const last = times[times.length - 1] as number;
      // The worst frame: the first with the smallest tolerance (d_e is the same at every frame).
      const worstTime = times
        .filter((t) => t >= from)
        .reduce((best, t) => (tolerance(t) < tolerance(best) - 1e-9 ? t : best));
      expect(snapshot.deviation.conforming).toBe(false);
      expect(snapshot.deviation.periods).toHaveLength(1);
      expect(snapshot.deviation.periods[0]).toMatchObject({ from, to: last, open: true, worst_time: worstTime });
      expect(snapshot.deviation.periods[0]!.worst).toBeCloseTo((k - 1) * 100, 8);
    }
  });

  it('the classification follows from the failure times', () => {
    expect(snapshot.classification).toBe(
      classify(
        { E: eSeen, I: iFailure, W: wFailure, end: times[times.length - 1] as number },
        { classes: classSystemOf('EN_1363_1') },
      ),
    );
    const eMinutes = Math.floor((eSeen ?? (times[times.length - 1] as number)) / 60);
    expect(snapshot.criteria.E.minutes).toBe(eMinutes);
    expect(snapshot.criteria.I.minutes).toBe(
      Math.min(Math.floor((iFailure ?? (times[times.length - 1] as number)) / 60), eMinutes),
    );
  });
});
