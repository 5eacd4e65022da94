/** The criteria's own SQL (the shared questions about a research: @furnace/db research.queries.ts). */

/** One page of the research $1's frames in time order, at most $2, after $3 when `after`; thermocouples as text. */
export function criteriaFramesSql(after: boolean): string {
  return `SELECT "time", radiance, pressure, pk, thermocouples::text AS thermocouples, faults FROM reading
       WHERE research_id = $1 ${after ? 'AND "time" > $3' : ''}
       ORDER BY "time" LIMIT $2`;
}
