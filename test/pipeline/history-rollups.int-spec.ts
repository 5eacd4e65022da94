import type { DaqPayload } from '@furnace/contracts';
import { ROLLUP_WIDTHS } from '@furnace/db';
import { auth, type TestApi } from '@furnace/api-server/testing';
import type { ReadingsRepository } from '@furnace/ingest/testing';
import { insertMarkers } from '@furnace/testing';
import { fold, type RollupResearch, round1, seededRandom, startRollupResearch, type Stats } from './rollup-support';

/*
 * Rollups agree with the frames they fold. Frames go in through the ingest's own insert (which
 * maintains the rollups in the same statement), in random batches, one batch delivered twice,
 * with missing channels, frames without thermocouples, spikes and frames before ignition. Then,
 * for random ranges: min/max/mean from the rollups (directly, and through GET /history) against
 * the same computed here from the frames; and the first time each measurement type exceeds a
 * critical value, found from the history as the dashboard finds it (the first point whose max is
 * above, then that point's range read again in full), against the frame that really is first.
 */

const CHANNELS = 12;
/** thermo_id → measurement type; 11 and 12 have no marker at first. */
const MARKERS: Record<number, string> = {
  1: 'A',
  2: 'A',
  3: 'A',
  4: 'A',
  5: 'B',
  6: 'B',
  7: 'B',
  8: 'B',
  9: 'C',
  10: 'C',
};
const FIRST = -900;
const LAST = 6_000;

const { seed: SEED, random, int } = seededRandom(20261124);

function makeFrames(): DaqPayload[] {
  const frames: DaqPayload[] = [];
  const level = Array.from({ length: CHANNELS }, () => 20 + random() * 10);
  for (let t = FIRST; t <= LAST; t++) {
    if (random() < 0.03) continue; // a frame that never came
    const time = random() < 0.1 ? t + 0.5 : t;
    for (let c = 0; c < CHANNELS; c++) level[c] = Math.max(0, level[c]! + (random() - 0.45) * 3);
    const thermocouples_out =
      random() < 0.02
        ? undefined
        : level.map((v, c) => (random() < 0.1 ? null : random() < 0.002 ? round1(v + 300 + c) : round1(v)));
    frames.push({
      time,
      pk: random() < 0.05 ? null : round1(20 + Math.max(0, t) / 10 + (random() < 0.002 ? 400 : 0)),
      radiance: random() < 0.5 ? null : round1(random() * 50),
      pressure: round1(10 + random() * 10),
      ...(thermocouples_out ? { thermocouples_out } : {}),
    });
  }
  return frames;
}

/** A type's value in one frame: the max and the mean over its channels that have a reading. */
function category(
  frame: DaqPayload,
  markers: Record<number, string>,
  type: string,
): { max: number; mean: number } | null {
  const values = Object.entries(markers)
    .filter(([, t]) => t === type)
    .map(([id]) => frame.thermocouples_out?.[Number(id) - 1])
    .filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return null;
  return { max: Math.max(...values), mean: values.reduce((a, b) => a + b, 0) / values.length };
}

function merge(rows: { min: number | null; max: number | null; sum: number; n: number }[]): Stats | null {
  return rows.reduce<Stats | null>((acc, r) => {
    if (r.n === 0 || r.min === null || r.max === null) return acc;
    if (!acc) return { min: r.min, max: r.max, sum: r.sum, n: r.n };
    return { min: Math.min(acc.min, r.min), max: Math.max(acc.max, r.max), sum: acc.sum + r.sum, n: acc.n + r.n };
  }, null);
}

/**
 * Same count, min and max, and the same mean to 6 decimals. `approx`: min and max to 9 decimals too,
 * for a type's per-frame mean, which the database and this test sum in different orders.
 */
function expectSame(actual: Stats | null, expected: Stats | null, what: string, approx = false): void {
  if (expected === null) {
    expect({ what, actual }).toEqual({ what, actual: null });
    return;
  }
  expect({ what, n: actual?.n }).toEqual({ what, n: expected.n });
  if (approx) {
    expect(actual!.min).toBeCloseTo(expected.min, 9);
    expect(actual!.max).toBeCloseTo(expected.max, 9);
  } else {
    expect({ what, min: actual?.min, max: actual?.max }).toEqual({ what, min: expected.min, max: expected.max });
  }
  expect(actual!.sum / actual!.n).toBeCloseTo(expected.sum / expected.n, 6);
}

describe('rollups agree with the frames', () => {
  let fixture: RollupResearch;
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let repository: ReadingsRepository;
  const frames = makeFrames();

  beforeAll(async () => {
    fixture = await startRollupResearch(MARKERS, 8);
    ({ api, staff, researchId, repository } = fixture);
    // Random batches in time order, as the ingest writes them; one batch delivered again.
    let redelivered = false;
    for (let i = 0; i < frames.length;) {
      const batch = frames.slice(i, i + int(1, 60));
      const { inserted: written } = await repository.insertFrames(batch.map((payload) => ({ researchId, payload })));
      expect(written.size).toBe(batch.length);
      if (!redelivered && i > 2_000) {
        expect((await repository.insertFrames(batch.map((payload) => ({ researchId, payload })))).inserted.size).toBe(
          0,
        );
        redelivered = true;
      }
      i += batch.length;
    }
  }, 120_000);
  afterAll(() => fixture?.close());

  /** Rollup rows of one width with buckets in [lo, hi], merged. */
  async function fromRollups(width: number, lo: number, hi: number) {
    const rows: Record<string, unknown>[] = await api.dataSource.query(
      'SELECT * FROM reading_rollup WHERE research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4',
      [researchId, width, lo, hi],
    );
    const categories: Record<string, unknown>[] = await api.dataSource.query(
      'SELECT * FROM reading_rollup_category WHERE research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4',
      [researchId, width, lo, hi],
    );
    const scalar = (name: string) =>
      merge(
        rows.map((r) => ({
          min: r[`${name}_min`] as number | null,
          max: r[`${name}_max`] as number | null,
          sum: r[`${name}_sum`] as number,
          n: r[`${name}_n`] as number,
        })),
      );
    const channel = (c: number) =>
      merge(
        rows.map((r) => {
          const at = <T>(column: string) => (r[column] as T[] | null)?.[c] ?? null;
          return {
            min: at<number>('t_min'),
            max: at<number>('t_max'),
            sum: at<number>('t_sum') ?? 0,
            n: at<number>('t_n') ?? 0,
          };
        }),
      );
    const type = (name: string, kind: 'cmax' | 'cmean') =>
      merge(
        categories
          .filter((r) => r.type_name === name)
          .map((r) => ({
            min: r[`${kind}_min`] as number | null,
            max: r[`${kind}_max`] as number | null,
            sum: r[`${kind}_sum`] as number,
            n: r[`${kind}_n`] as number,
          })),
      );
    return { frames: rows.reduce((n, r) => n + (r.frames as number), 0), scalar, channel, type };
  }

  it('keeps min, max, sum and count of every series per bucket, at every level, before ignition too', async () => {
    for (let round = 0; round < 40; round++) {
      const width = ROLLUP_WIDTHS[int(0, ROLLUP_WIDTHS.length - 1)]!;
      const lo = int(Math.floor(FIRST / width), Math.floor(LAST / width));
      const hi = int(lo, Math.min(lo + 40, Math.floor(LAST / width)));
      const inside = frames.filter((f) => Math.floor(f.time / width) >= lo && Math.floor(f.time / width) <= hi);
      const rolled = await fromRollups(width, lo, hi);
      const what = `buckets ${lo}…${hi} of ${width} s (seed ${SEED})`;
      expect({ what, frames: rolled.frames }).toEqual({ what, frames: inside.length });
      for (const name of ['pk', 'radiance', 'pressure'] as const)
        expectSame(rolled.scalar(name), fold(inside.map((f) => f[name])), `${name}, ${what}`);
      for (let c = 0; c < CHANNELS; c++)
        expectSame(rolled.channel(c), fold(inside.map((f) => f.thermocouples_out?.[c])), `thermo ${c + 1}, ${what}`);
      for (const type of ['A', 'B', 'C']) {
        const values = inside.map((f) => category(f, MARKERS, type));
        expectSame(rolled.type(type, 'cmax'), fold(values.map((v) => v?.max)), `${type} max, ${what}`);
        expectSame(rolled.type(type, 'cmean'), fold(values.map((v) => v?.mean)), `${type} mean, ${what}`, true);
      }
    }
  });

  const get = async (query: string) => {
    const res = await api.http.get(`/api/v1/research/${researchId}/history?${query}`).set(auth(staff));
    expect(res.status).toBe(200);
    return res.body as {
      from: number;
      to: number;
      frames: number;
      bucket_seconds: number;
      time: number[];
      series: { key: string; min: (number | null)[]; max: (number | null)[]; mean: (number | null)[] }[];
    };
  };

  it('answers GET /history from the rollups with the min, max and mean of the frames of each point', async () => {
    for (let round = 0; round < 15; round++) {
      const from = int(0, 3_000) + (random() < 0.5 ? 0.5 : 0);
      const to = int(from + 1_000, LAST);
      // Points such that a rollup level has at least that many buckets in the range.
      const points = int(2, Math.floor((to - from) / 10));
      const history = await get(`from=${from}&to=${to}&points=${points}&thermo_ids=3,11`);
      const what = `from=${from}&to=${to}&points=${points} (seed ${SEED})`;
      expect({ what, rollups: history.bucket_seconds % 10 }).toEqual({ what, rollups: 0 });
      expect(history.time.length).toBeLessThanOrEqual(points);
      const inRange = frames.filter((f) => f.time >= from && f.time <= to);
      expect({ what, frames: history.frames }).toEqual({ what, frames: inRange.length });
      const groups = history.time.map((t, i) =>
        inRange.filter((f) => f.time >= t && (i + 1 === history.time.length || f.time < history.time[i + 1]!)),
      );
      expect(groups.reduce((n, g) => n + g.length, 0)).toBe(inRange.length);
      const check = (key: string, value: (f: DaqPayload) => number | null | undefined) => {
        const series = history.series.find((s) => s.key === key)!;
        groups.forEach((group, i) => {
          const expected = fold(group.map(value));
          if (!expected || !key.endsWith(':mean')) {
            expect({ what, key, i, min: series.min[i], max: series.max[i] }).toEqual({
              what,
              key,
              i,
              min: expected?.min ?? null,
              max: expected?.max ?? null,
            });
          } else {
            expect(series.min[i]).toBeCloseTo(expected.min, 9);
            expect(series.max[i]).toBeCloseTo(expected.max, 9);
          }
          if (expected) expect(series.mean[i]).toBeCloseTo(expected.sum / expected.n, 2);
        });
      };
      check('pk', (f) => f.pk);
      check('thermo:3', (f) => f.thermocouples_out?.[2]);
      check('thermo:11', (f) => f.thermocouples_out?.[10]);
      check('category:A:max', (f) => category(f, MARKERS, 'A')?.max);
      check('category:B:mean', (f) => category(f, MARKERS, 'B')?.mean);
      // Many thermocouples asked for are read another way (whole arrays): the same values.
      const many = await get(
        `from=${from}&to=${to}&points=${points}&thermo_ids=${Array.from({ length: 80 }, (_, i) => i + 1).join(',')}`,
      );
      expect(many.time).toEqual(history.time);
      for (const key of ['thermo:3', 'thermo:11', 'pk', 'category:A:max']) {
        expect({ what, key, series: many.series.find((s) => s.key === key) }).toEqual({
          what,
          key,
          series: history.series.find((s) => s.key === key),
        });
      }
      expect(many.series.filter((s) => s.key.startsWith('thermo:')).map((s) => s.key)).toEqual(
        Array.from({ length: CHANNELS }, (_, i) => `thermo:${i + 1}`),
      );
    }
  });

  /** As the dashboard finds it: the first point whose max is above, then that point's range read again in full. */
  async function firstExceedance(
    key: string,
    critical: number,
    from: number,
    to: number,
    points: number,
  ): Promise<number | null> {
    const overview = await get(`from=${from}&to=${to}&points=${points}`);
    const series = overview.series.find((s) => s.key === key)!;
    const i = series.max.findIndex((v) => v !== null && v > critical);
    if (i < 0) return null;
    const detail = await get(`from=${overview.time[i]}&to=${overview.time[i + 1] ?? overview.to}&points=10000`);
    expect(detail.bucket_seconds).toBe(0);
    const exact = detail.series.find((s) => s.key === key)!;
    const j = exact.max.findIndex((v) => v !== null && v > critical);
    return j < 0 ? null : detail.time[j]!;
  }

  it('finds the same first exceedance, to the frame, from rollups as from the frames', async () => {
    for (let round = 0; round < 12; round++) {
      const type = ['A', 'B', 'C'][round % 3]!;
      const kind = round % 2 === 0 ? 'max' : 'mean';
      const from = int(0, 2_000);
      const to = LAST;
      const values = frames
        .filter((f) => f.time >= from && f.time <= to)
        .map((f) => ({ time: f.time, v: category(f, MARKERS, type)?.[kind] }));
      const known = values.filter((x) => x.v !== undefined).map((x) => x.v!);
      // A critical value somewhere between the lowest and the highest of the range.
      const sorted = [...known].sort((a, b) => a - b);
      const critical = sorted[Math.floor(sorted.length * (0.5 + random() * 0.5))]! - 0.05;
      const truth = values.find((x) => x.v !== undefined && x.v > critical)?.time ?? null;
      const key = `category:${type}:${kind}`;
      const fromRollupLevel = await firstExceedance(key, critical, from, to, int(50, 500));
      const fromFrames = await firstExceedance(key, critical, from, to, 10_000);
      expect({ key, critical, from, fromRollupLevel, fromFrames }).toEqual({
        key,
        critical,
        from,
        fromRollupLevel: truth,
        fromFrames: truth,
      });
    }
  });

  it('recomputes the category rollups when the markers change', async () => {
    const changed: Record<number, string> = { ...MARKERS, 4: 'C', 11: 'C', 12: 'A' };
    await api.dataSource.query(
      `UPDATE thermo_marker SET type_name = 'C' WHERE thermo_id = 4 AND config_id IN (SELECT id FROM thermo_config WHERE research_id = $1)`,
      [researchId],
    );
    await insertMarkers(api.dataSource, researchId, { 11: 'C', 12: 'A' });
    for (let round = 0; round < 10; round++) {
      const width = ROLLUP_WIDTHS[round % ROLLUP_WIDTHS.length]!;
      const lo = int(Math.floor(FIRST / width), Math.floor(LAST / width));
      const hi = int(lo, Math.min(lo + 20, Math.floor(LAST / width)));
      const inside = frames.filter((f) => Math.floor(f.time / width) >= lo && Math.floor(f.time / width) <= hi);
      const rolled = await fromRollups(width, lo, hi);
      for (const type of ['A', 'C']) {
        const values = inside.map((f) => category(f, changed, type));
        expectSame(
          rolled.type(type, 'cmax'),
          fold(values.map((v) => v?.max)),
          `${type} max after the change, buckets ${lo}…${hi} of ${width} s`,
        );
        expectSame(
          rolled.type(type, 'cmean'),
          fold(values.map((v) => v?.mean)),
          `${type} mean after the change, buckets ${lo}…${hi} of ${width} s`,
          true,
        );
      }
    }
    // A config deleted (its markers with it): nothing of it is left in the rollups.
    await api.dataSource.query('DELETE FROM thermo_config WHERE research_id = $1', [researchId]);
    const left: { n: string }[] = await api.dataSource.query(
      'SELECT count(*) AS n FROM reading_rollup_category WHERE research_id = $1',
      [researchId],
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
});
