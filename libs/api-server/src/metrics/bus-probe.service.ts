import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Gauge, Histogram } from 'prom-client';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';
import { metricsRegistry, sharedMetric } from './registry';

const PROBE_INTERVAL_MS = 5_000;

const registers = [metricsRegistry];
const busLag = sharedMetric(
  'furnace_bus_lag_seconds',
  () =>
    new Histogram({
      name: 'furnace_bus_lag_seconds',
      help: 'Time a message takes through the bus (publish to delivery), measured by a probe every 5 s',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
      registers,
    }),
);

/** The probes of the API instances in this process (one in production; several in tests). */
const probes = new Set<{ readonly age: number }>();
sharedMetric('furnace_bus_probe_age_seconds', () => {
  const gauge: Gauge = new Gauge({
    name: 'furnace_bus_probe_age_seconds',
    help: 'Seconds since a bus probe last came back (stays under ~5 while the bus works)',
    registers,
    collect() {
      gauge.set(Math.max(0, ...[...probes].map((p) => p.age)));
    },
  });
  return gauge;
});

/**
 * Measures the bus's lag: every 5 s this API instance publishes a probe on a channel of its own
 * and times its return. Frames carry no send time in the bus contract, and clocks of different
 * machines would not compare anyway; the ingest measures its own part (receipt to publish).
 * A bus that stops delivering shows as a growing furnace_bus_probe_age_seconds.
 */
@Injectable()
export class BusProbeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly channel = `furnace:probe:${randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private lastReturn = Date.now();

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async onApplicationBootstrap(): Promise<void> {
    probes.add(this);
    try {
      this.unsubscribe = await this.bus.subscribe(this.channel, (message) => {
        const sent = Number(message);
        if (!Number.isFinite(sent)) return;
        this.lastReturn = Date.now();
        busLag.observe((performance.timeOrigin + performance.now() - sent) / 1000);
      });
    } catch {
      // The bus is down at start: the probe age shows it; the next start tries again.
      return;
    }
    this.timer = setInterval(() => {
      this.bus.publish(this.channel, String(performance.timeOrigin + performance.now())).catch(() => undefined);
    }, PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Seconds since this instance's probe last came back. */
  get age(): number {
    return (Date.now() - this.lastReturn) / 1000;
  }

  async onModuleDestroy(): Promise<void> {
    probes.delete(this);
    if (this.timer) clearInterval(this.timer);
    await this.unsubscribe?.().catch(() => undefined);
  }
}
