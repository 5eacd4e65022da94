import { createHash } from 'node:crypto';
import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isUuid } from '@furnace/contracts';
import {
  findResearchHeader,
  queryOn,
  ResearchDocumentEntity,
  ResearchEntity,
  ResearchRevisionEntity,
} from '@furnace/db';
import {
  hashRawData,
  inShortTransaction,
  type RawDataHash,
  type RawDataRow,
  type RecordQuery,
  readingsStart,
  readingsUnchanged,
} from './raw-data';
import { PART_RESEARCH, WITHDRAW_REVIEW } from './review.queries';

/** What a route that changes a research's record names: the research, or a part of it by its own id. */
export type RecordPart = 'research' | keyof typeof PART_RESEARCH;

/**
 * The hash's pages: the first of 100 readings, each next one sized to how long the last one's statement took (about
 * 250 kB of lines at 300 thermocouples; on PostgreSQL they grow toward the largest, about 12 MB).
 */
const RAW_DATA_PAGES = { min: 100, max: 5000 };

/** A document to store with a revision. */
export type NewDocument = Pick<ResearchDocumentEntity, 'kind' | 'lang' | 'filename' | 'data'>;

/** All database I/O of the review: the research's review columns, its revisions and their documents, the raw data's hash. */
@Injectable()
export class ReviewRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The research with its row locked until `em`'s transaction ends (an approval waits for a change in progress, and the other way round). */
  async lockResearch(id: string, em: EntityManager): Promise<ResearchEntity | null> {
    const rows: unknown[] = await em.query('SELECT id FROM research WHERE id = $1 FOR UPDATE', [id]);
    return rows.length === 0 ? null : em.findOneBy(ResearchEntity, { id });
  }

  async updateResearch(id: string, fields: Partial<ResearchEntity>, em: EntityManager): Promise<ResearchEntity> {
    await em.update(ResearchEntity, { id }, fields);
    return em.findOneByOrFail(ResearchEntity, { id });
  }

  async exists(researchId: string): Promise<boolean> {
    return (await findResearchHeader(queryOn(this.dataSource), researchId)) !== null;
  }

  /** The revision the research is approved as; null while it is not (or when there is no such research). */
  async approvedRevision(researchId: string): Promise<number | null> {
    const rows: { approved_revision: number | null }[] = await this.dataSource.query(
      'SELECT approved_revision FROM research WHERE id = $1',
      [researchId],
    );
    return rows[0]?.approved_revision ?? null;
  }

  async researchOf(part: RecordPart, id: unknown): Promise<string | null> {
    if (!isUuid(id)) return null;
    if (part === 'research') return id.toLowerCase();
    const rows: { research_id: string }[] = await this.dataSource.query(PART_RESEARCH[part], [id]);
    return rows[0]?.research_id ?? null;
  }

  /** Clears a review no approval followed; what it was, or null when there was none. */
  async withdrawReview(
    researchId: string,
    em: EntityManager,
  ): Promise<{ reviewed_by: string; reviewed_at: Date; review_comment: string | null } | null> {
    // TypeORM gives an UPDATE's rows as [rows, count].
    const [rows]: [{ reviewed_by: string; reviewed_at: Date; review_comment: string | null }[], number] =
      await em.query(WITHDRAW_REVIEW, [researchId]);
    return rows[0] ?? null;
  }

  /** The number the research's next approval gets: one more than its last revision's. */
  async nextRevision(researchId: string, em: EntityManager): Promise<number> {
    const rows: { last: number | null }[] = await em.query(
      'SELECT max(revision) AS last FROM research_revision WHERE research_id = $1',
      [researchId],
    );
    return (rows[0]?.last ?? 0) + 1;
  }

  async insertRevision(
    row: Omit<ResearchRevisionEntity, 'research' | 'dataSha256' | 'readings'>,
    em: EntityManager,
  ): Promise<void> {
    await em.insert(ResearchRevisionEntity, { ...row, dataSha256: null, readings: null });
  }

  /** The revision's raw data hash and its documents, stored together. */
  async completeRevision(
    researchId: string,
    revision: number,
    hash: RawDataHash,
    documents: NewDocument[],
    em: EntityManager,
  ): Promise<void> {
    await em.update(
      ResearchRevisionEntity,
      { researchId, revision },
      { dataSha256: hash.sha256, readings: hash.readings },
    );
    for (const d of documents) {
      await em.insert(ResearchDocumentEntity, {
        ...d,
        researchId,
        revision,
        size: d.data.length,
        sha256: createHash('sha256').update(d.data).digest('hex'),
      });
    }
  }

  /** Undoes an approval whose documents could not be issued: the revision goes, the research is reviewed again. */
  async undoApproval(researchId: string, revision: number): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.delete(ResearchRevisionEntity, { researchId, revision });
      await em.update(
        ResearchEntity,
        { id: researchId, approvedRevision: revision },
        { approvedRevision: null, approvedBy: null, approvedAt: null, approvalComment: null },
      );
    });
  }

  /** Every revision of the research, oldest first, with its documents (without their bytes). */
  async revisions(
    researchId: string,
  ): Promise<{ revision: ResearchRevisionEntity; documents: ResearchDocumentEntity[] }[]> {
    const [revisions, documents] = await Promise.all([
      this.dataSource.getRepository(ResearchRevisionEntity).find({ where: { researchId }, order: { revision: 'ASC' } }),
      this.dataSource
        .getRepository(ResearchDocumentEntity)
        .find({ where: { researchId }, order: { revision: 'ASC', kind: 'DESC', lang: 'DESC' } }),
    ]);
    return revisions.map((revision) => ({
      revision,
      documents: documents.filter((d) => d.revision === revision.revision),
    }));
  }

  /** A stored document with its bytes, or null. */
  document(researchId: string, revision: number, kind: string, lang: string): Promise<ResearchDocumentEntity | null> {
    return this.dataSource
      .getRepository(ResearchDocumentEntity)
      .createQueryBuilder('d')
      .addSelect('d.data')
      .where('d.research_id = :researchId AND d.revision = :revision AND d.kind = :kind AND d.lang = :lang', {
        researchId,
        revision,
        kind,
        lang,
      })
      .getOne();
  }

  /**
   * The raw data's SHA-256 (raw-data.ts), read a page of readings at a time, each page in a short statement of its
   * own and sized to STATEMENT_MS: never the whole test in memory, never a transaction held across pages. The readings
   * are those up to the last one stored when it began; unless the test was approved all along (its readings frozen),
   * they are counted again at the end, and a frame stored meanwhile among them fails it (409) instead of giving a hash
   * of two moments. `signal` stops it between pages.
   */
  async rawDataHash(
    researchId: string,
    { sized = RAW_DATA_PAGES, signal }: { sized?: { min: number; max: number }; signal?: AbortSignal } = {},
  ): Promise<RawDataHash> {
    const query = (sql: string, params?: unknown[]) => this.short((run) => run(sql, params));
    const start = await readingsStart(query, researchId);
    if (!start) throw new NotFoundException('Research not found');
    const hash = await hashRawData(query as (sql: string, params: unknown[]) => Promise<RawDataRow[]>, researchId, {
      sized,
      until: start.last_time,
      signal,
    });
    await readingsUnchanged(query, researchId, start, hash.readings, 'hashed');
    return hash;
  }

  /** One short transaction (raw-data.ts). */
  short<T>(work: (run: RecordQuery) => Promise<T>): Promise<T> {
    return inShortTransaction(this.dataSource, work);
  }
}
