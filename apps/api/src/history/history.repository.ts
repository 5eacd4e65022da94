import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CategoryMember, RollupValues, Stats } from './downsample';
import { readIgnitionAt } from './ignition';
import { RealArrayReader } from './real-array';

export interface Range {
  from: number;
  to: number;
}

/** A frame as stored, its thermocouples in PostgreSQL's text form of a real[] (read with RealArrayReader). */
export interface FrameRow {
  time: number;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: string | null;
}

export interface CsvRow {
  time: number;
  ts: Date;
  daqTs: Date | null;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: (number | null)[] | null;
  faults: number[] | null;
}

/**
 * All database I/O of the history. Plain SQL that runs the same on PostgreSQL, TimescaleDB and
 * PGlite, and nothing needs an explicit transaction (the embedded PGlite multiplexes one session).
 * The downsampling itself is not here: it folds the frames as they are read (downsample.ts).
 */
@Injectable()
export class HistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async research(id: string): Promise<{ name: string } | null> {
    const rows: { name: string }[] = await this.dataSource.query('SELECT name FROM research WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  async lastTime(researchId: string): Promise<number | null> {
    const rows: { time: number }[] = await this.dataSource.query('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1', [researchId]);
    return rows[0]?.time ?? null;
  }

  async countFrames(researchId: string, range: Range): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      'SELECT count(*) AS n FROM reading WHERE research_id = $1 AND "time" BETWEEN $2 AND $3',
      [researchId, range.from, range.to],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The distinct (thermo_id, type_name) pairs of the research's thermocouple configs, each with the
   * time its thermocouple is excluded from (the earliest of its exclusions; none: null).
   */
  async categoryMembers(researchId: string): Promise<CategoryMember[]> {
    const rows: { thermo_id: number; type_name: string; excluded_from: number | null }[] = await this.dataSource.query(
      `SELECT m.thermo_id, m.type_name, e.excluded_from
       FROM (SELECT DISTINCT m.thermo_id, m.type_name FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id WHERE c.research_id = $1) m
       LEFT JOIN (SELECT thermo_id, min(from_time) AS excluded_from FROM thermo_exclusion WHERE research_id = $1 GROUP BY thermo_id) e USING (thermo_id)
       ORDER BY m.type_name, m.thermo_id`,
      [researchId],
    );
    return rows.map((r) => ({ thermoId: r.thermo_id, typeName: r.type_name, excludedFrom: r.excluded_from }));
  }

  /**
   * The frames of the range in time order, one page (keyset pagination: each page is one index range
   * scan, no cursor, no transaction). The thermocouples stay text: the driver would turn every value
   * into a JavaScript object (see RealArrayReader).
   */
  async frames(researchId: string, range: Range, after: number | null, limit: number): Promise<FrameRow[]> {
    return this.dataSource.query(
      `SELECT "time", radiance, pressure, pk, thermocouples::text AS thermocouples FROM reading
       WHERE research_id = $1 AND "time" ${after === null ? '>=' : '>'} $2 AND "time" <= $3
       ORDER BY "time" LIMIT $4`,
      [researchId, after ?? range.from, range.to, limit],
    );
  }

  /** Raw rows in time order, one page (keyset pagination: no cursor, no transaction). */
  async page(researchId: string, range: Range, after: number | null, limit: number): Promise<CsvRow[]> {
    const rows: {
      time: number;
      ts: Date;
      daq_ts: Date | null;
      radiance: number | null;
      pressure: number | null;
      pk: number | null;
      thermocouples: (number | null)[] | null;
      faults: number[] | null;
    }[] = await this.dataSource.query(
      // After the first page the lower bound is the last time sent, so each page is one index range scan.
      `SELECT "time", ts, daq_ts, radiance, pressure, pk, thermocouples, faults FROM reading
       WHERE research_id = $1 AND "time" ${after === null ? '>=' : '>'} $2 AND "time" <= $3
       ORDER BY "time" LIMIT $4`,
      [researchId, after ?? range.from, range.to, limit],
    );
    return rows.map((r) => ({ time: r.time, ts: r.ts, daqTs: r.daq_ts, radiance: r.radiance, pressure: r.pressure, pk: r.pk, thermocouples: r.thermocouples, faults: r.faults }));
  }

  /** The channels the ingest flagged out of range in the range, each with its first and last flagged frame. */
  async faults(researchId: string, range: Range): Promise<{ thermo_id: number; first_time: number; last_time: number; frames: number }[]> {
    const rows: { thermo_id: number; first_time: number; last_time: number; frames: string }[] = await this.dataSource.query(
      `SELECT f.thermo_id, min(r."time") AS first_time, max(r."time") AS last_time, count(*) AS frames
       FROM reading r, unnest(r.faults) AS f(thermo_id)
       WHERE r.research_id = $1 AND r.faults IS NOT NULL AND r."time" BETWEEN $2 AND $3
       GROUP BY f.thermo_id ORDER BY f.thermo_id`,
      [researchId, range.from, range.to],
    );
    return rows.map((r) => ({ thermo_id: Number(r.thermo_id), first_time: r.first_time, last_time: r.last_time, frames: Number(r.frames) }));
  }

  /** Wall-clock time of ignition from the frames' own timestamps (see readIgnitionAt). */
  ignitionAt(researchId: string): Promise<Date | null> {
    return readIgnitionAt(this.dataSource, researchId);
  }

  /** The times and kinds of the research's observations in the range, in time order; `visibleOnly` for a client. */
  observations(researchId: string, range: Range, visibleOnly: boolean): Promise<{ time: number; kind: string }[]> {
    return this.dataSource.query(
      `SELECT "time", kind FROM observation WHERE research_id = $1 AND "time" BETWEEN $2 AND $3 ${visibleOnly ? 'AND visible_to_clients' : ''}
       ORDER BY "time", created_at`,
      [researchId, range.from, range.to],
    );
  }

  /** Most thermocouple channels in one frame of the range (the CSV's column count). */
  async maxChannels(researchId: string, range: Range): Promise<number> {
    const rows: { n: number | null }[] = await this.dataSource.query(
      'SELECT max(cardinality(thermocouples)) AS n FROM reading WHERE research_id = $1 AND "time" BETWEEN $2 AND $3',
      [researchId, range.from, range.to],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Rollup buckets bucket ∈ [lo, hi] of one width, grouped `k` at a time (floor(bucket / k)), in
   * time order, leaving out the last bucket when it has a frame after `to` (the caller reads its
   * frames: `lastBucket` says whether it was included). The thermocouples' own stats only for
   * `thermoIds` (validated integers); the categories' always. A row's arrays are stored out of line
   * and each element picked fetches them again: for more than a few thermocouples the rows come
   * ungrouped with their whole arrays (the downsampling groups them).
   */
  async rollups(
    researchId: string,
    width: number,
    k: number,
    lo: number,
    hi: number,
    to: number,
    thermoIds: readonly number[],
  ): Promise<(RollupValues & { lastBucket: number; frames: number })[]> {
    const whole = thermoIds.length > PICK_AT_MOST;
    const pick = (column: string, aggregate: string) =>
      thermoIds.length === 0 ? 'NULL' : `ARRAY[${thermoIds.map((id) => `${aggregate}(${column}[${Math.trunc(id)}])`).join(', ')}]::text`;
    const scalar = (name: string) => `min(${name}_min) AS ${name}_min, max(${name}_max) AS ${name}_max, sum(${name}_sum) AS ${name}_sum, sum(${name}_n)::int AS ${name}_n`;
    const where = 'research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4 AND last_time <= $5';
    const rowsSql = whole
      ? `SELECT bucket::float8 AS grp, bucket::float8 AS last_bucket, frames, first_time, radiance_min, radiance_max, radiance_sum, radiance_n,
           pressure_min, pressure_max, pressure_sum, pressure_n, pk_min, pk_max, pk_sum, pk_n, t_min::text, t_max::text, t_sum::text, t_n::text
         FROM reading_rollup WHERE ${where} ORDER BY bucket`
      : `SELECT floor(bucket / $6::float8) AS grp, max(bucket)::float8 AS last_bucket, sum(frames)::int AS frames, min(first_time) AS first_time,
           ${scalar('radiance')}, ${scalar('pressure')}, ${scalar('pk')},
           ${pick('t_min', 'min')} AS t_min, ${pick('t_max', 'max')} AS t_max, ${pick('t_sum', 'sum')} AS t_sum, ${pick('t_n', 'sum')} AS t_n
         FROM reading_rollup WHERE ${where} GROUP BY 1 ORDER BY 1`;
    const groupBy = whole ? 1 : k;
    const [rows, categories]: [RollupRow[], CategoryRow[]] = await Promise.all([
      this.dataSource.query(rowsSql, whole ? [researchId, width, lo, hi, to] : [researchId, width, lo, hi, to, k]),
      this.dataSource.query(
        `SELECT floor(bucket / $6::float8) AS grp, type_name, min(cmax_min) AS cmax_min, max(cmax_max) AS cmax_max, sum(cmax_sum) AS cmax_sum, sum(cmax_n)::int AS cmax_n,
           min(cmean_min) AS cmean_min, max(cmean_max) AS cmean_max, sum(cmean_sum) AS cmean_sum, sum(cmean_n)::int AS cmean_n
         FROM reading_rollup_category c WHERE research_id = $1 AND width = $2 AND bucket BETWEEN $3 AND $4
           AND (bucket < $4 OR EXISTS (SELECT 1 FROM reading_rollup r WHERE r.research_id = $1 AND r.width = $2 AND r.bucket = $4 AND r.last_time <= $5))
         GROUP BY 1, 2`,
        [researchId, width, lo, hi, to, groupBy],
      ),
    ]);
    const byBucket = new Map<number, Map<string, { max: Stats; mean: Stats }>>();
    for (const c of categories) {
      let map = byBucket.get(c.grp);
      if (!map) byBucket.set(c.grp, (map = new Map()));
      map.set(c.type_name, {
        max: { min: c.cmax_min, max: c.cmax_max, sum: c.cmax_sum, n: c.cmax_n },
        mean: { min: c.cmean_min, max: c.cmean_max, sum: c.cmean_sum, n: c.cmean_n },
      });
    }
    const reader = new RealArrayReader();
    const read = (text: string | null) => (text === null ? null : Float64Array.from(reader.read(text)));
    return rows.map((r) => {
      const [tMin, tMax, tSum, tN] = [read(r.t_min), read(r.t_max), read(r.t_sum), read(r.t_n)];
      const channels = thermoIds.map((thermoId, position) => {
        const at = whole ? thermoId - 1 : position;
        const n = tN?.[at] ?? Number.NaN;
        return { thermoId, stats: n === n && n > 0 ? { min: tMin![at]!, max: tMax![at]!, sum: tSum![at]!, n } : EMPTY };
      });
      return {
        lastBucket: r.last_bucket,
        frames: r.frames,
        firstTime: r.first_time,
        radiance: { min: r.radiance_min, max: r.radiance_max, sum: r.radiance_sum, n: r.radiance_n },
        pressure: { min: r.pressure_min, max: r.pressure_max, sum: r.pressure_sum, n: r.pressure_n },
        pk: { min: r.pk_min, max: r.pk_max, sum: r.pk_sum, n: r.pk_n },
        channels,
        categories: byBucket.get(r.grp) ?? new Map(),
      };
    });
  }

  /** Thermocouple ids with at least one reading in the research (from its coarsest rollups). */
  async channelsWithReadings(researchId: string, width: number): Promise<number[]> {
    const rows: { id: number }[] = await this.dataSource.query(
      `SELECT DISTINCT u.i::int AS id FROM reading_rollup r CROSS JOIN LATERAL unnest(r.t_n) WITH ORDINALITY AS u(n, i)
       WHERE r.research_id = $1 AND r.width = $2 AND u.n > 0 ORDER BY 1`,
      [researchId, width],
    );
    return rows.map((r) => r.id);
  }
}

const EMPTY: Stats = { min: null, max: null, sum: 0, n: 0 };
/** Thermocouples picked element by element from the rollups' arrays (~9 ms each for 1 440 rows on the benchmark's loaded 2 cores); more: whole arrays (~600 ms there, whatever the number). */
const PICK_AT_MOST = 60;

interface RollupRow {
  grp: number;
  last_bucket: number;
  frames: number;
  first_time: number;
  radiance_min: number | null;
  radiance_max: number | null;
  radiance_sum: number;
  radiance_n: number;
  pressure_min: number | null;
  pressure_max: number | null;
  pressure_sum: number;
  pressure_n: number;
  pk_min: number | null;
  pk_max: number | null;
  pk_sum: number;
  pk_n: number;
  t_min: string | null;
  t_max: string | null;
  t_sum: string | null;
  t_n: string | null;
}

interface CategoryRow {
  grp: number;
  type_name: string;
  cmax_min: number | null;
  cmax_max: number | null;
  cmax_sum: number;
  cmax_n: number;
  cmean_min: number | null;
  cmean_max: number | null;
  cmean_sum: number;
  cmean_n: number;
}
