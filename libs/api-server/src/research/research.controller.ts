import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { UuidParamPipe } from '../core/validation';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { Audited, NotAudited } from '../audit/audited.decorator';
import { CodeExchangeLimited } from '../auth/login-throttler.guard';
import { Public, ResearchReader, SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { CurrentPrincipal, CurrentUser } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { message, MessageDto } from '../core/message.dto';
import {
  ResearchCreateDto,
  ResearchDto,
  ResearchesDto,
  ResearchListQueryDto,
  ResearchUpdateDto,
  toResearchDto,
  UrlCreateDto,
  toUrlDto,
  UrlDto,
  UrlsDto,
  UrlUpdateDto,
  ViewerTokenDto,
  ViewerTokenRequestDto,
} from './research.dto';
import { type ResearchInput, ResearchService } from './research.service';
import { FrozenWhenApproved, NotFrozen } from '../review/record-freeze';

const date = (s?: string) => (s === undefined ? undefined : new Date(s));
const profileInput = (body: ResearchCreateDto | ResearchUpdateDto): ResearchInput => ({
  standard: body.standard,
  insulation: body.insulation,
  heatingCurve: body.heating_curve,
  criteriaBasis: body.criteria_basis,
  plannedDurationMin: body.planned_duration_min,
  pressureTargetPa: body.pressure_target_pa,
  pressureTolerancePa: body.pressure_tolerance_pa,
  t0Override: body.t0_override,
});
/** The report fields of the body; undefined leaves a field, null clears it. */
const reportInput = (body: ResearchCreateDto | ResearchUpdateDto): ResearchInput => ({
  sponsor: body.sponsor,
  manufacturer: body.manufacturer,
  specimenDescription: body.specimen_description,
  conditioning: body.conditioning,
  supportingConstruction: body.supporting_construction,
  exposedSide: body.exposed_side,
  ambientTemperatureC: body.ambient_temperature_c,
  pressureHeightMm: body.pressure_height_mm,
  endReason: body.end_reason,
  deviations: body.deviations,
  reportNumber: body.report_number,
  reportDate: body.report_date,
});

@ApiTags('research')
@ApiBearerAuth()
@Controller('research')
export class ResearchController {
  constructor(private readonly research: ResearchService) {}

  @Get()
  @SignedIn()
  @ApiOkResponse({
    type: ResearchesDto,
    description: 'Newest start first; without the archived ones unless include_archived=true',
  })
  @ApiForbiddenResponse({ description: 'include_archived=true by anyone but a superuser' })
  async list(@Query() q: ResearchListQueryDto, @CurrentUser() user: UserEntity): Promise<ResearchesDto> {
    const includeArchived = q.include_archived === 'true';
    if (includeArchived && !user.isSuperuser)
      throw new ForbiddenException('Only a superuser sees the archived researches');
    return { data: (await this.research.list(includeArchived)).map((r) => toResearchDto(r)) };
  }

  @Post()
  @SignedIn()
  @Audited('research', 'email')
  @NotFrozen('creates a research: none is approved yet')
  @HttpCode(200)
  @ApiOkResponse({ type: ResearchDto })
  async create(@Body() body: ResearchCreateDto, @CurrentUser() user: UserEntity): Promise<ResearchDto> {
    const r = await this.research.create(
      {
        name: body.name,
        startAt: new Date(body.start_at),
        endAt: new Date(body.end_at),
        isRadiance: body.is_radiance,
        isFurnance: body.is_furnance,
        isPressure: body.is_pressure,
        classificationToClients: body.classification_to_clients,
        furnaceId: body.furnace_id,
        responsibleUserId: body.responsible_user_id,
        ...profileInput(body),
        ...reportInput(body),
      },
      user.email,
    );
    return toResearchDto(r);
  }

  // Literal paths are declared before ':id' so that Express does not take "urls" for an id.
  @Get('urls/:id')
  @SignedIn()
  @ApiOkResponse({ type: UrlDto })
  async getUrl(@Param('id', UuidParamPipe) id: string): Promise<UrlDto> {
    return toUrlDto(await this.research.getUrl(id));
  }

  @Post('urls')
  @SignedIn()
  @Audited('url')
  @FrozenWhenApproved('research', 'research_id', 'body')
  @HttpCode(200)
  @ApiOkResponse({ type: UrlDto })
  async createUrl(@Body() body: UrlCreateDto, @CurrentUser() user: UserEntity): Promise<UrlDto> {
    return toUrlDto(await this.research.createUrl(body.research_id, body.url, user.email));
  }

  @Put('urls/:id')
  @SignedIn()
  @Audited('url')
  @FrozenWhenApproved('url')
  @ApiOkResponse({ type: UrlDto })
  async updateUrl(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: UrlUpdateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<UrlDto> {
    return toUrlDto(await this.research.updateUrl(id, body.url, user.email));
  }

  @Delete('urls/:id')
  @SignedIn()
  @Audited('url')
  @FrozenWhenApproved('url')
  @ApiOkResponse({ type: MessageDto })
  async deleteUrl(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<MessageDto> {
    await this.research.deleteUrl(id, user.email);
    return message('URL deleted successfully');
  }

  @Get(':id')
  @ResearchReader('id')
  @ApiOkResponse({ type: ResearchDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async get(@Param('id', UuidParamPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<ResearchDto> {
    return toResearchDto(await this.research.get(id), principal.kind === 'viewer');
  }

  @Put(':id')
  @SignedIn()
  @Audited('research', 'profile', 't0', 'report')
  @FrozenWhenApproved('research')
  @ApiOkResponse({ type: ResearchDto })
  async update(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ResearchUpdateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ResearchDto> {
    const r = await this.research.update(
      id,
      {
        name: body.name,
        startAt: date(body.start_at),
        endAt: date(body.end_at),
        isRadiance: body.is_radiance,
        isFurnance: body.is_furnance,
        isPressure: body.is_pressure,
        classificationToClients: body.classification_to_clients,
        furnaceId: body.furnace_id,
        responsibleUserId: body.responsible_user_id,
        ...profileInput(body),
        ...reportInput(body),
      },
      user.email,
    );
    return toResearchDto(r);
  }

  @Delete(':id')
  @SuperuserOnly()
  @Audited('research')
  @NotFrozen('the delete refuses an approved test itself (409), saying to archive it instead')
  @ApiOkResponse({
    type: MessageDto,
    description: 'Deletes the research with its links, e-mails, configs, markers and readings',
  })
  @ApiConflictResponse({ description: 'The research is approved: its record is final (archive it instead)' })
  async delete(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<MessageDto> {
    await this.research.delete(id, user.email);
    return message('Research deleted successfully');
  }

  @Post(':id/archive')
  @SuperuserOnly()
  @Audited('research')
  @NotFrozen('leaves the research out of the lists and keeps every row: an approved test is archived, never changed')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Archive a research (superusers)',
    description:
      'Left out of the lists from now on; every row is kept and staff still open it by its id. Archiving an archived research changes nothing.',
  })
  @ApiOkResponse({ type: ResearchDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async archive(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<ResearchDto> {
    return toResearchDto(await this.research.setArchived(id, true, user.email));
  }

  @Post(':id/unarchive')
  @SuperuserOnly()
  @Audited('research')
  @NotFrozen('brings the research back to the lists; changes nothing of its record')
  @HttpCode(200)
  @ApiOperation({ summary: 'Bring an archived research back to the lists (superusers)' })
  @ApiOkResponse({ type: ResearchDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async unarchive(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<ResearchDto> {
    return toResearchDto(await this.research.setArchived(id, false, user.email));
  }

  @Post(':id/viewer-token')
  @Public()
  @NotAudited('exchanges a client code for a token; changes nothing')
  @NotFrozen("exchanges a client's code for a token; changes nothing")
  @HttpCode(200)
  @CodeExchangeLimited()
  @ApiTooManyRequestsResponse({
    description:
      "Too many attempts from this address, counted with the live stream's ?code= (Retry-After says when to try again)",
  })
  @ApiOperation({
    summary: 'Exchange a client access code for a viewer token',
    description:
      'A client invited by e-mail holds a code (the id of their e-mail record). This exchanges it for a bearer token ' +
      'that reads this research only: the research, its links, thermocouple configs, markers, photos, history and ' +
      'live stream; never its e-mail list, another research, or any write. Deleting the e-mail record revokes it.',
  })
  @ApiOkResponse({ type: ViewerTokenDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  @ApiForbiddenResponse({ description: 'The code is not one of this research' })
  async viewerToken(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ViewerTokenRequestDto,
  ): Promise<ViewerTokenDto> {
    const { token, expiresIn } = await this.research.viewerToken(id, body.code);
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, research_id: id };
  }

  @Get(':research_id/urls')
  @ResearchReader('research_id')
  @ApiOkResponse({ type: UrlsDto })
  async listUrls(@Param('research_id', UuidParamPipe) researchId: string): Promise<UrlsDto> {
    return { data: (await this.research.listUrls(researchId)).map(toUrlDto) };
  }
}
