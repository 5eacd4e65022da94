import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { findResearchHeader, lastFrameTime, queryOn } from '@furnace/db';
import * as sql from './history.queries';
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

/**
 * All database I/O of the history. Plain SQL that runs the same on PostgreSQL, TimescaleDB and
 * PGlite, and nothing needs an explicit transaction (the embedded PGlite multiplexes one session).
 * The downsampling itself is not here: it folds the frames as they are read (downsample.ts).
 */
@Injectable()
export class HistoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async research(id: string): Promise<{ name: string } | null> {
    const research = await findResearchHeader(queryOn(this.dataSource), id);
    return research && { name: research.name };
  }

  lastTime(researchId: string): Promise<number | null> {
    return lastFrameTime(queryOn(this.dataSource), researchId);
  }

  async countFrames(researchId: string, range: Range): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(sql.COUNT_FRAMES, [researchId, range.from, range.to]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * The distinct (thermo_id, type_name) pairs of the research's thermocouple configs, each with the
   * time its thermocouple is excluded from (the earliest of its exclusions; none: null).
   */
  async categoryMembers(researchId: string): Promise<CategoryMember[]> {
    const rows: { thermo_id: number; type_name: string; excluded_from: number | null }[] = await this.dataSource.query(
      sql.CATEGORY_MEMBERS,
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
    return this.dataSource.query(sql.framesPage(after !== null), [researchId, after ?? range.from, range.to, limit]);
  }

  /** The channels the ingest flagged out of range in the range, each with its first and last flagged frame. */
  async faults(
    researchId: string,
    range: Range,
  ): Promise<{ thermo_id: number; first_time: number; last_time: number; frames: number }[]> {
    const rows: { thermo_id: number; first_time: number; last_time: number; frames: string }[] =
      await this.dataSource.query(sql.FAULTS, [researchId, range.from, range.to]);
    return rows.map((r) => ({
      thermo_id: Number(r.thermo_id),
      first_time: r.first_time,
      last_time: r.last_time,
      frames: Number(r.frames),
    }));
  }

  /** Wall-clock time of ignition from the frames' own timestamps (see readIgnitionAt). */
  ignitionAt(researchId: string): Promise<Date | null> {
    return readIgnitionAt(this.dataSource, researchId);
  }

  /** Most thermocouple channels in one frame of the range (the exports' column count). */
  async maxChannels(researchId: string, range: Range): Promise<number> {
    const rows: { n: number | null }[] = await this.dataSource.query(sql.MAX_CHANNELS, [
      researchId,
      range.from,
      range.to,
    ]);
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
    const groupBy = whole ? 1 : k;
    const [rows, categories]: [RollupRow[], CategoryRow[]] = await Promise.all([
      this.dataSource.query(
        sql.rollupRows(whole, thermoIds),
        whole ? [researchId, width, lo, hi, to] : [researchId, width, lo, hi, to, k],
      ),
      this.dataSource.query(sql.ROLLUP_CATEGORIES, [researchId, width, lo, hi, to, groupBy]),
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
    const rows: { id: number }[] = await this.dataSource.query(sql.CHANNELS_WITH_READINGS, [researchId, width]);
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
