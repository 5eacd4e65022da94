import { pipeline } from 'node:stream/promises';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ResearchReader } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { HEAVY_WORK_REFUSED, HeavyWork, heavyCaller } from '../core/heavy-work';
import { attachment } from '../core/file-name';
import { UuidParamPipe } from '../core/validation';
import { CSV_BOM, csvDialect, csvLine, exportFilename } from './csv';
import { exportHeader, metaRows } from './export-format';
import { ExportService } from './export.service';
import { HistoryCsvQueryDto, HistoryDto, HistoryExportQueryDto, HistoryQueryDto } from './history.dto';
import { HistoryService } from './history.service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

@ApiTags('history')
@ApiBearerAuth()
@Controller('research')
export class HistoryController {
  constructor(
    private readonly history: HistoryService,
    private readonly exports: ExportService,
    private readonly heavy: HeavyWork,
  ) {}

  /**
   * Every series of the research, downsampled to at most `points` points with each point's min, max and mean.
   * Staff, or a viewer of this research. At most MAX_HISTORY_VALUES thermocouple values (points × thermo_ids) per request (422 above).
   */
  @Get(':id/history')
  @ResearchReader('id')
  @ApiOkResponse({ type: HistoryDto })
  @ApiNotFoundResponse({ description: 'Research not found' })
  read(@Param('id', UuidParamPipe) id: string, @Query() query: HistoryQueryDto): Promise<HistoryDto> {
    return this.history.history(id, query);
  }

  /**
   * The readings for a lab's file, one row per frame: time (s, min, hh:mm:ss since ignition, Warsaw
   * date-time), each thermocouple under its name and type, each category's max and mean and their
   * rises above T0, the heating curve, d_e, the flagged channels and the observations; `meta=1` puts
   * the research, profile, T0 and the excluded and failed thermocouples above; `lang` the language of the
   * headers and the metadata (Polish by default; the dashboard sends its own). Staff, or a viewer of
   * this research (visible observations only). One at a time per caller and HEAVY_WORK_CONCURRENCY per
   * instance (HeavyWork: 429 above); stops when the client goes away.
   */
  @Get(':id/history.csv')
  @ResearchReader('id')
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'CSV, UTF-8 with BOM; see the `decimal` parameter for the separator and decimal mark',
    schema: { type: 'string' },
  })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async csv(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: HistoryCsvQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    await this.heavy.run('csv', heavyCaller(principal), res, async (signal) => {
      const ctx = await this.exports.prepare(id, query, principal.kind === 'viewer', signal);
      const dialect = csvDialect(query.decimal);
      const rows = this.exports.rows(ctx);
      async function* body(): AsyncIterable<string> {
        const meta =
          query.meta === '1'
            ? metaRows(ctx.meta, query.lang)
                .map((cells) => csvLine(cells, dialect))
                .join('') + '\r\n'
            : '';
        yield CSV_BOM + meta + csvLine(exportHeader(ctx.layout, query.lang), dialect);
        for await (const page of rows) yield page.map((cells) => csvLine(cells, dialect)).join('');
      }
      // The generator straight into the response: each page is made when the previous one is sent (a
      // Readable.from in between would read up to 16 pages ahead).
      await send(res, 'text/csv; charset=utf-8', exportFilename(id, ctx.name, 'csv'), (out) =>
        pipeline(body(), out, { signal }),
      );
    });
  }

  /**
   * The same readings as an Excel workbook: real numbers and date cells (Warsaw local time), the header
   * row frozen; a sheet of the criteria and observations and one of the thermocouples, their words in
   * `lang` as the CSV's. Staff, or a viewer of this research (visible observations only). Limited and
   * stopped as the CSV is.
   */
  @Get(':id/history.xlsx')
  @ResearchReader('id')
  @ApiProduces(XLSX_TYPE)
  @ApiOkResponse({
    description:
      'Office Open XML workbook: sheets "Odczyty", "Kryteria i obserwacje", "Termopary" (lang=en: "Readings", "Criteria and observations", "Thermocouples")',
    schema: { type: 'string', format: 'binary' },
  })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async xlsx(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: HistoryExportQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    await this.heavy.run('xlsx', heavyCaller(principal), res, async (signal) => {
      const ctx = await this.exports.prepare(id, query, principal.kind === 'viewer', signal);
      // The workbook writer and its zip (~6 MB) load on the first workbook, not in every API instance (docs/performance.md, "Exports").
      const { writeWorkbook } = await import('./xlsx.js');
      await send(res, XLSX_TYPE, exportFilename(id, ctx.name, 'xlsx'), (out) =>
        writeWorkbook(out, ctx, this.exports.rows(ctx), () => this.exports.criteria(ctx), query.lang),
      );
    });
  }
}

async function send(
  res: Response,
  type: string,
  filename: { ascii: string; utf8: string },
  write: (out: Response) => Promise<void>,
): Promise<void> {
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Disposition', attachment(filename.utf8, filename.ascii));
  res.setHeader('Cache-Control', 'no-store');
  try {
    await write(res);
  } catch {
    // Headers and part of the file are gone: cut the connection so the download fails visibly
    // instead of ending as a silently truncated file (or the client itself went away).
    res.destroy();
  }
}
