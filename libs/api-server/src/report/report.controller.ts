import { pipeline } from 'node:stream/promises';
import { ConflictException, Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { SignedIn } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { HEAVY_WORK_REFUSED, HeavyWork, heavyCaller } from '../core/heavy-work';
import { attachment } from '../core/file-name';
import { UuidParamPipe } from '../core/validation';
import { ReviewRepository } from '../review/review.repository';
import { ReportQueryDto } from './report.dto';
import { ReportService } from './report.service';

@ApiTags('report')
@ApiBearerAuth()
@Controller('research')
export class ReportController {
  constructor(
    private readonly reports: ReportService,
    private readonly heavy: HeavyWork,
    private readonly reviews: ReviewRepository,
  ) {}

  /**
   * Staff only: a client reads the test live and in its history, the lab's report is the lab's. Made
   * through HeavyWork as the exports are: one at a time per user, HEAVY_WORK_CONCURRENCY per instance.
   */
  @Get(':id/report.pdf')
  @SignedIn()
  @ApiOperation({
    summary: 'The test report as a PDF (staff)',
    description:
      'The research, its test profile, T0, the classification, what the test report states (EN 1363-1 §12) with the drawings by name, ' +
      'the criteria in completed minutes, charts of the furnace against ' +
      'the heating curve with d_e, of each category against its limits, of pressure and radiation, the observations, the excluded ' +
      'and failed thermocouples and the photos with the thermocouple positions; in Polish or English.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'PDF document', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Clients cannot download the report' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async report(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: ReportQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    if (await this.sendIssued(res, id, 'report', query)) return;
    await this.heavy.run('report', heavyCaller(principal), res, async (signal) =>
      send(res, await this.reports.report(id, query.lang, principal, { signal }), signal),
    );
  }

  /**
   * Staff only, as the report it rests on. Made through HeavyWork and the report's worker like the report:
   * one PDF at a time per user, HEAVY_WORK_CONCURRENCY per instance, stopped when the client goes away.
   */
  @Get(':id/classification.pdf')
  @SignedIn()
  @ApiOperation({
    summary: 'The classification report as a PDF (staff)',
    description:
      'The element (the test standard), the classification standard (EN 13501-2, or DIN 4102-5 in its own terms), the test report it rests on ' +
      '(reference number and date), E, I and W with their times and completed minutes ("not measured", W deemed), the d_e and pressure ' +
      'verdicts and the resulting class: the numbers of GET /research/{id}/criteria. In Polish or English.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'PDF document', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Clients cannot download the classification report' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async classification(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: ReportQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    if (await this.sendIssued(res, id, 'classification', query)) return;
    await this.heavy.run('classification', heavyCaller(principal), res, async (signal) =>
      send(res, await this.reports.classification(id, query.lang, principal, { signal }), signal),
    );
  }

  /**
   * The document issued with a revision (docs/behaviour.md, "The permanent record"), as stored: `?revision=N`, or
   * without it the revision an approved test is approved as. False when neither applies: the document is made now.
   */
  private async sendIssued(
    res: Response,
    researchId: string,
    kind: 'report' | 'classification',
    query: ReportQueryDto,
  ): Promise<boolean> {
    const approved = await this.reviews.approvedRevision(researchId);
    const revision = query.revision ?? approved;
    if (revision === null) return false;
    const document = await this.reviews.document(researchId, revision, kind, query.lang);
    if (!document) {
      if (query.revision === undefined)
        throw new ConflictException(
          `the documents of revision ${revision} are still being issued: try again in a moment`,
        );
      throw new NotFoundException(`This test has no revision ${revision}`);
    }
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', attachment(document.filename));
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('ETag', `"${document.sha256}"`);
    res.setHeader('X-Revision', String(document.revision));
    res.end(document.data);
    return true;
  }
}

/** Writes a made PDF as a download; a file cut short cuts the connection, so the download fails visibly, not as a truncated PDF. */
async function send(
  res: Response,
  { filename, document }: { filename: { ascii: string; utf8: string }; document: NodeJS.ReadableStream },
  signal: AbortSignal,
): Promise<void> {
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', attachment(filename.utf8, filename.ascii));
  res.setHeader('Cache-Control', 'no-store');
  try {
    await pipeline(document, res, { signal });
  } catch {
    res.destroy();
  }
}
