import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { FILE_BYTES, RECORD_ROWS } from './archive.queries';

/** A row of the record by column name, as `to_jsonb` writes it. */
export type JsonRow = Record<string, unknown>;

/** What the export reads, all in one snapshot. */
export interface RecordSnapshot {
  rows(part: keyof typeof RECORD_ROWS): Promise<JsonRow[]>;
  bytes(file: keyof typeof FILE_BYTES, id: string): Promise<Buffer>;
  query(sql: string, params: unknown[]): Promise<never[]>;
}

/** The archive's database I/O: the export's read-only snapshot, the import's transaction. */
@Injectable()
export class ArchiveRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Runs `work` over the research in one read-only REPEATABLE READ snapshot of the database: the archive holds one moment of the test,
   * its manifest's hashes included. Floats as the raw data's hash writes them, times in UTC.
   */
  async snapshot<T>(researchId: string, work: (snapshot: RecordSnapshot) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      await runner.query('SET TRANSACTION READ ONLY');
      await runner.query('SET LOCAL extra_float_digits = 1');
      await runner.query(`SET LOCAL TimeZone = 'UTC'`);
      const result = await work({
        rows: async (part) => ((await runner.query(RECORD_ROWS[part], [researchId])) as { row: JsonRow }[]).map((r) => r.row),
        bytes: async (file, id) => ((await runner.query(FILE_BYTES[file], [id])) as { data: Buffer }[])[0]!.data,
        query: (sql, params) => runner.query(sql, params),
      });
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  /** Runs the import in one transaction, its session set as the export's: nothing of a refused archive stays. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (em) => {
      await em.query('SET LOCAL extra_float_digits = 1');
      await em.query(`SET LOCAL TimeZone = 'UTC'`);
      return work(em);
    });
  }

  async nameOf(researchId: string): Promise<string | null> {
    const rows: { name: string }[] = await this.dataSource.query('SELECT name FROM research WHERE id = $1', [researchId]);
    return rows[0]?.name ?? null;
  }
}
