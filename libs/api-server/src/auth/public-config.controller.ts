import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';
import { Public } from './access.decorator';

export class PublicConfigDto {
  @ApiProperty({
    enum: ['approval', 'open', 'off'],
    description:
      'Self sign-up: approval (the account waits for a superuser), open (active at once) or off (no sign-up)',
  })
  signup!: 'approval' | 'open' | 'off';
}

/** What the dashboard must know before anyone signs in. Nothing secret. */
@ApiTags('config')
@Controller('config')
export class PublicConfigController {
  constructor(@Inject(APP_CONFIG) private readonly config: ApiConfig) {}

  @Get()
  @Public()
  @ApiOkResponse({ type: PublicConfigDto })
  get(): PublicConfigDto {
    return { signup: this.config.signup };
  }
}
