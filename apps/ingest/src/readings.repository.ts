import { DatabaseError, Pool, type PoolConfig } from 'pg';
import type { DaqPayload } from '@furnace/contracts';
import { categoryRollupCtes, channelRollupCtes } from '@furnace/db';

const ROLLUP_CTES = `${channelRollupCtes('src')},\n${categoryRollupCtes('src')}`;

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
   * Inserts frames, skipping those already stored (broker redelivery) and those whose research no
   * longer exists. `ts` is computed from the research's start_at, so it is fixed for a given
   * (research, time). Returns the keys actually written.
   */
  async insertFrames(frames: readonly FrameRow[]): Promise<Set<string>> {
    if (frames.length === 0) return new Set();
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const { researchId, payload, arrivedAt } of frames) {
      const n = values.length;
      tuples.push(
        `($${n + 1}::uuid, $${n + 2}::float8, $${n + 3}::timestamptz, $${n + 4}::real, $${n + 5}::real, $${n + 6}::real, $${n + 7}::real[], $${n + 8}::smallint[], $${n + 9}::timestamptz)`,
      );
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
    // ON CONFLICT without a target: the same statement works on the plain table (key research_id, time)
    // and on the TimescaleDB hypertable (key research_id, time, ts).
    // The rollups are updated by the same statement, from the rows it inserted (see @furnace/db rollups).
    const result = await this.pool.query<{ research_id: string; time: number }>(
      `WITH src AS (
         INSERT INTO reading (research_id, "time", ts, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         SELECT v.research_id, v.t, r.start_at + v.t * INTERVAL '1 second', v.daq_ts, v.radiance, v.pressure, v.pk, v.thermocouples, v.faults, v.received_at
         FROM (VALUES ${tuples.join(', ')}) AS v(research_id, t, daq_ts, radiance, pressure, pk, thermocouples, faults, received_at)
         JOIN research r ON r.id = v.research_id
         ON CONFLICT DO NOTHING
         RETURNING research_id, "time", radiance, pressure, pk, thermocouples),
       ${ROLLUP_CTES}
       SELECT research_id, "time" FROM src`,
      values,
    );
    return new Set(result.rows.map((row) => frameKey(row.research_id, Number(row.time))));
  }

  async insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void> {
    if (rows.length === 0) return;
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const row of rows) {
      const n = values.length;
      tuples.push(`($${n + 1}, $${n + 2}::uuid, $${n + 3}, $${n + 4}, $${n + 5}::bytea, $${n + 6}::int)`);
      values.push(row.topic, row.researchId, row.reason, row.detail, row.payload, row.payloadBytes);
    }
    await this.pool.query(
      `INSERT INTO reading_dead_letter (topic, research_id, reason, detail, payload, payload_bytes) VALUES ${tuples.join(', ')}`,
      values,
    );
  }

  /** Deletes the oldest dead letters beyond `keep`. */
  async pruneDeadLetters(keep: number): Promise<void> {
    await this.pool.query(
      `DELETE FROM reading_dead_letter
       WHERE id <= (SELECT id FROM reading_dead_letter ORDER BY id DESC OFFSET $1 LIMIT 1)`,
      [keep],
    );
  }

  async findResearch(id: string): Promise<ResearchWindow | null> {
    const result = await this.pool.query<{ start_at: Date; end_at: Date }>('SELECT start_at, end_at FROM research WHERE id = $1', [id]);
    const row = result.rows[0];
    return row ? { startAt: row.start_at, endAt: row.end_at } : null;
  }

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
