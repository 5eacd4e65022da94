import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { SignedIn } from '../auth/access.decorator';
import { UuidParamPipe } from '../core/validation';
import { ReplayFramesDto, ReplayFramesQueryDto } from './replay.dto';
import { ReplayService } from './replay.service';

@ApiTags('replay')
@ApiBearerAuth()
@Controller('research')
export class ReplayController {
  constructor(private readonly replay: ReplayService) {}

  /** The stored frames of a window of the test, every channel, for the replay on the history page. Staff only. */
  @Get(':id/frames')
  @SignedIn()
  @ApiOkResponse({ type: ReplayFramesDto })
  @ApiBadRequestResponse({ description: 'to before from, or a window holding more frames than one request answers' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  frames(@Param('id', UuidParamPipe) id: string, @Query() query: ReplayFramesQueryDto): Promise<ReplayFramesDto> {
    return this.replay.frames(id, query);
  }
}
