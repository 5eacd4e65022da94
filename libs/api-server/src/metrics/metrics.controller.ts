import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access.decorator';
import { MetricsService } from './metrics.service';
import { MetricsAccessGuard } from './metrics-access.guard';

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /**
   * Prometheus metrics of this process: frames ingested and refused by reason, batch write
   * latency, outage buffer depth, bus lag, viewers, messages sent and dropped. With METRICS_TOKEN set,
   * to a request carrying it as a bearer token (Prometheus's `authorization`); without it, to this
   * machine only (loopback, through no proxy).
   */
  @Get()
  @Public()
  @UseGuards(MetricsAccessGuard)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', schema: { type: 'string' } })
  @ApiForbiddenResponse({
    description: 'Without the bearer token METRICS_TOKEN, or (none set) from another machine or through a proxy',
  })
  read(): Promise<string> {
    return this.metrics.text();
  }
}
