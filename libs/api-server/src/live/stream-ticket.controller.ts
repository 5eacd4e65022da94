import { Controller, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { NotAudited } from '../audit/audited.decorator';
import { ResearchReader } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { UuidParamPipe } from '../core/validation';
import { LiveRepository } from './live.repository';
import { StreamTickets } from './stream-tickets';
import { NotFrozen } from '../review/record-freeze';

export class StreamTicketDto {
  @ApiProperty({ description: 'Put in the stream URL as ?ticket=; opens one stream, once' }) ticket!: string;
  @ApiProperty({ description: 'Seconds the ticket stays redeemable', example: 30 }) expires_in!: number;
}

@ApiTags('live')
@ApiBearerAuth()
@Controller('research')
export class StreamTicketController {
  constructor(
    private readonly tickets: StreamTickets,
    private readonly repository: LiveRepository,
  ) {}

  @Post(':id/stream-ticket')
  @ResearchReader('id')
  @NotAudited('a ticket to watch the live stream; changes nothing')
  @NotFrozen('a ticket to watch the live stream; changes nothing')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A single-use ticket to open the live stream',
    description:
      'With a staff token or a viewer token of this research. Connect to /api/v1/research/dane/stream/{id}?ticket=… ' +
      'within 30 s; the ticket then stops working. The stream closes when the token it was bought with expires or is revoked.',
  })
  @ApiOkResponse({ type: StreamTicketDto })
  async issue(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<StreamTicketDto> {
    if (!(await this.repository.researchExists(id))) throw new NotFoundException('Research not found');
    const { ticket, expiresIn } = await this.tickets.issue(id, principal);
    return { ticket, expires_in: expiresIn };
  }
}
