import { Counter, Gauge, Histogram, type Registry, register as defaultRegistry } from 'prom-client';

/** Why the ingest refused a message: the DAQ contract's reasons and the ingest's own. */
export type RefuseReason =
  | 'malformed_json'
  | 'invalid_payload'
  | 'too_many_channels'
  | 'too_large'
  | 'bad_topic'
  | 'unknown_research'
  | 'unknown_furnace'
  | 'research_approved'
  | 'store_failed';

const REFUSE_REASONS: readonly RefuseReason[] = [
  'malformed_json',
  'invalid_payload',
  'too_many_channels',
  'too_large',
  'bad_topic',
  'unknown_research',
  'unknown_furnace',
  'research_approved',
  'store_failed',
];

/**
 * The ingest's Prometheus metrics. In `npm start` they live in prom-client's default registry,
 * which the API's /api/v1/metrics serves; a separate ingest process serves them itself.
 * A metric already in the registry is reused, so an ingest restarted in the same process
 * (tests, standalone) keeps counting instead of failing to register.
 */
export class IngestMetrics {
  readonly received: Counter;
  readonly stored: Counter;
  readonly duplicates: Counter;
  readonly refused: Counter<'reason'>;
  readonly outsideWindow: Counter;
  readonly unassigned: Counter;
  readonly channelFaults: Counter;
  readonly dropped: Counter;
  readonly deadLettersDropped: Counter;
  readonly busPublishFailed: Counter;
  readonly batchWrite: Histogram<'outcome'>;
  readonly publishDelay: Histogram;
  readonly bufferDepth: Gauge;
  readonly databaseUp: Gauge;
  readonly brokerConnected: Gauge;

  constructor(readonly registry: Registry = defaultRegistry) {
    const registers = [registry];
    this.received = reuse(
      registry,
      'furnace_ingest_frames_received_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_received_total',
          help: 'MQTT messages received on the DAQ topics',
          registers,
        }),
    );
    this.stored = reuse(
      registry,
      'furnace_ingest_frames_stored_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_stored_total',
          help: 'Frames written to the readings table',
          registers,
        }),
    );
    this.duplicates = reuse(
      registry,
      'furnace_ingest_frames_duplicate_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_duplicate_total',
          help: 'Frames not written because (research, time) was already stored (broker redelivery) or the research was deleted',
          registers,
        }),
    );
    this.refused = reuse(registry, 'furnace_ingest_frames_refused_total', () => {
      const c = new Counter({
        name: 'furnace_ingest_frames_refused_total',
        help: 'Messages refused and dead-lettered, by reason',
        labelNames: ['reason'] as const,
        registers,
      });
      for (const reason of REFUSE_REASONS) c.inc({ reason }, 0);
      return c;
    });
    this.outsideWindow = reuse(
      registry,
      'furnace_ingest_frames_outside_window_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_outside_window_total',
          help: "Frames received outside their research's start_at..end_at (stored anyway)",
          registers,
        }),
    );
    this.unassigned = reuse(
      registry,
      'furnace_ingest_frames_unassigned_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_unassigned_total',
          help: "Frames of a furnace topic that no test was scheduled for at their time, kept as the furnace's unassigned readings",
          registers,
        }),
    );
    this.channelFaults = reuse(
      registry,
      'furnace_ingest_channel_faults_total',
      () =>
        new Counter({
          name: 'furnace_ingest_channel_faults_total',
          help: 'Thermocouple channels out of range (a broken thermocouple): nulled and flagged, the rest of the frame kept',
          registers,
        }),
    );
    this.dropped = reuse(
      registry,
      'furnace_ingest_frames_dropped_total',
      () =>
        new Counter({
          name: 'furnace_ingest_frames_dropped_total',
          help: 'Frames lost because the database was unreachable longer than the buffer holds',
          registers,
        }),
    );
    this.deadLettersDropped = reuse(
      registry,
      'furnace_ingest_dead_letters_dropped_total',
      () =>
        new Counter({
          name: 'furnace_ingest_dead_letters_dropped_total',
          help: 'Refused messages counted but not kept (dead-letter queue full)',
          registers,
        }),
    );
    this.busPublishFailed = reuse(
      registry,
      'furnace_ingest_bus_publish_failed_total',
      () =>
        new Counter({
          name: 'furnace_ingest_bus_publish_failed_total',
          help: 'Frames stored but not published to live viewers (bus unreachable)',
          registers,
        }),
    );
    this.batchWrite = reuse(
      registry,
      'furnace_ingest_batch_write_seconds',
      () =>
        new Histogram({
          name: 'furnace_ingest_batch_write_seconds',
          help: 'Duration of one batch insert into the readings table',
          labelNames: ['outcome'] as const,
          buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
          registers,
        }),
    );
    this.publishDelay = reuse(
      registry,
      'furnace_ingest_publish_delay_seconds',
      () =>
        new Histogram({
          name: 'furnace_ingest_publish_delay_seconds',
          help: 'From MQTT receipt to bus publish (batching and the write included)',
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5],
          registers,
        }),
    );
    this.bufferDepth = reuse(
      registry,
      'furnace_ingest_buffer_frames',
      () =>
        new Gauge({
          name: 'furnace_ingest_buffer_frames',
          help: 'Frames waiting to be written (batch and outage buffer)',
          registers,
        }),
    );
    this.databaseUp = reuse(
      registry,
      'furnace_ingest_database_up',
      () =>
        new Gauge({
          name: 'furnace_ingest_database_up',
          help: '1 while batch writes succeed, 0 while frames are buffered',
          registers,
        }),
    );
    this.brokerConnected = reuse(
      registry,
      'furnace_ingest_broker_connected',
      () =>
        new Gauge({ name: 'furnace_ingest_broker_connected', help: '1 while connected to the MQTT broker', registers }),
    );
  }
}

function reuse<T>(registry: Registry, name: string, create: () => T): T {
  // prom-client types getSingleMetric as the base Metric; the name identifies the kind we created.
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}
