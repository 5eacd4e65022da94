import { pipeline } from 'node:stream/promises';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import contentDisposition from 'content-disposition';
import { SignedIn } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { HEAVY_WORK_REFUSED, HeavyWork, heavyCaller } from '../core/heavy-work';
import { UuidParamPipe } from '../core/validation';
import { ReportQueryDto } from './report.dto';
import { ReportService } from './report.service';

@ApiTags('report')
@ApiBearerAuth()
@Controller('research')
export class ReportController {
  constructor(
    private readonly reports: ReportService,
    private readonly heavy: HeavyWork,
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
      'The research, its test profile, T0, the criteria in completed minutes and the classification, charts of the furnace against ' +
      'the heating curve with d_e, of each category against its limits, of pressure and radiation, the observations, the excluded ' +
      'and failed thermocouples and the photos with the thermocouple positions; in Polish or English.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'PDF document', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Clients cannot download the report' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async report(@Param('id', UuidParamPipe) id: string, @Query() query: ReportQueryDto, @CurrentPrincipal() principal: Principal, @Res() res: Response): Promise<void> {
    await this.heavy.run('report', heavyCaller(principal), res, async (signal) => {
      const { filename, document } = await this.reports.report(id, query.lang, principal, { signal });
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', contentDisposition(filename.utf8, { fallback: filename.ascii }));
      res.setHeader('Cache-Control', 'no-store');
      try {
        await pipeline(document, res, { signal });
      } catch {
        // Part of the file is gone: cut the connection so the download fails visibly, not as a truncated PDF.
        res.destroy();
      }
    });
  }
}
