import {
  Body,
  Controller,
  HttpCode,
  Delete,
  Get,
  Header,
  Param,
  Post,
  Put,
  Req,
  Res,
  UploadedFile,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { attachment } from '../core/file-name';
import { UuidParamPipe } from '../core/validation';
import { FileFieldsInterceptor, FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { MEASUREMENT_TYPES } from '@furnace/contracts';
import type { UserEntity } from '@furnace/db';
import { Public, ResearchReader, SignedIn } from '../auth/access.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { Audited } from '../audit/audited.decorator';
import { message, MessageDto } from '../core/message.dto';
import { MAX_IMAGE_BYTES } from './image-check';
import { thermoUploadLimit } from './upload-limit.interceptor';
import {
  MeasurementTypesDto,
  ThermoConfigDto,
  ThermoConfigFileDto,
  ThermoConfigsDto,
  ThermoMarkersDto,
  ThermoUploadDto,
  toMarkerDto,
  toThermoConfigDto,
} from './thermo.dto';
import { ThermoService, type UploadedFileLike } from './thermo.service';
import { FrozenWhenApproved } from '../review/record-freeze';

type Files = { image_file?: UploadedFileLike[]; config_file?: UploadedFileLike[] };

@ApiTags('thermo')
@ApiBearerAuth()
@Controller()
export class ThermoController {
  constructor(private readonly thermo: ThermoService) {}

  @Get('measurement-types')
  @Public()
  @ApiOkResponse({
    type: MeasurementTypesDto,
    description: 'The twelve measurement types with their critical temperatures',
  })
  measurementTypes(): MeasurementTypesDto {
    return {
      data: MEASUREMENT_TYPES.map((t) => ({
        name: t.name,
        critical_max: t.critical.max,
        critical_mean: t.critical.mean,
        color_hex: t.color,
        description_pl: t.description.pl,
        description_en: t.description.en,
      })),
    };
  }

  @Post('research/thermo')
  @SignedIn()
  @Audited('thermo_config')
  @FrozenWhenApproved('research', 'research_id', 'body')
  @HttpCode(200)
  @UseInterceptors(
    thermoUploadLimit,
    FileFieldsInterceptor(
      [
        { name: 'image_file', maxCount: 1 },
        { name: 'config_file', maxCount: 1 },
      ],
      { limits: { fileSize: MAX_IMAGE_BYTES, files: 2, fields: 4, parts: 8 } },
    ),
  )
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ThermoUploadDto })
  @ApiOkResponse({ type: ThermoConfigDto })
  @ApiUnprocessableEntityResponse({
    description: 'Not a PNG/JPEG photo, or config errors (every one, with line and field)',
  })
  @ApiPayloadTooLargeResponse({ description: 'A file above its size limit' })
  async create(
    @Body() body: ThermoUploadDto,
    @CurrentUser() user: UserEntity,
    @UploadedFiles() files: Files = {},
  ): Promise<ThermoConfigDto> {
    return toThermoConfigDto(
      await this.thermo.create(body.research_id, files.image_file?.[0], files.config_file?.[0], user.email),
    );
  }

  @Get('research/:research_id/thermo')
  @ResearchReader('research_id')
  @ApiOkResponse({ type: ThermoConfigsDto })
  async list(@Param('research_id', UuidParamPipe) researchId: string): Promise<ThermoConfigsDto> {
    return { data: (await this.thermo.list(researchId)).map(toThermoConfigDto) };
  }

  @Get('research/:research_id/thermo/coords')
  @ResearchReader('research_id')
  @ApiOkResponse({ type: ThermoMarkersDto, description: 'The markers of every config of the research' })
  async researchMarkers(@Param('research_id', UuidParamPipe) researchId: string): Promise<ThermoMarkersDto> {
    return { data: (await this.thermo.markersOfResearch(researchId)).map(toMarkerDto) };
  }

  @Get('research/thermo/:id')
  @ResearchReader('id', 'thermo-config')
  @ApiOkResponse({ type: ThermoConfigDto })
  async get(@Param('id', UuidParamPipe) id: string): Promise<ThermoConfigDto> {
    return toThermoConfigDto(await this.thermo.get(id));
  }

  @Delete('research/thermo/:id')
  @SignedIn()
  @Audited('thermo_config')
  @FrozenWhenApproved('thermo-config')
  @ApiOkResponse({ type: MessageDto })
  async delete(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<MessageDto> {
    await this.thermo.delete(id, user.email);
    return message('Thermocouple config deleted successfully');
  }

  @Get('research/thermo/:id/image')
  @ResearchReader('id', 'thermo-config')
  @ApiProduces('image/png', 'image/jpeg')
  @ApiOkResponse({ description: 'The photo, with an ETag', schema: { type: 'string', format: 'binary' } })
  async image(@Param('id', UuidParamPipe) id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const image = await this.thermo.image(id);
    const etag = `"${image.sha256}"`;
    // Private: a viewer's copy must not be served to someone else by a shared cache.
    res.setHeader('Cache-Control', 'private, max-age=3600');
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type(image.mime).send(image.data);
  }

  @Get('research/thermo/:id/config')
  @SignedIn()
  @Header('Content-Type', 'text/plain')
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'The config file exactly as uploaded, or as the editor saved it last',
    schema: { type: 'string', format: 'binary' },
  })
  async config(@Param('id', UuidParamPipe) id: string, @Res() res: Response): Promise<void> {
    const file = await this.thermo.configFile(id);
    res.setHeader('Content-Disposition', attachment(file.filename));
    res.send(file.data);
  }

  @Put('research/thermo/:id/config')
  @SignedIn()
  @Audited('thermo_config')
  @FrozenWhenApproved('thermo-config')
  @UseInterceptors(
    thermoUploadLimit,
    FileInterceptor('config_file', { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 0, parts: 2 } }),
  )
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: ThermoConfigFileDto })
  @ApiOkResponse({ type: ThermoConfigDto, description: 'The config, its file and markers replaced' })
  @ApiUnprocessableEntityResponse({ description: 'Config errors (every one, with line and field); nothing is changed' })
  @ApiPayloadTooLargeResponse({ description: 'A config file above its size limit' })
  async replaceConfig(
    @Param('id', UuidParamPipe) id: string,
    @CurrentUser() user: UserEntity,
    @UploadedFile() file?: UploadedFileLike,
  ): Promise<ThermoConfigDto> {
    return toThermoConfigDto(await this.thermo.replaceConfig(id, file, user.email));
  }

  @Get('research/thermo/:config_id/coords')
  @ResearchReader('config_id', 'thermo-config')
  @ApiOkResponse({ type: ThermoMarkersDto })
  async configMarkers(@Param('config_id', UuidParamPipe) configId: string): Promise<ThermoMarkersDto> {
    return { data: (await this.thermo.markersOfConfig(configId)).map(toMarkerDto) };
  }
}
