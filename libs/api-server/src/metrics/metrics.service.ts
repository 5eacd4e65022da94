import { Injectable, type OnModuleInit } from '@nestjs/common';
import { collectProcessMetrics, metricsRegistry } from './registry';

@Injectable()
export class MetricsService implements OnModuleInit {
  onModuleInit(): void {
    collectProcessMetrics();
  }

  text(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
