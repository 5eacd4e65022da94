// `npm run bench:criteria`: the fire-test criteria engine (libs/criteria) over a 4-hour,
// 1 Hz, 300-channel test, against a plain loop over the same frames (max and sum of every channel: the
// least any criteria computation reads). The server's criteria keeper pushes every stored frame of a
// research through it once (docs/architecture.md, "The criteria: computed once, kept, pushed") and takes
// a snapshot per push to viewers, and the replay runs it in the browser, so the figure that matters is
// the time per frame of `push` + `snapshot`.
import { type CriteriaFrame, iso834, type Observation } from '@furnace/contracts';
import { CriteriaEngine, DEFAULT_TEST_PROFILE } from '@furnace/criteria';
import { fmt, ratio, table } from './lib/stats';
import { mulberry32 as random } from '@furnace/simulator';

const CHANNELS = 300;
const SECONDS = 4 * 3600;
const ROUNDS = 5;

// 200 leaf thermocouples (mean and max), 60 max, 20 on the frame, 20 informative.
const markers = Array.from({ length: CHANNELS }, (_, i) => ({
  thermo_id: i + 1,
  type_name: i < 200 ? 'Tśr i Tmax' : i < 260 ? 'Tmax' : i < 280 ? 'Tmax ościeżnicy' : 'T',
}));
const observations: Observation[] = [
  { id: 'o', time: 3 * 3600 + 125, kind: 'cotton_pad', note: null, visible_to_clients: true },
];
const exclusions = [{ id: 'x', thermo_id: 17, from_time: 5400, reason: 'detached' }];

function makeFrames(): CriteriaFrame[] {
  const rnd = random(834);
  const rates = markers.map(() => 0.4 + 1.6 * rnd()); // K/min
  const frames: CriteriaFrame[] = [];
  for (let t = -60; t < SECONDS; t += 1) {
    const minutes = Math.max(0, t) / 60;
    const values: (number | null)[] = rates.map(
      (rate) => Math.round((20 + rate * minutes + 0.3 * (rnd() - 0.5)) * 10) / 10,
    );
    const broken = t >= 7200; // one channel breaks after 2 h
    if (broken) values[42] = null;
    frames.push({
      time: t,
      pk: iso834(t) + 5 * (rnd() - 0.5),
      pressure: 17 + rnd(),
      radiance: 2 + minutes / 30,
      thermocouples_out: values,
      ...(broken ? { faults: [43] } : {}),
    });
  }
  return frames;
}

/** The baseline: one pass over every frame's channels. */
function plainLoop(frames: readonly CriteriaFrame[]): number {
  let check = 0;
  for (const frame of frames) {
    let max = Number.NEGATIVE_INFINITY;
    let sum = 0;
    for (const value of frame.thermocouples_out ?? []) {
      if (value === null) continue;
      if (value > max) max = value;
      sum += value;
    }
    check += max + sum;
  }
  return check;
}

function engineRun(frames: readonly CriteriaFrame[], snapshotEvery: boolean): string | null {
  const engine = new CriteriaEngine({
    profile: { ...DEFAULT_TEST_PROFILE, standard: 'EN_1634_1' },
    markers,
    exclusions,
    observations,
  });
  let last = null;
  for (const frame of frames) {
    engine.push(frame);
    if (snapshotEvery) last = engine.snapshot().classification;
  }
  return snapshotEvery ? last : engine.snapshot().classification;
}

/** Best time of each run over ROUNDS rounds, the runs interleaved so that a busy moment hits them alike. */
function best(runs: (() => unknown)[]): number[] {
  const times = runs.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < ROUNDS; round += 1) {
    runs.forEach((run, i) => {
      const started = performance.now();
      run();
      times[i] = Math.min(times[i] as number, performance.now() - started);
    });
  }
  return times;
}

const frames = makeFrames();
const [baseline, push, pushSnapshot] = best([
  () => plainLoop(frames),
  () => engineRun(frames, false),
  () => engineRun(frames, true),
]) as [number, number, number];
const perFrame = (ms: number) => `${fmt((ms * 1000) / frames.length, 1)} µs`;
const classification = engineRun(frames, true);

process.stdout.write(
  `Criteria engine — ${frames.length} frames (4 h at 1 Hz), ${CHANNELS} channels, best of ${ROUNDS}, Node ${process.version}\n\n` +
    table(
      ['run', 'total ms', 'per frame', 'vs plain loop'],
      [
        ['plain loop (max + sum of every channel)', fmt(baseline, 1), perFrame(baseline), '1.00×'],
        ['engine.push', fmt(push, 1), perFrame(push), ratio(push, baseline)],
        [
          'engine.push + snapshot every frame',
          fmt(pushSnapshot, 1),
          perFrame(pushSnapshot),
          ratio(pushSnapshot, baseline),
        ],
      ],
    ) +
    `\n\nFinal classification of the synthetic test: ${classification}\n`,
);
