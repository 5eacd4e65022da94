import { createHash } from 'node:crypto';
import { ConflictException } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { nextStatementSize } from '@furnace/db';
import { RAW_DATA_PAGE, READINGS_END, READINGS_START } from './review.queries';

/**
 * The raw data's hash (docs/behaviour.md, "The permanent record", 13.6) and how a test's readings are read for it
 * without holding a transaction: in short statements, each in a transaction of its own. On the embedded PGlite (one
 * database session for every connection) an open transaction holds every other connection, the ingest's included,
 * until it ends (docs/architecture.md, "Two ways to run: embedded and services"), so no read of a long test is one
 * snapshot: the approval's hash, `GET …/verify`, the archive's export and its import all read this way.
 */

/** A statement: its rows. */
export type RecordQuery = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/** A page's row: the time (for the next page), the hash's line, and what else the page's query selected. */
export interface RawDataRow {
  t: string;
  line: string;
  rest?: string;
}

/** The raw data's hash: its SHA-256 (hex) and how many readings it covers. */
export interface RawDataHash {
  sha256: string;
  readings: number;
}

/** Every short statement's session: floats as the raw data's hash writes them, times in UTC (one simple query). */
const SESSION = `SET LOCAL extra_float_digits = 1; SET LOCAL TimeZone = 'UTC'`;

/** `work` in one transaction whose session writes floats and times as the raw data and the archive do. */
export function inRecordSession<T>(dataSource: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (em) => {
    await em.query(SESSION);
    return work(em);
  });
}

/** `work`'s statements in one short transaction of inRecordSession. */
export function inShortTransaction<T>(dataSource: DataSource, work: (run: RecordQuery) => Promise<T>): Promise<T> {
  return inRecordSession(dataSource, (em) => work((sql, params) => em.query(sql, params) as Promise<unknown[]>));
}

/** Where a read of a test's readings began: its approval then, and its last reading's time (the read's end). */
export interface ReadingsStart {
  approved_revision: number | null;
  last_time: string | null;
}

/** Where a read of the research's readings begins (null: there is no such research). */
export async function readingsStart(query: RecordQuery, researchId: string): Promise<ReadingsStart | null> {
  const rows = (await query(READINGS_START, [researchId])) as ReadingsStart[];
  return rows[0] ?? null;
}

/**
 * Throws (409) unless the readings up to `start`'s last one are those the read found, `read` of them: an approved
 * test's are frozen (the ingest stores none, docs/behaviour.md 13.4), so one approved at the start and still by the
 * same approval needs no count; any other is counted again, for a frame stored meanwhile before the read's end (a
 * late frame, frames attached from the furnace's unassigned ones). `what` says what read them ("exported", "hashed").
 */
export async function readingsUnchanged(
  query: RecordQuery,
  researchId: string,
  start: ReadingsStart,
  read: number,
  what: string,
): Promise<void> {
  const rows = (await query(READINGS_END, [researchId, start.approved_revision, start.last_time ?? '-Infinity'])) as {
    approved_revision: number | null;
    readings: number | null;
  }[];
  const end = rows[0];
  if (!end) throw new ConflictException(`the test was deleted while its readings were ${what}`);
  if (end.readings !== null && end.readings !== read) {
    throw new ConflictException(
      `the test's readings changed while they were ${what}: ${read} read up to time ${start.last_time ?? 'none'}, ` +
        `${end.readings} stored there now; try again`,
    );
  }
}

/**
 * The raw data's hash over the pages `query` reads: the readings after `-Infinity` up to `until` (the last reading's
 * time when the read began; none: all), each page a statement of its own. `pageQuery` selects at least
 * RAW_DATA_PAGE's `t` and `line`, with the same parameters; `page` gets each page's rows (the archive's export writes
 * them out as it hashes them).
 */
export async function hashRawData(
  query: (sql: string, params: unknown[]) => Promise<RawDataRow[]>,
  researchId: string,
  {
    pageSize = 5000,
    sized,
    until = 'Infinity',
    signal,
    pageQuery = RAW_DATA_PAGE,
    page,
  }: {
    pageSize?: number;
    /**
     * Instead of `pageSize`: the first page is `min`, each next one sized to how long the last one's statement took
     * (STATEMENT_MS, @furnace/db statement-size.ts), within these bounds.
     */
    sized?: { min: number; max: number };
    until?: string | null;
    signal?: AbortSignal;
    pageQuery?: string;
    page?: (rows: RawDataRow[]) => Promise<void>;
  } = {},
): Promise<RawDataHash> {
  const hash = createHash('sha256');
  let after = '-Infinity';
  let readings = 0;
  let size = sized?.min ?? pageSize;
  for (;;) {
    signal?.throwIfAborted();
    const started = performance.now();
    const rows = await query(pageQuery, [researchId, after, size, until ?? '-Infinity']);
    const took = performance.now() - started;
    for (const row of rows) hash.update(`${row.line}\n`);
    readings += rows.length;
    if (page && rows.length > 0) await page(rows);
    if (rows.length < size) break;
    after = rows[rows.length - 1]!.t;
    if (sized) size = nextStatementSize(size, took, sized.min, sized.max);
  }
  return { sha256: hash.digest('hex'), readings };
}
