import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import contentDisposition from 'content-disposition';
import { ResearchReader } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { UuidParamPipe } from '../core/validation';
import { HistoryCsvQueryDto, HistoryDto, HistoryQueryDto } from './history.dto';
import { HistoryService } from './history.service';

@ApiTags('history')
@ApiBearerAuth()
@Controller('research')
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  /** Every series of the research, downsampled to at most `points` points with each point's min, max and mean. Staff, or a viewer of this research. */
  @Get(':id/history')
  @ResearchReader('id')
  @ApiOkResponse({ type: HistoryDto })
  @ApiNotFoundResponse({ description: 'Research not found' })
  read(@Param('id', UuidParamPipe) id: string, @Query() query: HistoryQueryDto): Promise<HistoryDto> {
    return this.history.history(id, query);
  }

  /** The raw readings, one row per frame, for Excel, with the flagged channels and the observations. Staff, or a viewer of this research (visible observations only). */
  @Get(':id/history.csv')
  @ResearchReader('id')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'CSV, UTF-8 with BOM; see the `decimal` parameter for the separator and decimal mark', schema: { type: 'string' } })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async csv(@Param('id', UuidParamPipe) id: string, @Query() query: HistoryCsvQueryDto, @CurrentPrincipal() principal: Principal, @Res() res: Response): Promise<void> {
    const { filename, body } = await this.history.csv(id, query, principal.kind === 'viewer');
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', contentDisposition(filename.utf8, { fallback: filename.ascii }));
    res.setHeader('Cache-Control', 'no-store');
    try {
      await pipeline(Readable.from(body), res);
    } catch {
      // Headers and part of the file are gone: cut the connection so the download fails visibly
      // instead of ending as a silently truncated file (or the client itself went away).
      res.destroy();
    }
  }
}
