import { ConflictException, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { inRecordSession, inShortTransaction, type RecordQuery, readingsUnchanged } from '../review/raw-data';
import { FILE_BYTES, RECORD_ROWS, RECORD_STAMP } from './archive.queries';

/** A row of the record by column name, as `to_jsonb` writes it. */
export type JsonRow = Record<string, unknown>;

/** What the export reads: each call a short statement of its own (docs/behaviour.md, "The archive"). */
export interface RecordSnapshot {
  rows(part: keyof typeof RECORD_ROWS): Promise<JsonRow[]>;
  bytes(file: keyof typeof FILE_BYTES, id: string): Promise<Buffer>;
  /** A page of readings (READINGS_PAGE), in a short statement of its own. */
  query(sql: string, params: unknown[]): Promise<never[]>;
  /** The last reading's time when the export began: the end of its readings (null: none). */
  until: string | null;
  /**
   * Throws (409) if the record changed since the export began, or its readings up to `until` are no longer the `read`
   * it found (raw-data.ts readingsUnchanged): called before the manifest is written.
   */
  unchanged(read: number): Promise<void>;
}

/** What tells that a test's record changed: its approval, its row's last change and its audit trail's last entry. */
interface RecordStamp {
  approved_revision: number | null;
  updated_at: string;
  audit: string | null;
  last_time: string | null;
}

/** A statement of the import, run in the import's short transaction. */
export type ImportQuery = RecordQuery;

/**
 * The archive's database I/O. Nothing here holds a transaction for longer than one statement or one batch: on the
 * embedded PGlite (one database session for every connection) a transaction holds every other connection, the
 * ingest's included, until it ends (docs/architecture.md, "Two ways to run: embedded and services").
 */
@Injectable()
export class ArchiveRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs `work` over the research's record read in short statements, each in a transaction of its own, instead of one
   * snapshot: the record's stamp (its approval, its row's last change, its audit trail's last entry) is read before
   * `work` and again before its manifest (`unchanged`): a change in between fails the export (409) instead of giving a
   * record of two moments.
   * An approved test's record is frozen, so only a reopen changes it; a test not approved is read as it stands at the
   * start, its readings up to the last one stored then (and counted again at the end).
   */
  async snapshot<T>(researchId: string, work: (snapshot: RecordSnapshot) => Promise<T>): Promise<T> {
    const before = await this.stamp(researchId);
    const unchanged = async (read: number) => {
      await readingsUnchanged(
        (sql, params) => this.short((run) => run(sql, params)),
        researchId,
        before,
        read,
        'exported',
      );
      const after = await this.stamp(researchId);
      if (
        after.approved_revision !== before.approved_revision ||
        after.updated_at !== before.updated_at ||
        after.audit !== before.audit
      ) {
        throw new ConflictException(
          `the test's record changed while it was exported (revision ${before.approved_revision ?? 'none'} → ${after.approved_revision ?? 'none'}, ` +
            `audit entry ${before.audit ?? 'none'} → ${after.audit ?? 'none'}): export it again`,
        );
      }
    };
    return work({
      rows: async (part) =>
        ((await this.short((run) => run(RECORD_ROWS[part], [researchId]))) as { row: JsonRow }[]).map((r) => r.row),
      bytes: async (file, id) =>
        ((await this.short((run) => run(FILE_BYTES[file], [id]))) as { data: Buffer }[])[0]!.data,
      query: (sql, params) => this.short((run) => run(sql, params)) as Promise<never[]>,
      until: before.last_time,
      unchanged,
    });
  }

  private async stamp(researchId: string): Promise<RecordStamp> {
    const rows = (await this.short((run) => run(RECORD_STAMP, [researchId]))) as RecordStamp[];
    if (!rows[0]) throw new ConflictException('the test was deleted while it was exported');
    return rows[0];
  }

  /** One short transaction, its session set for the archive's text (floats, times: raw-data.ts). */
  short<T>(work: (run: ImportQuery) => Promise<T>): Promise<T> {
    return inShortTransaction(this.dataSource, work);
  }

  /** One statement on its own (no transaction around it, the session as it is). */
  run(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.dataSource.query(sql, params);
  }

  /** Runs `work` in one short transaction of the import, its session set as the export's. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return inRecordSession(this.dataSource, work);
  }

  /** The import's heartbeat: an import not touched for a while is one whose process died (`sweep`). */
  async touch(researchId: string): Promise<void> {
    await this.dataSource.query('UPDATE research_import SET touched_at = now() WHERE research_id = $1', [researchId]);
  }

  /**
   * Deletes an importing research and all it has, readings first a page at a time (each its own statement), then the
   * research (the rest of its record cascades). Only a research still marked importing: never a test that is visible.
   */
  async discard(researchId: string): Promise<void> {
    const importing = async () =>
      ((await this.dataSource.query('SELECT 1 FROM research_import WHERE research_id = $1', [researchId])) as unknown[])
        .length > 0;
    if (!(await importing())) return;
    for (;;) {
      const deleted = (await this.dataSource.query(
        `WITH gone AS (DELETE FROM reading WHERE research_id = $1 AND "time" IN (SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" LIMIT 500) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [researchId],
      )) as { n: number }[];
      if (deleted[0]!.n === 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.dataSource.transaction(async (em) => {
      const marked = (await em.query('SELECT 1 FROM research_import WHERE research_id = $1 FOR UPDATE', [
        researchId,
      ])) as unknown[];
      if (marked.length > 0) await em.query('DELETE FROM research WHERE id = $1', [researchId]);
    });
  }

  /** The researches of imports not touched for `staleSeconds`: their process died mid-import. */
  async staleImports(staleSeconds: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT research_id FROM research_import WHERE touched_at < now() - make_interval(secs => $1)`,
      [staleSeconds],
    )) as { research_id: string }[];
    return rows.map((r) => r.research_id);
  }

  async nameOf(researchId: string): Promise<string | null> {
    const rows: { name: string }[] = await this.dataSource.query(
      'SELECT name FROM research WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM research_import i WHERE i.research_id = $1)',
      [researchId],
    );
    return rows[0]?.name ?? null;
  }
}
