/** The live stream's own SQL (the shared questions about a research: @furnace/db research.queries.ts). */

/** The research $1's stored frames after $2 (all when null), in time order, at most $3. */
export const FRAMES_SINCE_SQL = `SELECT "time", radiance, pressure, pk, thermocouples FROM reading
  WHERE research_id = $1 AND ($2::double precision IS NULL OR "time" > $2) ORDER BY "time" LIMIT $3`;
