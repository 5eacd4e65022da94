import { Controller, Delete, Get, HttpCode, Param, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
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
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { UserEntity } from '@furnace/db';
import { SignedIn } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { message, MessageDto } from '../core/message.dto';
import { attachment } from '../core/file-name';
import { UuidParamPipe } from '../core/validation';
import { tooLargeMessage } from '../thermo/upload-limit.interceptor';
import type { UploadedFileLike } from '../thermo/thermo.service';
import { MAX_DRAWING_BYTES } from './drawing-check';
import { DrawingDto, DrawingsDto, DrawingUploadDto, toDrawingDto } from './drawings.dto';
import { DrawingsService } from './drawings.service';
import { FrozenWhenApproved } from '../review/record-freeze';

/**
 * The drawings of a research's specimen, for its test report. Staff only, to read as to write: like
 * the report they belong to, they are the lab's (a client watches the test; docs/behaviour.md §6).
 */
@ApiTags('drawings')
@ApiBearerAuth()
@Controller('research')
export class DrawingsController {
  constructor(private readonly drawings: DrawingsService) {}

  @Get(':research_id/drawings')
  @SignedIn()
  @ApiOperation({
    summary: "The specimen's drawings (staff)",
    description: 'Oldest first; the files themselves are downloaded one by one.',
  })
  @ApiOkResponse({ type: DrawingsDto })
  @ApiForbiddenResponse({ description: 'Clients cannot read the drawings' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async list(@Param('research_id', UuidParamPipe) researchId: string): Promise<DrawingsDto> {
    return { data: (await this.drawings.list(researchId)).map(toDrawingDto) };
  }

  @Post(':research_id/drawings')
  @SignedIn()
  @Audited('drawing')
  @FrozenWhenApproved('research', 'research_id')
  @HttpCode(200)
  @UseInterceptors(
    tooLargeMessage(`The file is larger than ${MAX_DRAWING_BYTES / 1024 / 1024} MiB, the limit of a drawing`),
    FileInterceptor('file', { limits: { fileSize: MAX_DRAWING_BYTES, files: 1, fields: 0, parts: 2 } }),
  )
  @ApiOperation({
    summary: 'Attach a drawing of the specimen (staff)',
    description:
      'A PDF (.pdf) or a PNG or JPEG image (.png, .jpg, .jpeg): its bytes must be what its name says (a PDF from its %PDF- header to ' +
      'its %%EOF; an image that decodes, then encoded again without its metadata or anything appended). Anything else is a 422 naming the file.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: DrawingUploadDto })
  @ApiOkResponse({ type: DrawingDto })
  @ApiUnprocessableEntityResponse({
    description: 'Not a PDF, PNG or JPEG, or not what its name says; the message names the file',
  })
  @ApiPayloadTooLargeResponse({ description: 'Larger than 20 MiB' })
  @ApiForbiddenResponse({ description: 'Clients cannot attach drawings' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async upload(
    @Param('research_id', UuidParamPipe) researchId: string,
    @CurrentUser() user: UserEntity,
    @UploadedFile() file?: UploadedFileLike,
  ): Promise<DrawingDto> {
    return toDrawingDto(await this.drawings.create(researchId, file, user.email));
  }

  @Get(':research_id/drawings/:id')
  @SignedIn()
  @ApiOperation({
    summary: 'Download a drawing (staff)',
    description: 'The file as stored, as an attachment under the name it was uploaded with.',
  })
  @ApiProduces('application/pdf', 'image/png', 'image/jpeg')
  @ApiOkResponse({ description: 'The drawing', schema: { type: 'string', format: 'binary' } })
  @ApiForbiddenResponse({ description: 'Clients cannot read the drawings' })
  @ApiNotFoundResponse({ description: 'No such drawing of this research' })
  async download(
    @Param('research_id', UuidParamPipe) researchId: string,
    @Param('id', UuidParamPipe) id: string,
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.drawings.file(researchId, id);
    // An attachment, never shown inline: a PDF is kept as it came (a script in it runs in no page of ours).
    res.setHeader('Content-Disposition', attachment(file.filename));
    res.setHeader('Cache-Control', 'private, no-store');
    res.type(file.mime).send(file.data);
  }

  @Delete(':research_id/drawings/:id')
  @SignedIn()
  @Audited('drawing')
  @FrozenWhenApproved('research', 'research_id')
  @ApiOperation({ summary: 'Delete a drawing (staff)' })
  @ApiOkResponse({ type: MessageDto })
  @ApiForbiddenResponse({ description: 'Clients cannot delete drawings' })
  @ApiNotFoundResponse({ description: 'No such drawing of this research' })
  async delete(
    @Param('research_id', UuidParamPipe) researchId: string,
    @Param('id', UuidParamPipe) id: string,
    @CurrentUser() user: UserEntity,
  ): Promise<MessageDto> {
    await this.drawings.delete(researchId, id, user.email);
    return message('Drawing deleted successfully');
  }
}
