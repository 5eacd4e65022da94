import { Registry } from 'prom-client';
import type { Bus } from '@furnace/bus';
import { type IngestConfig, loadStandaloneConfig } from '@furnace/config';
import { daqTopic } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  connectPublisher,
  dropSession,
  quietLogger,
  startTestBroker,
  type TestBroker,
  testBus,
  uniqueId,
} from '@furnace/testing';
import type { MqttClient } from 'mqtt';
import { type IngestDeps, type RunningIngest, startIngest } from '../src/ingest';

/*
 * What the ingest's integration tests share (the helpers every tier shares are in @furnace/testing): the real services named by TEST_MQTT_URL, TEST_REDIS_URL
 * and TEST_DATABASE_URL, or their embedded equivalents when unset. Every name a test creates
 * (research ids, MQTT client ids, shared-subscription groups) is unique, so files run in parallel
 * against the same Mosquitto and Redis.
 */

/**
 * The configuration an ingest of the test runs with: as inside `npm start` (the bus the test passes,
 * in-process or Redis), against the test's database and broker.
 */
export function ingestConfig(databaseUrl: string, broker: TestBroker, env: Record<string, string> = {}): IngestConfig {
  return loadStandaloneConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    FIRST_SUPERUSER_PASSWORD: 'unused-by-the-ingest',
    MQTT_URL: broker.url,
    MQTT_CLIENT_ID: uniqueId('ingest'),
    // aedes has no shared subscriptions; Mosquitto does, and the production ingest uses them.
    MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
    ...env,
  });
}

/** Starts an ingest subscribed to the given research topics only (other files' traffic stays out). */
export async function startTestIngest(
  config: IngestConfig,
  bus: Bus,
  researchIds: readonly string[] | 'all',
  options: IngestDeps['options'] = {},
): Promise<RunningIngest> {
  const ingest = startIngest(config, {
    databaseUrl: config.databaseUrl!,
    bus,
    registry: new Registry(),
    logger: quietLogger(),
    options: {
      topics: researchIds === 'all' ? undefined : researchIds.map((id) => daqTopic(id)),
      sharedGroup: uniqueId('group'),
      reconnect: { minMs: 100, maxMs: 1000 },
      ...options,
    },
  });
  await ingest.ready;
  return ingest;
}

export async function metricValue(
  ingest: RunningIngest,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = await ingest.metrics.registry.getSingleMetric(name)?.get();
  const match = metric?.values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return match?.value ?? 0;
}

export interface TestEnvironment {
  db: TestDatabase;
  broker: TestBroker;
  bus: Bus;
  publisher: MqttClient;
  /** Run in reverse order after the file's tests (ingests to stop, sessions to drop). */
  cleanups: (() => Promise<unknown>)[];
}

/**
 * A test file's database, broker, bus and publishing client, made before its tests and taken down
 * after them (with whatever the tests added to `cleanups`).
 */
export function useTestEnvironment(): TestEnvironment {
  const env = { cleanups: [] } as unknown as TestEnvironment;
  beforeAll(async () => {
    [env.db, env.broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
    env.bus = await testBus();
    env.publisher = await connectPublisher(env.broker.url);
  });
  afterAll(async () => {
    for (const cleanup of env.cleanups.reverse()) await cleanup().catch(() => undefined);
    await env.publisher?.endAsync();
    await env.bus?.close();
    await env.broker?.stop();
    await env.db?.drop();
  });
  return env;
}

/** An ingest for the given research topics, stopped (and its broker session dropped) after the file's tests. */
export async function ingestFor(
  env: TestEnvironment,
  researchIds: readonly string[] | 'all',
  options: IngestDeps['options'] = {},
  databaseUrl = env.db.url,
): Promise<RunningIngest> {
  const config = ingestConfig(databaseUrl, env.broker);
  const ingest = await startTestIngest(config, env.bus, researchIds, options);
  env.cleanups.push(async () => {
    await ingest.stop();
    await dropSession(env.broker.url, config.mqttClientId);
  });
  return ingest;
}
