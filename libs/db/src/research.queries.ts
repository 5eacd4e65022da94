import type { ThermoZone } from '@furnace/contracts';
import type { DataSource } from 'typeorm';

/**
 * The questions several modules ask about a research, each answered here once (docs/architecture.md,
 * "Where to add a query"). Every function takes `RunQuery`, so the API (a TypeORM DataSource:
 * `queryOn(dataSource)`) and the ingest (its own pg pool) ask them the same way.
 */

/** Runs one parameterised statement and resolves to its rows. */
export type RunQuery = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** A TypeORM DataSource as a RunQuery. */
export function queryOn(dataSource: DataSource): RunQuery {
  return (sql, params) => dataSource.query(sql, params);
}

/** What identifies a research and bounds its frames. */
export interface ResearchHeader {
  name: string;
  startAt: Date;
  endAt: Date;
}

/** Does this research exist: its name and window, or null when it does not (or is still being imported from an archive, docs/behaviour.md §14). */
export async function findResearchHeader(run: RunQuery, id: string): Promise<ResearchHeader | null> {
  const rows = await run<{ name: string; start_at: Date; end_at: Date }>(
    'SELECT name, start_at, end_at FROM research WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = $1)',
    [id],
  );
  const row = rows[0];
  return row ? { name: row.name, startAt: row.start_at, endAt: row.end_at } : null;
}

/** `time` of the research's latest stored frame; null before the first. */
export async function lastFrameTime(run: RunQuery, researchId: string): Promise<number | null> {
  const rows = await run<{ time: number }>(
    'SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1',
    [researchId],
  );
  return rows[0]?.time ?? null;
}

/**
 * The research $1's thermocouples as its configs' markers place them: the distinct (thermo_id,
 * type_name) pairs, as a subquery of a larger statement. `researchMarkers` gives the same pairs
 * with each one's zone.
 */
export const RESEARCH_MARKERS_SQL =
  'SELECT DISTINCT m.thermo_id, m.type_name FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id WHERE c.research_id = $1';

/**
 * The research's (thermo_id, type_name) pairs, ordered by thermocouple then type, each with its EN 1634-1
 * insulation zone (null: counts for both I1 and I2). A pair marked on several configs with different zones
 * takes the zone of the newest of them: the configs are the research's photos, and the newest one is the
 * layout staff placed last.
 */
export function researchMarkers(
  run: RunQuery,
  researchId: string,
): Promise<{ thermo_id: number; type_name: string; zone: ThermoZone | null }[]> {
  return run(
    `SELECT DISTINCT ON (m.thermo_id, m.type_name) m.thermo_id, m.type_name, m.zone
       FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id
      WHERE c.research_id = $1
      ORDER BY m.thermo_id, m.type_name, c.created_at DESC, c.id DESC`,
    [researchId],
  );
}
