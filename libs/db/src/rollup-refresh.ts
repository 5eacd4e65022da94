import type { DataSource } from 'typeorm';
import { categoryRollupCtes, ROLLUP_WIDTHS } from './rollups';
import { nextStatementSize, timed } from './statement-size';

/**
 * The queued refreshes of category rollups (rollup_refresh, filled by the thermo_exclusion triggers:
 * migration RollupRefreshQueue1796600000000). A refresh rebuilds a research's category rollups from
 * the ten minutes of the earliest time its queued changes touch, a few minutes of frames per transaction: a long
 * test never holds one transaction (nor the ingest's next write into the same rollup rows) for more
 * than a chunk, and the staff request that changed an exclusion returned long before.
 *
 * Several instances may drain the queue: a research is rebuilt by one at a time, the holder of its
 * claim (rollup_refresh_claim, a lease renewed at every chunk, so a claimant that died is replaced once
 * it runs out; no connection is held between chunks). The queue rows a refresh covers are those
 * committed before it started reading; a change committed meanwhile leaves its own row for the next.
 *
 * While the rebuild runs, the chunks not yet rebuilt still show the exclusions as they were. The ingest's
 * statement reads the exclusions as of its own start: a batch written in the same instant as the change
 * may fold one batch of frames under the old rule until the next refresh of those ten minutes.
 */

/**
 * A transaction rebuilds whole minutes, from one to sixty, sized to STATEMENT_MS (statement-size.ts): on the
 * embedded database, one session for every connection, a chunk holds the ingest's writes while it runs (an hour of
 * 300 thermocouples at 1 Hz held a live viewer's frames 1.4 s, a ten-minute chunk takes ~0.3 s: docs/performance.md). The
 * rebuild starts at a ten-minute boundary; a chunk deletes the rows of every width whose bucket starts inside it,
 * and its upsert adds to a row that a chunk before it began (a ten-minute row is rebuilt over up to ten chunks,
 * and shows only their frames in between).
 */
const CHUNK_UNIT_S = ROLLUP_WIDTHS[1]!;
const CHUNK_UNITS_MAX = 60;
const START_S = ROLLUP_WIDTHS[ROLLUP_WIDTHS.length - 1]!;

const PENDING_SQL = 'SELECT research_id FROM rollup_refresh GROUP BY research_id ORDER BY min(id) LIMIT $1';
/** Claims (or renews) research $1 for owner $2 for $3 ms; a row back: held. */
const CLAIM_SQL = `INSERT INTO rollup_refresh_claim AS c (research_id, owner, until) SELECT $1, $2, now() + $3 * INTERVAL '1 millisecond'
  WHERE EXISTS (SELECT 1 FROM research WHERE id = $1)
  ON CONFLICT (research_id) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until WHERE c.until < now() OR c.owner = EXCLUDED.owner
  RETURNING 1`;
const UNCLAIM_SQL = 'DELETE FROM rollup_refresh_claim WHERE research_id = $1 AND owner = $2';
const QUEUED_SQL =
  'SELECT max(id)::text AS upto, min(from_time) AS from_time FROM rollup_refresh WHERE research_id = $1';
const SPAN_SQL = 'SELECT min("time") AS first, max("time") AS last FROM reading WHERE research_id = $1';
const DELETE_CHUNK_SQL = `DELETE FROM reading_rollup_category
  WHERE research_id = $1 AND bucket >= ceil($2::float8 / width)::bigint AND bucket < ceil($3::float8 / width)::bigint`;
const REBUILD_CHUNK_SQL = `WITH src AS (SELECT research_id, "time", thermocouples FROM reading WHERE research_id = $1 AND "time" >= $2::float8 AND "time" < $3::float8),
  ${categoryRollupCtes('src', true)}
  SELECT count(*)::int AS n FROM rollup_category_write`;
const DONE_SQL = 'DELETE FROM rollup_refresh WHERE research_id = $1 AND id <= $2::bigint';

export interface RollupRefreshOptions {
  /** Who refreshes (an instance's id): the claim's owner. */
  owner: string;
  /** Researches refreshed in one call at most. */
  limit?: number;
  /** A claim not renewed for this long is taken by another instance (ms). */
  claimMs?: number;
  /** Stops between chunks (the queue rows stay: another call goes on). */
  signal?: AbortSignal;
  /** Awaited before each chunk: work that goes first (the API's passes of the criteria over a whole test). */
  yieldTo?: () => Promise<void>;
}

/**
 * Refreshes the category rollups of up to `limit` queued researches, the longest waiting first; returns
 * those refreshed. A research another instance has claimed is skipped (it stays queued until done).
 */
export async function refreshQueuedCategoryRollups(
  dataSource: DataSource,
  options: RollupRefreshOptions,
): Promise<string[]> {
  const pending: { research_id: string }[] = await dataSource.query(PENDING_SQL, [options.limit ?? 10]);
  const refreshed: string[] = [];
  for (const { research_id: researchId } of pending) {
    if (options.signal?.aborted) break;
    if (await refreshResearch(dataSource, researchId, options)) refreshed.push(researchId);
  }
  return refreshed;
}

async function refreshResearch(
  dataSource: DataSource,
  researchId: string,
  options: RollupRefreshOptions,
): Promise<boolean> {
  const claim = async () =>
    ((await dataSource.query(CLAIM_SQL, [researchId, options.owner, options.claimMs ?? 60_000])) as unknown[]).length >
    0;
  if (!(await claim())) return false;
  try {
    const [queued] = (await dataSource.query(QUEUED_SQL, [researchId])) as {
      upto: string | null;
      from_time: number | null;
    }[];
    if (!queued || queued.upto === null || queued.from_time === null) return false;
    const [span] = (await dataSource.query(SPAN_SQL, [researchId])) as { first: number | null; last: number | null }[];
    if (span && span.first !== null && span.last !== null) {
      let from = Math.floor(Math.max(span.first, queued.from_time) / START_S) * START_S;
      let units = 1;
      while (from <= span.last) {
        await options.yieldTo?.();
        if (options.signal?.aborted || !(await claim())) return false;
        const to = from + units * CHUNK_UNIT_S;
        const took = await timed(() =>
          dataSource.transaction(async (manager) => {
            await manager.query("SET LOCAL work_mem = '64MB'");
            await manager.query(DELETE_CHUNK_SQL, [researchId, from, to]);
            await manager.query(REBUILD_CHUNK_SQL, [researchId, from, to]);
          }),
        );
        units = nextStatementSize(units, took, 1, CHUNK_UNITS_MAX);
        from = to;
      }
    }
    await dataSource.query(DONE_SQL, [researchId, queued.upto]);
    return true;
  } finally {
    await dataSource.query(UNCLAIM_SQL, [researchId, options.owner]);
  }
}
