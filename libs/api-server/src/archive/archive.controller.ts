import {
  ConflictException,
  Controller,
  Logger,
  Get,
  HttpCode,
  Param,
  Post,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { UserEntity } from '@furnace/db';
import { Audited } from '../audit/audited.decorator';
import { SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { CurrentPrincipal, CurrentUser } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { HEAVY_WORK_REFUSED, HeavyWork, heavyCaller } from '../core/heavy-work';
import { attachment } from '../core/file-name';
import { UuidParamPipe } from '../core/validation';
import { exportFilename } from '../history/csv';
import { NotFrozen } from '../review/record-freeze';
import { tooLargeMessage } from '../thermo/upload-limit.interceptor';
import type { UploadedFileLike } from '../thermo/thermo.service';
import { ArchiveImportedDto, ArchiveUploadDto } from './archive.dto';
import { ArchiveService } from './archive.service';

/** The largest archive an import takes: it is read in memory (its readings are unpacked as they are written). */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;

/**
 * A test's whole record as one zip, and that zip restored as a new test (docs/behaviour.md, "The archive"). The
 * export is staff's, as the report and the revisions it holds; the import writes a whole test and its trail, so
 * it is a superuser's.
 */
@ApiTags('archive')
@ApiBearerAuth()
@Controller('research')
export class ArchiveController {
  private readonly log = new Logger(ArchiveController.name);

  constructor(
    private readonly archives: ArchiveService,
    private readonly heavy: HeavyWork,
  ) {}

  @Get(':id/archive.zip')
  @SignedIn()
  @ApiOperation({
    summary: "The test's whole record as a zip (staff)",
    description:
      'The research and its report fields, the thermocouple configs with their photos, files and markers, the observations, exclusions, stream links, ' +
      "drawings, revisions with their stored PDFs, the test's audit trail, the readings as stored (readings.csv, written page by page) and manifest.json " +
      "with every file's SHA-256 and the raw data's SHA-256.",
  })
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'The archive', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Clients cannot export the record' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async archive(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
    @Res() res: Response,
  ): Promise<void> {
    await this.heavy.run('archive', heavyCaller(principal), res, async (signal) => {
      const filename = exportFilename(id, await this.archives.nameOf(id), 'zip');
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', attachment(filename.utf8, filename.ascii));
      res.setHeader('Cache-Control', 'no-store');
      try {
        await this.archives.write(res, id, signal);
      } catch (error) {
        // Part of the file is gone: cut the connection, so that the download fails instead of ending truncated. A record
        // changed meanwhile (a reopen) says so in the log: the export read it in short statements, not one snapshot.
        if (error instanceof ConflictException) this.log.warn(`The export of ${id} failed: ${error.message}`);
        res.destroy();
      }
    });
  }

  @Post('import')
  @SuperuserOnly()
  @NotFrozen('creates a new test: no approved record is changed')
  @Audited('research')
  @HttpCode(200)
  @UseInterceptors(
    tooLargeMessage(`The archive is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MiB, the limit of an import`),
    FileInterceptor('file', { limits: { fileSize: MAX_ARCHIVE_BYTES, files: 1, fields: 0, parts: 1 } }),
  )
  @ApiOperation({
    summary: 'Restore an archive as a new, archived test (superusers)',
    description:
      "Checks every file against the manifest's SHA-256 and the readings against the raw data's SHA-256, then writes the whole record under a new id " +
      '(hidden until it is whole, in short transactions), with a copy of its audit trail and one entry "import". A mismatch is a 422 naming what does ' +
      'not match; nothing is kept.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ArchiveUploadDto })
  @ApiOkResponse({ type: ArchiveImportedDto })
  @ApiUnprocessableEntityResponse({
    description: 'Not an archive, or a file or the readings do not match the manifest; the detail names which',
  })
  @ApiPayloadTooLargeResponse({ description: 'Larger than 256 MiB' })
  @ApiForbiddenResponse({ description: 'Not a superuser' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async import(
    @CurrentUser() user: UserEntity,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
    @UploadedFile() file?: UploadedFileLike,
  ): Promise<ArchiveImportedDto | undefined> {
    const imported = await this.heavy.run('import', heavyCaller(principal), res, () =>
      this.archives.import(file?.buffer, user.email),
    );
    if (!imported) return undefined;
    return {
      id: imported.id,
      source_research_id: imported.source,
      data_sha256: imported.dataSha256,
      readings: imported.readings,
    };
  }
}
