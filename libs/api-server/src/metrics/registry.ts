import { collectDefaultMetrics, type Metric, register } from 'prom-client';

/**
 * The process's Prometheus registry: prom-client's default one, which the ingest of `npm start`
 * (same process) writes to as well, so /api/v1/metrics shows the whole pipeline. Several API
 * instances in one process (tests) share it.
 */
export const metricsRegistry = register;

/** The metric named `name`, created on first use: modules and API instances of one process share it. */
export function sharedMetric<T extends Metric>(name: string, create: () => T): T {
  // getSingleMetric returns the base type; the name identifies the kind `create` makes.
  return (metricsRegistry.getSingleMetric(name) as T | undefined) ?? create();
}

let defaultsCollected = false;

/** Process metrics (CPU, memory, event-loop lag), once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected || metricsRegistry.getSingleMetric('process_cpu_user_seconds_total')) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
