import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ResearchReader } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { UuidParamPipe } from '../core/validation';
import { LiveViewDto, LiveViewQueryDto } from './live-view.dto';
import { LiveViewService } from './live-view.service';

@ApiTags('live')
@ApiBearerAuth()
@Controller('research')
export class LiveViewController {
  constructor(private readonly liveViews: LiveViewService) {}

  @Get(':id/live-view')
  @ResearchReader('id')
  @ApiOperation({
    summary: 'Everything the live view shows before its stream opens, and a stream ticket',
    description:
      'With a staff token or a viewer token of this research: the research, its links, thermocouple configs, markers, ' +
      "observations (a client: those visible to clients), exclusions, the curves' history (no thermocouple series) and a " +
      'single-use stream ticket, in one answer instead of eight requests. The photos are read apart (/research/thermo/{id}/image).',
  })
  @ApiOkResponse({ type: LiveViewDto })
  @ApiNotFoundResponse({ description: 'No such research' })
  async liveView(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: LiveViewQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    // Sent as the JSON text the service made (most of it shared by the crowd), not serialised again per caller.
    const body = await this.liveViews.liveView(id, principal, query.points);
    res.type('application/json');
    // It carries a single-use stream ticket: no cache keeps it.
    res.setHeader('Cache-Control', 'no-store');
    return body;
  }
}
