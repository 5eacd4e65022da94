import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access.decorator';
import { MetricsService } from './metrics.service';
import { PrivateNetworkGuard } from './private-network.guard';

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  /**
   * Prometheus metrics of this process: frames ingested and refused by reason, batch write
   * latency, outage buffer depth, bus lag, viewers, messages sent and dropped. No token (Prometheus
   * scrapes it), but only from the private network: loopback, RFC 1918, link-local or unique-local
   * addresses, as resolved through the trusted proxy's X-Forwarded-For.
   */
  @Get()
  @Public()
  @UseGuards(PrivateNetworkGuard)
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', schema: { type: 'string' } })
  @ApiForbiddenResponse({ description: 'The caller is not on the private network' })
  read(): Promise<string> {
    return this.metrics.text();
  }
}
