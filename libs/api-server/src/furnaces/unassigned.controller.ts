import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { SignedIn } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { UuidParamPipe } from '../core/validation';
import { FrozenWhenApproved } from '../review/record-freeze';
import { AttachedDto, AttachUnassignedDto, UnassignedRangesDto } from './unassigned.dto';
import { UnassignedService } from './unassigned.service';

/**
 * A furnace's unassigned readings (docs/behaviour.md, "Furnaces"): frames of its DAQ that no test was scheduled for
 * at their time. Staff list them and attach them to the test they belong to.
 */
@ApiTags('furnaces')
@ApiBearerAuth()
@Controller('furnaces')
export class UnassignedController {
  constructor(private readonly unassigned: UnassignedService) {}

  @Get(':furnace_id/unassigned')
  @SignedIn()
  @ApiOkResponse({
    type: UnassignedRangesDto,
    description: 'The unassigned readings as ranges, oldest first: a gap of more than 10 scan periods starts a new one',
  })
  async list(@Param('furnace_id', UuidParamPipe) id: string): Promise<UnassignedRangesDto> {
    const { ranges, gapS } = await this.unassigned.ranges(id);
    return {
      data: ranges.map((r) => ({ from: r.from.toISOString(), to: r.to.toISOString(), frames: r.frames })),
      frames: ranges.reduce((n, r) => n + r.frames, 0),
      gap_s: gapS,
    };
  }

  @Post(':furnace_id/unassigned/attach')
  @SignedIn()
  @Audited('reading')
  @FrozenWhenApproved('research', 'research_id', 'body')
  @HttpCode(200)
  @ApiOkResponse({ type: AttachedDto })
  @ApiConflictResponse({
    description: 'The test is not on this furnace, is archived or approved, or the range holds nothing to attach',
  })
  async attach(
    @Param('furnace_id', UuidParamPipe) id: string,
    @Body() body: AttachUnassignedDto,
    @CurrentUser() me: UserEntity,
  ): Promise<AttachedDto> {
    const { attached, skipped, researchName } = await this.unassigned.attach(
      id,
      body.research_id,
      new Date(body.from),
      new Date(body.to),
      me.email,
    );
    const message = `Attached ${attached} reading${attached === 1 ? '' : 's'} to "${researchName}"${skipped > 0 ? `; ${skipped} skipped (the test already has readings at their times)` : ''}`;
    return { attached, skipped, message };
  }
}
