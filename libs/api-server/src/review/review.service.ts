import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResearchEntity, UserEntity } from '@furnace/db';
import { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/principal';
import type { IssuedStamp } from '../report/report-layout';
import { REPORT_LANGS } from '../report/report-text';
import { ReportService } from '../report/report.service';
import { ResearchEvents } from '../research/research-events';
import { researchState } from '../research/research-state';
import { frozenMessage } from './record-freeze';
import type { RawDataHash } from './raw-data';
import { type NewDocument, ReviewRepository } from './review.repository';

const sameEmail = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** "raport-Ściana.pdf" → "raport-Ściana-rev2.pdf": each revision's file under a name of its own. */
const withRevision = (filename: string, revision: number) => filename.replace(/\.pdf$/, `-rev${revision}.pdf`);

/** What the revision check of one revision says. */
export interface RevisionCheck {
  revision: number;
  dataSha256: string | null;
  readings: number | null;
  matches: boolean;
}

/**
 * The test's life after it ends (docs/behaviour.md, "The permanent record"): staff review it, another member of
 * staff approves it (which freezes its record and issues its documents as a revision), a superuser reopens it.
 * Each step locks the research's row, so two of them never cross, and writes its audit entry in its transaction.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly repo: ReviewRepository,
    private readonly audit: AuditService,
    private readonly events: ResearchEvents,
    private readonly reports: ReportService,
  ) {}

  /** Reviewed by `user`: once the test has ended, and not again until a change withdraws the review or a reopening. */
  async review(researchId: string, user: UserEntity, comment: string | null): Promise<ResearchEntity> {
    const reviewed = await this.repo.transaction(async (em) => {
      const research = await this.locked(researchId, em);
      const state = researchState(research);
      if (state === 'approved') throw new ConflictException(frozenMessage(research.approvedRevision!));
      if (state === 'reviewed') {
        throw new ConflictException(
          `the test is already reviewed, by ${research.reviewedBy}: another member of staff approves it, or a change to its record withdraws the review`,
        );
      }
      if (state !== 'ended') {
        throw new ConflictException(
          `the test has not ended (it is ${state}): it is reviewed once its scheduled end has passed or a test_stopped observation is recorded`,
        );
      }
      const updated = await this.repo.updateResearch(
        researchId,
        { reviewedBy: user.email, reviewedAt: new Date(), reviewComment: comment },
        em,
      );
      await this.audit.record(
        {
          actor: user.email,
          researchId,
          entity: 'review',
          entityId: researchId,
          action: 'review',
          after: reviewValues(updated),
        },
        em,
      );
      return updated;
    });
    await this.events.changed(researchId, 'RESEARCH');
    return reviewed;
  }

  /**
   * Approved by `user`, who is not its reviewer: the record is frozen from the moment the approval is stored, then
   * the raw data is hashed and report.pdf and classification.pdf (Polish and English) are made once and stored with
   * the revision. When they cannot be made the approval is undone (the test is reviewed again) and the error stands.
   */
  async approve(
    researchId: string,
    user: UserEntity,
    comment: string | null,
    principal: Principal,
  ): Promise<ResearchEntity> {
    const { research, revision } = await this.repo.transaction(async (em) => {
      const r = await this.locked(researchId, em);
      const state = researchState(r);
      if (state === 'approved') throw new ConflictException(frozenMessage(r.approvedRevision!));
      if (state !== 'reviewed')
        throw new ConflictException(`the test must be reviewed before it is approved: it is ${state}`);
      if (sameEmail(r.reviewedBy, user.email)) {
        throw new ConflictException(
          `the approver must not be the reviewer: ${r.reviewedBy} reviewed this test, so another member of staff approves it`,
        );
      }
      const next = await this.repo.nextRevision(researchId, em);
      const approvedAt = new Date();
      const updated = await this.repo.updateResearch(
        researchId,
        { approvedBy: user.email, approvedAt, approvalComment: comment, approvedRevision: next },
        em,
      );
      await this.repo.insertRevision(
        {
          researchId,
          revision: next,
          reviewedBy: r.reviewedBy!,
          reviewedAt: r.reviewedAt!,
          reviewComment: r.reviewComment,
          approvedBy: user.email,
          approvedAt,
          approvalComment: comment,
        },
        em,
      );
      return { research: updated, revision: next };
    });
    try {
      const hash = await this.repo.rawDataHash(researchId);
      const documents = await this.issue(research, hash, principal);
      await this.repo.transaction(async (em) => {
        await this.repo.completeRevision(researchId, revision, hash, documents, em);
        await this.audit.record(
          {
            actor: user.email,
            researchId,
            entity: 'review',
            entityId: researchId,
            action: 'approve',
            // Before the approval the test was not approved: the approval's fields were empty (the review stays as it was).
            before: { revision: null, approved_by: null, approved_at: null, approval_comment: null },
            after: { ...approvalValues(research), data_sha256: hash.sha256, readings: hash.readings },
          },
          em,
        );
      });
    } catch (error) {
      await this.repo.undoApproval(researchId, revision);
      throw error;
    }
    await this.events.changed(researchId, 'RESEARCH');
    return research;
  }

  /** A superuser reopens an approved test, saying why: back to ended, its record open; its revisions stay. */
  async reopen(researchId: string, user: UserEntity, reason: string): Promise<ResearchEntity> {
    const reopened = await this.repo.transaction(async (em) => {
      const r = await this.locked(researchId, em);
      if (r.approvedRevision === null)
        throw new ConflictException(`only an approved test is reopened: this one is ${researchState(r)}`);
      const before = { ...reviewValues(r), ...approvalValues(r) };
      const updated = await this.repo.updateResearch(
        researchId,
        {
          reviewedBy: null,
          reviewedAt: null,
          reviewComment: null,
          approvedBy: null,
          approvedAt: null,
          approvalComment: null,
          approvedRevision: null,
          reopenedBy: user.email,
          reopenedAt: new Date(),
          reopenReason: reason,
        },
        em,
      );
      await this.audit.record(
        {
          actor: user.email,
          researchId,
          entity: 'review',
          entityId: researchId,
          action: 'reopen',
          before,
          after: { reason },
        },
        em,
      );
      return updated;
    });
    await this.events.changed(researchId, 'RESEARCH');
    return reopened;
  }

  async revisions(researchId: string): Promise<Awaited<ReturnType<ReviewRepository['revisions']>>> {
    await this.exists(researchId);
    return this.repo.revisions(researchId);
  }

  /** The raw data hashed again from the stored readings, against what each revision was approved with. */
  async verify(
    researchId: string,
    signal?: AbortSignal,
  ): Promise<{ hash: RawDataHash; at: Date; revisions: RevisionCheck[] }> {
    await this.exists(researchId);
    const hash = await this.repo.rawDataHash(researchId, { signal });
    const revisions = await this.repo.revisions(researchId);
    return {
      hash,
      at: new Date(),
      revisions: revisions.map(({ revision: r }) => ({
        revision: r.revision,
        dataSha256: r.dataSha256,
        readings: r.readings,
        matches: r.dataSha256 === hash.sha256,
      })),
    };
  }

  /** report.pdf and classification.pdf in each language, stamped with the revision on every page. */
  private async issue(research: ResearchEntity, hash: RawDataHash, principal: Principal): Promise<NewDocument[]> {
    const revision = research.approvedRevision!;
    const approvedAt = research.approvedAt!;
    const issued: IssuedStamp = {
      revision,
      reviewedBy: research.reviewedBy!,
      reviewedAt: research.reviewedAt!,
      approvedBy: research.approvedBy!,
      approvedAt,
      dataSha256: hash.sha256,
    };
    const documents: NewDocument[] = [];
    for (const lang of REPORT_LANGS) {
      const report = await this.reports.reportPdf(research.id, lang, principal, { now: approvedAt, issued });
      documents.push({
        kind: 'report',
        lang,
        filename: withRevision(report.filename.utf8, revision),
        data: report.pdf,
      });
      const classification = await this.reports.classificationPdf(research.id, lang, principal, {
        now: approvedAt,
        issued,
      });
      documents.push({
        kind: 'classification',
        lang,
        filename: withRevision(classification.filename.utf8, revision),
        data: classification.pdf,
      });
    }
    return documents;
  }

  private async locked(researchId: string, em: EntityManager): Promise<ResearchEntity> {
    const research = await this.repo.lockResearch(researchId, em);
    if (!research) throw new NotFoundException('Research not found');
    return research;
  }

  private async exists(researchId: string): Promise<void> {
    if (!(await this.repo.exists(researchId))) throw new NotFoundException('Research not found');
  }
}

const reviewValues = (r: ResearchEntity) => ({
  reviewed_by: r.reviewedBy,
  reviewed_at: r.reviewedAt,
  review_comment: r.reviewComment,
});
const approvalValues = (r: ResearchEntity) => ({
  revision: r.approvedRevision,
  approved_by: r.approvedBy,
  approved_at: r.approvedAt,
  approval_comment: r.approvalComment,
});
