import { Logger } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { Bus } from '@furnace/bus';
import type { IngestConfig } from '@furnace/config';
import { DAQ_TOPIC_FILTER, FURNACE_TOPIC_FILTER } from '@furnace/contracts';
import { FurnaceDirectory, type FurnaceDirectoryOptions } from './furnace-directory';
import { type IngestLog, type IngestOptions, IngestService } from './ingest.service';
import { IngestMetrics } from './metrics';
import { MqttSource } from './mqtt-source';
import { ReadingsRepository } from './readings.repository';
import { ResearchDirectory, type ResearchDirectoryOptions } from './research-directory';

export interface IngestDeps {
  /** The database (the embedded one's URL in `npm start`). */
  databaseUrl: string;
  bus: Bus;
  /** Broker URL when it is not config.mqttUrl (the embedded broker in `npm start`). */
  mqttUrl?: string;
  /** Credentials when they are not config.mqttUsername/mqttPassword (the embedded broker's generated ingest password). */
  mqttCredentials?: { username: string; password: string };
  /** Where the metrics go; prom-client's default registry (served by the API in `npm start`) when unset. */
  registry?: Registry;
  logger?: IngestLog;
  options?: IngestOptions & {
    research?: ResearchDirectoryOptions;
    furnaces?: FurnaceDirectoryOptions;
    reconnect?: { minMs: number; maxMs: number };
    /** Topics to subscribe to (default furnace/+/data and lab/+/data); tests sharing one broker narrow it to their own. */
    topics?: readonly string[];
    /** Shared-subscription group (default config.mqttSharedGroup); tests sharing one broker use their own. */
    sharedGroup?: string;
  };
}

export interface RunningIngest {
  service: IngestService;
  metrics: IngestMetrics;
  source: MqttSource;
  /** The topic filters subscribed to. */
  filters: readonly string[];
  /** Resolves once the subscription is active (the broker may be down at start: the ingest keeps trying). */
  ready: Promise<void>;
  /** Writes what it holds, then disconnects; returns the frames that could not be written. */
  stop(): Promise<number>;
}

/**
 * Starts the ingest: MQTT subscription (persistent session) → validation → batched, idempotent
 * writes → bus. Used by the ingest's own process (apps/ingest/src/main.ts) and by `npm start`.
 */
export function startIngest(config: IngestConfig, deps: IngestDeps): RunningIngest {
  const url = deps.mqttUrl ?? config.mqttUrl;
  if (!url) throw new Error('The ingest needs a broker: MQTT_URL, or the embedded broker');
  const logger = deps.logger ?? new Logger('Ingest');
  const metrics = new IngestMetrics(deps.registry);
  const repository = new ReadingsRepository(deps.databaseUrl);
  const directory = new ResearchDirectory((id) => repository.findResearch(id), deps.options?.research);
  const furnaces = new FurnaceDirectory(
    {
      schedule: (code, since) => repository.findFurnaceSchedule(code, since),
      testAt: (furnaceId, at) => repository.findFurnaceTestAt(furnaceId, at),
    },
    deps.options?.furnaces,
  );
  // The embedded aedes has no shared subscriptions; a configured broker gets one so instances can be added.
  const shared = config.mqttSharedSubscription && !config.embedded.broker;
  const service = new IngestService(
    repository,
    deps.bus,
    directory,
    metrics,
    logger,
    { maxBufferedFrames: config.ingestBufferFrames, sourceId: config.mqttClientId, ...deps.options },
    furnaces,
  );
  const topics = deps.options?.topics ?? [DAQ_TOPIC_FILTER, FURNACE_TOPIC_FILTER];
  const group = deps.options?.sharedGroup ?? config.mqttSharedGroup;
  const filters = topics.map((topic) => (shared ? `$share/${group}/${topic}` : topic));
  let lastBrokerError = '';
  const source = new MqttSource({
    url,
    clientId: config.mqttClientId,
    username: deps.mqttCredentials?.username ?? config.mqttUsername,
    password: deps.mqttCredentials?.password ?? config.mqttPassword,
    filters,
    minReconnectMs: deps.options?.reconnect?.minMs,
    maxReconnectMs: deps.options?.reconnect?.maxMs,
    onMessage: (topic, payload, ack) => service.receive(topic, payload, ack),
    onConnectionChange: (connected) => {
      metrics.brokerConnected.set(connected ? 1 : 0);
      if (connected) {
        logger.log(`Connected to the MQTT broker, subscribed to ${filters.join(', ')} as ${config.mqttClientId}`);
        lastBrokerError = '';
      }
    },
    onError: (error) => {
      // Logged once per distinct error: a broker that stays down would otherwise log every retry.
      if (error.message === lastBrokerError) return;
      lastBrokerError = error.message;
      logger.warn(`MQTT: ${error.message}`);
    },
  });
  const ready = source.start();
  let stopping: Promise<number> | null = null;
  return {
    service,
    metrics,
    source,
    filters,
    ready,
    stop() {
      stopping ??= (async () => {
        // Writes first, while connected, so the acks of what is written still reach the broker.
        const lost = await service.stop();
        await source.stop();
        await repository.close();
        return lost;
      })();
      return stopping;
    },
  };
}
