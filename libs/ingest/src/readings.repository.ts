import { DatabaseError, Pool, type PoolConfig } from 'pg';
import type { DaqPayload } from '@furnace/contracts';
import { findResearchHeader, type RunQuery } from '@furnace/db';
import { DEAD_LETTER_TUPLE, FRAME_TUPLE, insertDeadLettersSql, insertFramesSql, PRUNE_DEAD_LETTERS } from './readings.queries';

/** A frame on its way to the readings table. */
export interface FrameRow {
  researchId: string;
  payload: DaqPayload;
  /** The ingest's wall clock when the frame arrived (stored as received_at: the history's time of day without a DAQ `ts`). */
  arrivedAt?: Date;
}

export interface DeadLetterRow {
  topic: string;
  researchId: string | null;
  reason: string;
  detail: string;
  payload: Buffer;
  payloadBytes: number;
}

export interface ResearchWindow {
  startAt: Date;
  endAt: Date;
}

/** What a write did with its frames. */
export interface StoredFrames {
  /** The keys (frameKey) of the frames written. */
  inserted: Set<string>;
  /** The researches of the batch that are approved, with their revision: their frames were not written. */
  approved: Map<string, number>;
}

/** `research_id|time`: the key a frame is stored under. */
export const frameKey = (researchId: string, time: number) => `${researchId}|${time}`;

/**
 * A real[] parameter as PostgreSQL's array literal (`{21.4,NULL,22}`). Given the JavaScript array,
 * the driver quotes and escapes every element, a third of the ingest's CPU time with 300
 * thermocouples a frame; the values are validated finite numbers or null, so they need neither.
 */
export function realArrayLiteral(values: readonly (number | null)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    literal += (i > 0 ? ',' : '') + (v === null || v === undefined ? 'NULL' : String(v));
  }
  return `${literal}}`;
}

/** All database I/O of the ingest, on a pool of its own (short timeouts: a stuck database must not stall the ingest). */
export class ReadingsRepository {
  private readonly pool: Pool;

  constructor(url: string, options: Pick<PoolConfig, 'max' | 'query_timeout' | 'connectionTimeoutMillis'> = {}) {
    this.pool = new Pool({
      connectionString: url,
      max: options.max ?? 3,
      application_name: 'furnace-ingest',
      // A write that takes longer is treated as an outage: its frames go to viewers and the buffer
      // instead of waiting on a database that does not answer (a batch insert normally takes ms).
      query_timeout: options.query_timeout ?? 5_000,
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
      keepAlive: true,
    });
    // An idle connection that dies (database restarted) is reported here; without a listener it would crash the process.
    this.pool.on('error', () => undefined);
  }

  /**
   * Inserts frames, skipping those already stored (broker redelivery), those whose research no
   * longer exists and those of an approved research. `ts` is computed from the research's start_at, so it
   * is fixed for a given (research, time). Returns the keys actually written and the approved researches.
   */
  async insertFrames(frames: readonly FrameRow[]): Promise<StoredFrames> {
    if (frames.length === 0) return { inserted: new Set(), approved: new Map() };
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const { researchId, payload, arrivedAt } of frames) {
      const n = values.length;
      tuples.push(FRAME_TUPLE(n));
      values.push(
        researchId,
        payload.time,
        payload.ts ?? null,
        payload.radiance ?? null,
        payload.pressure ?? null,
        payload.pk ?? null,
        payload.thermocouples_out ? realArrayLiteral(payload.thermocouples_out) : null,
        payload.faults ? `{${payload.faults.join(',')}}` : null,
        arrivedAt ?? null,
      );
    }
    const result = await this.pool.query<{ research_id: string; time: number | null; approved_revision: number | null }>(insertFramesSql(tuples), values);
    const stored: StoredFrames = { inserted: new Set(), approved: new Map() };
    for (const row of result.rows) {
      if (row.approved_revision !== null) stored.approved.set(row.research_id, row.approved_revision);
      else stored.inserted.add(frameKey(row.research_id, Number(row.time)));
    }
    return stored;
  }

  async insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void> {
    if (rows.length === 0) return;
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const row of rows) {
      const n = values.length;
      tuples.push(DEAD_LETTER_TUPLE(n));
      values.push(row.topic, row.researchId, row.reason, row.detail, row.payload, row.payloadBytes);
    }
    await this.pool.query(insertDeadLettersSql(tuples), values);
  }

  /** Deletes the oldest dead letters beyond `keep`. */
  async pruneDeadLetters(keep: number): Promise<void> {
    await this.pool.query(PRUNE_DEAD_LETTERS, [keep]);
  }

  async findResearch(id: string): Promise<ResearchWindow | null> {
    const research = await findResearchHeader(this.run, id);
    return research && { startAt: research.startAt, endAt: research.endAt };
  }

  private readonly run: RunQuery = async <T>(sql: string, params: unknown[]) => (await this.pool.query(sql, params)).rows as T[];

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/**
 * True for failures that say nothing about the frames (connection lost, timeout, server starting or
 * shutting down, schema not migrated yet): the batch is retried as it is. Anything else (a value the
 * column refuses) is about a frame, and retrying the batch unchanged would fail forever.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  // Socket errors (ECONNREFUSED, ECONNRESET…) and timeouts are not errors the server reported.
  if (!(error instanceof DatabaseError)) return true;
  const code = error.code ?? '';
  return ['08', '53', '57', '58', '40', 'XX'].includes(code.slice(0, 2)) || code === '42P01';
}
