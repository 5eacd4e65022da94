import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotAudited } from '../audit/audited.decorator';
import { SignedIn } from '../auth/access.decorator';
import { CurrentPrincipal } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { StreamTicketDto } from '../live/stream-ticket.controller';
import { StreamTickets } from '../live/stream-tickets';
import { NotFrozen } from '../review/record-freeze';

/** The lab overview (docs/behaviour.md §18): a ticket to its stream. */
@ApiTags('lab')
@ApiBearerAuth()
@Controller('lab')
export class LabController {
  constructor(private readonly tickets: StreamTickets) {}

  @Post('stream-ticket')
  @SignedIn()
  @NotAudited('a ticket to watch the lab overview; changes nothing')
  @NotFrozen('a ticket to watch the lab overview; changes no research')
  @HttpCode(200)
  @ApiOperation({
    summary: "A single-use ticket to open the lab overview's stream",
    description:
      'Staff only. Connect to /api/v1/lab/stream?ticket=… within 30 s; the ticket then stops working. The stream ' +
      'closes when the token it was bought with expires or is revoked.',
  })
  @ApiOkResponse({ type: StreamTicketDto })
  async issue(@CurrentPrincipal() principal: Principal): Promise<StreamTicketDto> {
    const { ticket, expiresIn } = await this.tickets.issue(null, principal);
    return { ticket, expires_in: expiresIn };
  }
}
