import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { SignedIn } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { UuidParamPipe } from '../core/validation';
import { ResearchService } from '../research/research.service';
import { NotFrozen } from '../review/record-freeze';
import { AlarmDto, AlarmsDto } from './alarm.dto';
import { AlarmsService } from './alarms.service';

/** The alarms of the tests (docs/behaviour.md, "Alarms"): the lab's, staff only; a client's viewer token gets 403. */
@ApiTags('alarms')
@ApiBearerAuth()
@Controller()
export class AlarmsController {
  constructor(
    private readonly alarms: AlarmsService,
    private readonly research: ResearchService,
  ) {}

  @Get('research/:research_id/alarms')
  @SignedIn()
  @ApiOperation({ summary: "A test's alarms (staff)", description: 'Newest first: open, acknowledged and cleared.' })
  @ApiOkResponse({ type: AlarmsDto })
  @ApiForbiddenResponse({ description: 'Clients cannot read the alarms' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async list(@Param('research_id', UuidParamPipe) researchId: string): Promise<AlarmsDto> {
    await this.research.get(researchId);
    const data = await this.alarms.list(researchId);
    return { data, count: data.length };
  }

  @Post('alarms/:alarm_id/acknowledge')
  @SignedIn()
  @Audited('alarm')
  @NotFrozen("an alarm is the lab's operation of a running test, not the test's record")
  @HttpCode(200)
  @ApiOperation({ summary: 'Acknowledge an alarm (staff): its messages stop repeating' })
  @ApiOkResponse({ type: AlarmDto })
  @ApiNotFoundResponse({ description: 'Alarm not found' })
  @ApiConflictResponse({ description: 'Already acknowledged (by whom, when)' })
  acknowledge(@Param('alarm_id', UuidParamPipe) id: string, @CurrentUser() me: UserEntity): Promise<AlarmDto> {
    return this.alarms.acknowledge(id, me.email);
  }
}
