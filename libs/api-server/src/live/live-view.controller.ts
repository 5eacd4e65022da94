import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ResearchReader } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { sendPrecompressed } from '../core/precompressed';
import { UuidParamPipe } from '../core/validation';
import { LiveViewDto, LiveViewQueryDto, STREAM_TICKET_HEADERS } from './live-view.dto';
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
      "observations (a client: those visible to clients), exclusions and the curves' history (no thermocouple series), in " +
      'one answer instead of eight requests, and a single-use stream ticket in its headers. The photos are read apart ' +
      '(/research/thermo/{id}/image).',
  })
  @ApiOkResponse({
    type: LiveViewDto,
    headers: {
      [STREAM_TICKET_HEADERS.ticket]: {
        description: 'Opens this caller’s stream once (`?ticket=`), within its expiry',
        schema: { type: 'string' },
      },
      [STREAM_TICKET_HEADERS.expiresIn]: {
        description: 'Seconds the ticket is valid for',
        schema: { type: 'integer' },
      },
    },
  })
  @ApiNotFoundResponse({ description: 'No such research' })
  async liveView(
    @Param('id', UuidParamPipe) id: string,
    @Query() query: LiveViewQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const { body, ticket } = await this.liveViews.liveView(id, principal, query.points);
    res.setHeader(STREAM_TICKET_HEADERS.ticket, ticket.ticket);
    res.setHeader(STREAM_TICKET_HEADERS.expiresIn, String(ticket.expires_in));
    // It carries a single-use stream ticket: no cache keeps it.
    res.setHeader('Cache-Control', 'no-store');
    // The body as the service made and compressed it for the whole audience, not serialised and compressed again per caller.
    await sendPrecompressed(req, res, body);
  }
}
