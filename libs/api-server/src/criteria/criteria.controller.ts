import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { ResearchReader, SignedIn } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentPrincipal, CurrentUser } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { message, MessageDto } from '../core/message.dto';
import { UuidParamPipe } from '../core/validation';
import { CriteriaDto } from './criteria.dto';
import { CriteriaService } from './criteria.service';
import {
  ObservationCreateDto,
  ObservationDto,
  ObservationsDto,
  ObservationUpdateDto,
  ThermoExclusionCreateDto,
  ThermoExclusionDto,
  ThermoExclusionsDto,
  toObservationDto,
  toThermoExclusionDto,
} from './observation.dto';
import { FrozenWhenApproved } from '../review/record-freeze';

@ApiTags('criteria')
@ApiBearerAuth()
@Controller('research')
export class CriteriaController {
  constructor(private readonly criteria: CriteriaService) {}

  // Literal paths ("observations/:id") are two segments, so they never meet the research routes' ':id'.
  @Patch('observations/:id')
  @SignedIn()
  @Audited('observation')
  @FrozenWhenApproved('observation')
  @ApiOperation({ summary: 'Change the note of an observation, or whether clients see it (staff)' })
  @ApiOkResponse({ type: ObservationDto })
  @ApiNotFoundResponse({ description: 'No such observation' })
  async updateObservation(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ObservationUpdateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ObservationDto> {
    return toObservationDto(
      await this.criteria.updateObservation(
        id,
        { note: body.note, visibleToClients: body.visible_to_clients },
        user.email,
      ),
    );
  }

  @Delete('observations/:id')
  @SignedIn()
  @Audited('observation')
  @FrozenWhenApproved('observation')
  @ApiOkResponse({ type: MessageDto })
  @ApiNotFoundResponse({ description: 'No such observation' })
  async deleteObservation(
    @Param('id', UuidParamPipe) id: string,
    @CurrentUser() user: UserEntity,
  ): Promise<MessageDto> {
    await this.criteria.deleteObservation(id, user.email);
    return message('Observation deleted successfully');
  }

  @Delete('exclusions/:id')
  @SignedIn()
  @Audited('exclusion')
  @FrozenWhenApproved('exclusion')
  @ApiOperation({ summary: 'Count a thermocouple again (staff)' })
  @ApiOkResponse({ type: MessageDto })
  @ApiNotFoundResponse({ description: 'No such exclusion' })
  async deleteExclusion(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<MessageDto> {
    await this.criteria.deleteExclusion(id, user.email);
    return message('Exclusion deleted successfully');
  }

  @Get(':id/observations')
  @ResearchReader('id')
  @ApiOperation({
    summary: "The research's observations in time order: staff see all, a client those visible to clients",
  })
  @ApiOkResponse({ type: ObservationsDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async observations(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ObservationsDto> {
    const viewer = principal.kind === 'viewer';
    return { data: (await this.criteria.observations(id, principal)).map((o) => toObservationDto(o, viewer)) };
  }

  @Post(':id/observations')
  @SignedIn()
  @Audited('observation')
  @FrozenWhenApproved('research')
  @HttpCode(200)
  @ApiOperation({ summary: 'Record an observation (staff); time defaults to the newest stored frame' })
  @ApiOkResponse({ type: ObservationDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  @ApiForbiddenResponse({ description: 'Clients cannot record observations' })
  async createObservation(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ObservationCreateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ObservationDto> {
    const created = await this.criteria.createObservation(
      id,
      { time: body.time, kind: body.kind, note: body.note, visibleToClients: body.visible_to_clients },
      user.email,
    );
    return toObservationDto(created);
  }

  @Get(':id/exclusions')
  @ResearchReader('id')
  @ApiOperation({ summary: 'Thermocouples left out of the criteria, each from a time on, with the reason' })
  @ApiOkResponse({ type: ThermoExclusionsDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async exclusions(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ThermoExclusionsDto> {
    const viewer = principal.kind === 'viewer';
    return { data: (await this.criteria.exclusions(id)).map((e) => toThermoExclusionDto(e, viewer)) };
  }

  @Post(':id/exclusions')
  @SignedIn()
  @Audited('exclusion')
  @FrozenWhenApproved('research')
  @HttpCode(200)
  @ApiOperation({ summary: 'Leave a thermocouple out of the criteria from a time on (staff)' })
  @ApiOkResponse({ type: ThermoExclusionDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async createExclusion(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ThermoExclusionCreateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ThermoExclusionDto> {
    return toThermoExclusionDto(
      await this.criteria.createExclusion(
        id,
        { thermoId: body.thermo_id, fromTime: body.from_time, reason: body.reason },
        user.email,
      ),
    );
  }

  @Get(':id/criteria')
  @ResearchReader('id')
  @ApiOperation({
    summary: 'The fire-test criteria over the stored frames',
    description:
      'T0, limits, category means and maxima, furnace conformity d_e, failures, excursions, E/I/W times, the classification, ' +
      'the forecast and suspect thermocouples, computed from every stored frame and every observation: a client gets the same ' +
      'result as staff, without the classification when staff do not show it to clients (classification_withheld).',
  })
  @ApiOkResponse({ type: CriteriaDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  criteriaOf(@Param('id', UuidParamPipe) id: string, @CurrentPrincipal() principal: Principal): Promise<CriteriaDto> {
    return this.criteria.criteria(id, principal);
  }
}
