// What the rollup tests share: a research with markers in a running API, frames written through the
// ingest's own insert, replayable random numbers, and the statistics the history reports, folded here.
import { startTestApi, type TestApi } from '@furnace/api-server/testing';
import { ReadingsRepository } from '@furnace/ingest/testing';
import { mulberry32 } from '@furnace/simulator';
import { insertMarkers, insertResearch, login, SUPERUSER } from '@furnace/testing';

export interface RollupResearch {
  api: TestApi;
  /** The superuser's token. */
  staff: string;
  researchId: string;
  /** The ingest's writer, on the test's database. */
  repository: ReadingsRepository;
  close(): Promise<void>;
}

/** The API on a fresh database, a research that started `hoursAgo`, and its markers (thermo_id → measurement type). */
export async function startRollupResearch(markers: Record<number, string>, hoursAgo: number): Promise<RollupResearch> {
  const api = await startTestApi();
  const staff = await login(api, SUPERUSER.email, SUPERUSER.password);
  const researchId = await insertResearch(api.db.url, { startAt: new Date(Date.now() - hoursAgo * 3600_000) });
  await insertMarkers(api.dataSource, researchId, markers);
  const repository = new ReadingsRepository(api.db.url);
  return {
    api,
    staff,
    researchId,
    repository,
    async close() {
      await repository.close();
      await api.close();
    },
  };
}

/**
 * Deterministic pseudo-random numbers (mulberry32) from ROLLUP_SEED or `fallback` (the `seed` used), so that a failure can
 * be replayed: `random()` in [0, 1), `int(lo, hi)` inclusive.
 */
export function seededRandom(fallback: number): {
  seed: number;
  random: () => number;
  int: (lo: number, hi: number) => number;
} {
  const seed = Number(process.env.ROLLUP_SEED ?? fallback);
  const random = mulberry32(seed);
  return { seed, random, int: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)) };
}

/** Values as a DAQ sends them and a real column keeps them exactly: one decimal, below 10 000. */
export const round1 = (v: number) => Math.round(v * 10) / 10;

export interface Stats {
  min: number;
  max: number;
  sum: number;
  n: number;
}

/** min, max, sum and count of the values that are there (null and undefined are no reading). */
export function fold(values: Iterable<number | null | undefined>): Stats | null {
  let s: Stats | null = null;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    if (!s) s = { min: v, max: v, sum: 0, n: 0 };
    s.min = Math.min(s.min, v);
    s.max = Math.max(s.max, v);
    s.sum += v;
    s.n++;
  }
  return s;
}
