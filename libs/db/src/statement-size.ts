/**
 * The time one statement of a long piece of work should take — an archive's import, a rebuild of rollups, a page
 * of an export. On the embedded PGlite a statement holds every other connection (the ingest's) while it runs, so
 * it stays well under the live view's 100 ms (docs/architecture.md, "Inside the api"); on PostgreSQL the sizes
 * grow to their maximum.
 */
export const STATEMENT_MS = 30;

/** How long `work` took, ms. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * The next size of a statement's work (rows, or units of a time range) from the last one's and how long it took:
 * toward STATEMENT_MS, at most doubled or halved, within [min, max].
 */
export function nextStatementSize(size: number, took: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, (size * STATEMENT_MS) / Math.max(took, 1), size / 2), size * 2));
}
