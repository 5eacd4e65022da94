import type { DaqPayload } from '@furnace/contracts';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { auth, type TestApi } from '@furnace/api-server/testing';
import type { ReadingsRepository } from '@furnace/ingest/testing';
import { fold, type RollupResearch, round1, seededRandom, startRollupResearch } from './rollup-support';

/*
 * Thermocouple exclusions in the history's category curves: a thermocouple excluded from a time on
 * does not count in its measurement type's maximum and mean from that time on, over a wide range
 * (read from the rollups) and a narrow zoom (read from the frames), the same as computed here from
 * the frames. The frames go in through the ingest's own insert, part of them after the exclusion
 * exists (the ingest's rollup statement applies it); deleting the exclusion restores the curves.
 * An exclusion's request only queues the rebuild of the rollups it touches (an API instance makes it
 * at once, off the request): the checks wait for that queue to drain.
 */

/** thermo_id → measurement type. */
const MARKERS: Record<number, string> = { 1: 'A', 2: 'A', 3: 'A', 4: 'B', 5: 'B', 6: 'B' };
const CHANNELS = 6;
const FIRST = -120;
const LAST = 4_000;
/** Thermocouple 2 comes loose and reads far too hot from here on: the maximum of A is its value until it is excluded. */
const LOOSE_AT = 1_200;
/** Exclusions (staff, through the API): thermocouple 2 from a little after it came loose, 5 from exactly a frame's time. */
const EXCLUDE: { thermo_id: number; from_time: number }[] = [
  { thermo_id: 2, from_time: 1_234.5 },
  { thermo_id: 5, from_time: 2_000 },
];
/** Frames from here on are written after the exclusions exist. */
const LATE = 3_000;

const { seed: SEED, random, int } = seededRandom(20261125);

function makeFrames(): DaqPayload[] {
  const frames: DaqPayload[] = [];
  const level = Array.from({ length: CHANNELS }, () => 20 + random() * 10);
  for (let t = FIRST; t <= LAST; t++) {
    if (random() < 0.03) continue;
    const time = random() < 0.1 ? t + 0.5 : t;
    for (let c = 0; c < CHANNELS; c++) level[c] = Math.max(0, level[c]! + (random() - 0.4) * 2);
    frames.push({
      time,
      pk: round1(20 + Math.max(0, t) / 10),
      radiance: null,
      pressure: round1(10 + random() * 10),
      thermocouples_out: level.map((v, c) =>
        random() < 0.05 ? null : round1(c === 1 && time >= LOOSE_AT ? v + 900 : v),
      ),
    });
  }
  return frames;
}

/** A type's value in one frame: max and mean over its thermocouples with a reading that are not excluded at the frame's time. */
function category(
  frame: DaqPayload,
  type: string,
  exclusions: readonly { thermo_id: number; from_time: number }[],
): { max: number; mean: number } | null {
  const values = Object.entries(MARKERS)
    .filter(([id, t]) => t === type && !exclusions.some((e) => e.thermo_id === Number(id) && frame.time >= e.from_time))
    .map(([id]) => frame.thermocouples_out?.[Number(id) - 1])
    .filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return null;
  return { max: Math.max(...values), mean: values.reduce((a, b) => a + b, 0) / values.length };
}

interface History {
  from: number;
  to: number;
  frames: number;
  bucket_seconds: number;
  time: number[];
  series: { key: string; min: (number | null)[]; max: (number | null)[]; mean: (number | null)[] }[];
}

describe('history category curves honour thermocouple exclusions', () => {
  let fixture: RollupResearch;
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let repository: ReadingsRepository;
  const frames = makeFrames();

  async function ingest(batch: DaqPayload[]): Promise<void> {
    for (let i = 0; i < batch.length;) {
      const part = batch.slice(i, i + int(1, 60));
      expect((await repository.insertFrames(part.map((payload) => ({ researchId, payload })))).inserted.size).toBe(
        part.length,
      );
      i += part.length;
    }
  }

  const get = async (query: string): Promise<History> => {
    const res = await api.http.get(`/api/v1/research/${researchId}/history?${query}`).set(auth(staff));
    expect(res.status).toBe(200);
    return res.body as History;
  };

  const exclude = async (e: { thermo_id: number; from_time: number }): Promise<string> => {
    const res = await api.http
      .post(`/api/v1/research/${researchId}/exclusions`)
      .set(auth(staff))
      .send({ ...e, reason: 'came loose' });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };

  /** Waits until no rebuild of this research's category rollups is queued (the API's refresher drained it). */
  const rollupsRefreshed = async (): Promise<void> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [{ n }] = (await api.dataSource.query(
        'SELECT count(*)::int AS n FROM rollup_refresh WHERE research_id = $1',
        [researchId],
      )) as { n: number }[];
      if (n === 0) return;
      if (Date.now() > deadline) throw new Error('the category rollups were not refreshed within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    fixture = await startRollupResearch(MARKERS, 3);
    ({ api, staff, researchId, repository } = fixture);
    await ingest(frames.filter((f) => f.time < LATE));
  }, 120_000);
  afterAll(() => fixture?.close());

  /**
   * GET /history for the range: each point's category max and mean against those computed from the
   * point's frames under `exclusions`. Returns how many points the exclusions changed (so a test can
   * tell that it checked something the exclusions touch).
   */
  async function checkHistory(
    query: { from: number; to: number; points: number },
    exclusions: readonly { thermo_id: number; from_time: number }[],
  ) {
    const history = await get(`from=${query.from}&to=${query.to}&points=${query.points}`);
    const what = `from=${query.from}&to=${query.to}&points=${query.points}, ${exclusions.length} exclusions (seed ${SEED})`;
    const inRange = frames.filter((f) => f.time >= query.from && f.time <= query.to);
    expect({ what, frames: history.frames }).toEqual({ what, frames: inRange.length });
    const groups = history.time.map((t, i) =>
      inRange.filter((f) => f.time >= t && (i + 1 === history.time.length || f.time < history.time[i + 1]!)),
    );
    expect(groups.reduce((n, g) => n + g.length, 0)).toBe(inRange.length);
    let changed = 0;
    for (const type of ['A', 'B']) {
      for (const kind of ['max', 'mean'] as const) {
        const key = `category:${type}:${kind}`;
        const series = history.series.find((s) => s.key === key)!;
        groups.forEach((group, i) => {
          const expected = fold(group.map((f) => category(f, type, exclusions)?.[kind]));
          const unexcluded = fold(group.map((f) => category(f, type, [])?.[kind]));
          if (expected?.max !== unexcluded?.max || expected?.n !== unexcluded?.n) changed++;
          if (!expected || kind === 'max') {
            expect({ what, key, i, min: series.min[i], max: series.max[i] }).toEqual({
              what,
              key,
              i,
              min: expected?.min ?? null,
              max: expected?.max ?? null,
            });
          } else {
            // The database and this test sum a frame's values in different orders.
            expect(series.min[i]).toBeCloseTo(expected.min, 9);
            expect(series.max[i]).toBeCloseTo(expected.max, 9);
          }
          if (expected) expect(series.mean[i]).toBeCloseTo(expected.sum / expected.n, 2);
        });
      }
    }
    return { history, changed };
  }

  /** Wide ranges (rollups: bucket_seconds a multiple of 10) and narrow zooms (frames: one point a frame, or buckets of a few seconds) around the exclusions. */
  async function checkAll(exclusions: readonly { thermo_id: number; from_time: number }[]): Promise<number> {
    let changed = 0;
    for (let round = 0; round < 6; round++) {
      const from = int(0, 1_000) + (round % 2 === 0 ? 0.5 : 0);
      const to = int(from + 2_500, LAST);
      const points = int(20, Math.floor((to - from) / 10));
      const { history, changed: c } = await checkHistory({ from, to, points }, exclusions);
      expect(history.bucket_seconds).toBeGreaterThan(0);
      expect(history.bucket_seconds % 10).toBe(0);
      changed += c;
    }
    for (const at of [1_234.5, 2_000, 3_500]) {
      const raw = await checkHistory({ from: at - 30, to: at + 30, points: 10_000 }, exclusions);
      expect(raw.history.bucket_seconds).toBe(0);
      const bucketed = await checkHistory({ from: at - 150, to: at + 150, points: 50 }, exclusions);
      expect(bucketed.history.bucket_seconds).toBe(6);
      changed += raw.changed + bucketed.changed;
    }
    return changed;
  }

  it('leaves an excluded thermocouple out of its category max and mean from its from_time on; deleting the exclusion restores them', async () => {
    // Before any exclusion: the loose thermocouple counts.
    await ingest(frames.filter((f) => f.time >= LATE));
    await checkAll([]);

    const ids = [];
    for (const e of EXCLUDE) ids.push(await exclude(e));
    await rollupsRefreshed();
    expect(await checkAll(EXCLUDE)).toBeGreaterThan(0);

    // Both exclusions gone: the curves are as before.
    for (const id of ids)
      expect((await api.http.delete(`/api/v1/research/exclusions/${id}`).set(auth(staff))).status).toBe(200);
    await rollupsRefreshed();
    await checkAll([]);
  });

  it('applies exclusions to frames the ingest writes after them, and to rollups rebuilt from the stored frames', async () => {
    await api.dataSource.query('DELETE FROM reading WHERE research_id = $1 AND "time" >= $2', [researchId, LATE]);
    for (const sql of REBUILD_ROLLUPS_SQL) await api.dataSource.query(sql, [researchId]);
    for (const e of EXCLUDE) await exclude(e);
    // A later exclusion of the same thermocouple changes nothing: the earliest one counts.
    await exclude({ thermo_id: 2, from_time: 2_500 });
    await rollupsRefreshed();
    await ingest(frames.filter((f) => f.time >= LATE));
    expect(await checkAll(EXCLUDE)).toBeGreaterThan(0);

    for (const sql of REBUILD_ROLLUPS_SQL) await api.dataSource.query(sql, [researchId]);
    expect(await checkAll(EXCLUDE)).toBeGreaterThan(0);
  });
});
