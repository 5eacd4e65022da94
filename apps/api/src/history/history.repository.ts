import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readIgnitionAt } from './ignition';
import type { CategoryMember } from './downsample';

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

  /** The distinct (thermo_id, type_name) pairs of the research's thermocouple configs. */
  async categoryMembers(researchId: string): Promise<CategoryMember[]> {
    const rows: { thermo_id: number; type_name: string }[] = await this.dataSource.query(
      `SELECT DISTINCT m.thermo_id, m.type_name FROM thermo_marker m JOIN thermo_config c ON c.id = m.config_id
       WHERE c.research_id = $1 ORDER BY m.type_name, m.thermo_id`,
      [researchId],
    );
    return rows.map((r) => ({ thermoId: r.thermo_id, typeName: r.type_name }));
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
}
