import { Module } from '@nestjs/common';
import { BusProbeService } from './bus-probe.service';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { PrivateNetworkGuard } from './private-network.guard';

/** GET /api/v1/metrics (Prometheus), and the bus lag probe. */
@Module({ controllers: [MetricsController], providers: [MetricsService, BusProbeService, PrivateNetworkGuard] })
export class MetricsModule {}
