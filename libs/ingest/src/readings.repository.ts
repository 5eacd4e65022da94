import { DatabaseError, Pool, type PoolClient, type PoolConfig, types } from 'pg';
import type { DaqPayload } from '@furnace/contracts';
import { findResearchHeader, type RunQuery } from '@furnace/db';
import {
  DEAD_LETTER_TUPLE,
  FRAME_TUPLE,
  FURNACE_SCHEDULE_SQL,
  FURNACE_TEST_AT_SQL,
  insertDeadLettersSql,
  insertFramesSql,
  insertUnassignedSql,
  PRUNE_DEAD_LETTERS,
  ROLLUP_MEMBERS_SQL,
  UNASSIGNED_TUPLE,
  UPSERT_ROLLUPS_SQL,
} from './readings.queries';
import type { FurnaceSchedule, ScheduledTest } from './furnace-directory';
import {
  foldCategoryRollups,
  foldChannelRollups,
  type InsertedFrame,
  realArrayParser,
  rollupParameters,
  type RollupMember,
} from './rollup-fold';

/** A frame on its way to the readings table. */
export interface FrameRow {
  researchId: string;
  payload: DaqPayload;
  /** The ingest's wall clock when the frame arrived (stored as received_at: the history's time of day without a DAQ `ts`). */
  arrivedAt?: Date;
}

/** A frame of a furnace's DAQ that no test was scheduled for at its time: on its way to furnace_reading. */
export interface UnassignedRow {
  furnaceCode: string;
  /** The frame's time (the DAQ's `ts`, else its arrival). */
  at: Date;
  payload: DaqPayload;
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
  /** The keys (unassignedKey) of the unassigned frames written. */
  unassigned?: Set<string>;
}

/** `research_id|time`: the key a frame is stored under. */
export const frameKey = (researchId: string, time: number) => `${researchId}|${time}`;

/** `code|epoch ms`: the key an unassigned frame is stored under. */
export const unassignedKey = (furnaceCode: string, at: number) => `${furnaceCode}|${at}`;

/** The index of each key's first frame in a batch. */
function sentFrames(frames: readonly FrameRow[]): Map<string, number> {
  const sent = new Map<string, number>();
  frames.forEach((f, i) => {
    const key = frameKey(f.researchId, f.payload.time);
    if (!sent.has(key)) sent.set(key, i);
  });
  return sent;
}

/**
 * A real[] parameter as PostgreSQL's array literal (`{21.4,NULL,22}`). Given the JavaScript array,
 * the driver quotes and escapes every element, a third of the ingest's CPU time with 300
 * thermocouples a frame; the values are validated finite numbers or null, so they need neither.
 * JSON.stringify writes each number as String does, twice as fast as concatenating them.
 */
export function realArrayLiteral(values: readonly (number | null)[]): string {
  const json = JSON.stringify(values);
  const elements = json.slice(1, -1);
  return `{${json.includes('null') ? elements.replaceAll('null', 'NULL') : elements}}`;
}

/** The type OID of real[] (float4[]). */
const REAL_ARRAY_OID: number = 1021;

/** The driver's parsers, but a real[] of the rows an insert returns stays PostgreSQL's text (compared with what was sent). */
const INSERT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === REAL_ARRAY_OID && (format ?? 'text') === 'text'
      ? (text: string) => text
      : types.getTypeParser(oid, format ?? 'text')) as typeof types.getTypeParser,
};

/** A real[] as PostgreSQL prints it, read as float8 values (rollup-fold.ts realArrayParser). */
const parseRealArray = realArrayParser(types.getTypeParser(REAL_ARRAY_OID, 'text') as (text: string) => unknown);

type InsertedRow = Omit<InsertedFrame, 'thermocouples'> & {
  thermocouples: string | null;
  approved_revision: number | null;
};

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
   * In one transaction with the frames, the rollups: the rows the insert returned are folded here
   * (rollup-fold.ts) and the partial buckets upserted (docs/architecture.md, "A reading's way from the furnace to a viewer's chart").
   * A furnace's unassigned frames (`unassigned`) go to furnace_reading in the same transaction.
   */
  async insertFrames(frames: readonly FrameRow[], unassigned: readonly UnassignedRow[] = []): Promise<StoredFrames> {
    if (unassigned.length > 0) {
      return this.transaction(async (client) => {
        const stored = frames.length > 0 ? await this.insertResearchFrames(client, frames) : emptyStored();
        stored.unassigned = await this.insertUnassigned(client, unassigned);
        return stored;
      });
    }
    if (frames.length === 0) return emptyStored();
    return this.transaction((client) => this.insertResearchFrames(client, frames));
  }

  /** Unassigned frames, in the caller's transaction; the keys of those written. */
  private async insertUnassigned(client: PoolClient, rows: readonly UnassignedRow[]): Promise<Set<string>> {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const { furnaceCode, at, payload, arrivedAt } of rows) {
      tuples.push(UNASSIGNED_TUPLE(values.length));
      values.push(
        furnaceCode,
        at,
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
    const result = await client.query<{ code: string; at: number }>(insertUnassignedSql(tuples), values);
    return new Set(result.rows.map((r) => unassignedKey(r.code, r.at)));
  }

  private async insertResearchFrames(client: PoolClient, frames: readonly FrameRow[]): Promise<StoredFrames> {
    const values: unknown[] = [];
    const tuples: string[] = [];
    const literals: (string | null)[] = [];
    for (const { researchId, payload, arrivedAt } of frames) {
      const n = values.length;
      const literal = payload.thermocouples_out ? realArrayLiteral(payload.thermocouples_out) : null;
      literals.push(literal);
      tuples.push(FRAME_TUPLE(n));
      values.push(
        researchId,
        payload.time,
        payload.ts ?? null,
        payload.radiance ?? null,
        payload.pressure ?? null,
        payload.pk ?? null,
        literal,
        payload.faults ? `{${payload.faults.join(',')}}` : null,
        arrivedAt ?? null,
      );
    }
    const researches = [...new Set(frames.map((f) => f.researchId))];
    const members = (await client.query<RollupMember>(ROLLUP_MEMBERS_SQL, [researches])).rows;
    const insert = client.query<InsertedRow>({ text: insertFramesSql(tuples), values, types: INSERT_TYPES });
    insert.catch(() => undefined); // awaited below; a failure must not go unhandled while the batch is folded
    // While PostgreSQL inserts: the batch folded as if every frame were stored as sent, the usual case.
    const asSent = frames.map(({ researchId, payload }) => ({
      research_id: researchId,
      time: payload.time,
      radiance: payload.radiance ?? null,
      pressure: payload.pressure ?? null,
      pk: payload.pk ?? null,
      thermocouples: payload.thermocouples_out ?? null,
    }));
    const folded = rollupParameters(foldChannelRollups(asSent), foldCategoryRollups(asSent, members));
    const result = await insert;
    const stored: StoredFrames = { inserted: new Set(), approved: new Map() };
    const inserted: InsertedFrame[] = [];
    const sent = sentFrames(frames);
    let asSentHolds = true;
    for (const row of result.rows) {
      if (row.approved_revision !== null) {
        stored.approved.set(row.research_id, row.approved_revision);
        continue;
      }
      const key = frameKey(row.research_id, row.time);
      stored.inserted.add(key);
      // PostgreSQL printed the stored values as sent (values a real keeps as they are, as DAQs send them): the
      // payload's numbers are what `::text::float8` reads; else the printed text is parsed.
      const i = sent.get(key);
      const frame = i === undefined ? undefined : asSent[i];
      const exact =
        frame !== undefined &&
        row.thermocouples === literals[i!] &&
        row.radiance === frame.radiance &&
        row.pressure === frame.pressure &&
        row.pk === frame.pk;
      asSentHolds &&= exact;
      inserted.push(
        exact
          ? frame
          : {
              ...row,
              thermocouples:
                row.thermocouples === null ? null : (parseRealArray(row.thermocouples) as (number | null)[]),
            },
      );
    }
    if (inserted.length > 0) {
      // Every frame stored, once, with the values sent: the fold made during the insert is the rollups'.
      const parameters =
        asSentHolds && inserted.length === frames.length
          ? folded
          : rollupParameters(foldChannelRollups(inserted), foldCategoryRollups(inserted, members));
      await client.query(UPSERT_ROLLUPS_SQL, parameters);
    }
    return stored;
  }

  /** `work` in a transaction on one connection: committed if it resolves, rolled back if it throws (a connection in doubt is discarded). */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A timeout or a lost connection leaves the session in an unknown state: not back to the pool.
      if (error instanceof DatabaseError) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      else broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
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

  /** The furnace of `code` and its tests ending after `since` (FurnaceDirectory), or null when no furnace has that code. */
  async findFurnaceSchedule(code: string, since: Date): Promise<FurnaceSchedule | null> {
    const rows = (
      await this.pool.query<{ furnace_id: string; research_id: string | null; start_at: Date; end_at: Date }>(
        FURNACE_SCHEDULE_SQL,
        [code, since],
      )
    ).rows;
    if (rows.length === 0) return null;
    const tests: ScheduledTest[] = [];
    for (const r of rows) {
      if (r.research_id !== null)
        tests.push({ researchId: r.research_id, startAt: r.start_at.getTime(), endAt: r.end_at.getTime() });
    }
    return { furnaceId: rows[0]!.furnace_id, tests, since: since.getTime() };
  }

  /** The test scheduled on the furnace at `at`, for a frame older than the cached schedule. */
  async findFurnaceTestAt(furnaceId: string, at: Date): Promise<string | null> {
    const rows = (await this.pool.query<{ id: string }>(FURNACE_TEST_AT_SQL, [furnaceId, at])).rows;
    return rows[0]?.id ?? null;
  }

  private readonly run: RunQuery = async <T>(sql: string, params: unknown[]) =>
    (await this.pool.query(sql, params)).rows as T[];

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

function emptyStored(): StoredFrames {
  return { inserted: new Set(), approved: new Map() };
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
