import { Module } from '@nestjs/common';
import { BusProbeService } from './bus-probe.service';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { MetricsAccessGuard } from './metrics-access.guard';

/** GET /api/v1/metrics (Prometheus), and the bus lag probe. */
@Module({ controllers: [MetricsController], providers: [MetricsService, BusProbeService, MetricsAccessGuard] })
export class MetricsModule {}
