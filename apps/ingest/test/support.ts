import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { Client } from 'pg';
import { Registry } from 'prom-client';
import { type Bus, createBus } from '@furnace/bus';
import { type AppConfig, loadConfig } from '@furnace/config';
import { daqTopic, type DaqPayload } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { type EmbeddedBroker, startEmbeddedBroker } from '../src/embedded-broker';
import { type IngestDeps, type RunningIngest, startIngest } from '../src/ingest';

/*
 * What the ingest's medium tests share: the real services named by TEST_MQTT_URL, TEST_REDIS_URL
 * and TEST_DATABASE_URL, or their embedded equivalents when unset. Every name a test creates
 * (research ids, MQTT client ids, shared-subscription groups) is unique, so files run in parallel
 * against the same Mosquitto and Redis.
 */

// Tests read their environment directly: they are not part of the running system's configuration.
export const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

export interface TestBroker {
  url: string;
  /** The machine's Mosquitto (shared with other tests) rather than an embedded aedes of this file. */
  shared: boolean;
  stop(): Promise<void>;
}

export async function startTestBroker(): Promise<TestBroker> {
  if (TEST_MQTT_URL) return { url: TEST_MQTT_URL, shared: true, stop: async () => undefined };
  const broker: EmbeddedBroker = await startEmbeddedBroker({ port: 0, access: 'open' });
  return { url: broker.url, shared: false, stop: () => broker.stop() };
}

export const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

/** The configuration an ingest of the test runs with. */
export function ingestConfig(databaseUrl: string, broker: TestBroker, env: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    // Never written: with SECRET_KEY and DATABASE_URL set nothing is kept in the data directory.
    DATA_DIR: join(tmpdir(), 'furnace-ingest-unused'),
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    MQTT_URL: broker.url,
    MQTT_CLIENT_ID: uniqueId('ingest'),
    // aedes has no shared subscriptions; Mosquitto does, and the production ingest uses them.
    MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
    ...env,
  });
}

/** Starts an ingest subscribed to the given research topics only (other files' traffic stays out). */
export async function startTestIngest(
  config: AppConfig,
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

/** Logs warnings and errors only when DEBUG_TESTS is set: the fault tests provoke many on purpose. */
export function quietLogger() {
  const debug = !!process.env.DEBUG_TESTS;
  return {
    log: (m: string) => (debug ? console.log(m) : undefined),
    warn: (m: string) => (debug ? console.warn(m) : undefined),
    error: (m: string) => (debug ? console.error(m) : undefined),
  };
}

export function testBus(): Promise<Bus> {
  return createBus(TEST_REDIS_URL);
}

/** Removes a persistent session from the broker (the machine's Mosquitto keeps them on disk otherwise). */
export async function dropSession(url: string, clientId: string): Promise<void> {
  const client = await mqtt.connectAsync(url, { clientId, clean: true, protocolVersion: 4, reconnectPeriod: 0 });
  await client.endAsync();
}

export async function connectPublisher(url: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, { clientId: uniqueId('publisher'), protocolVersion: 4, clean: true });
}

/** A research row, inserted straight into the database (the REST API for researches belongs to another module). */
export async function insertResearch(
  databaseUrl: string,
  fields: Partial<{ id: string; name: string; startAt: Date; endAt: Date }> = {},
): Promise<string> {
  const id = fields.id ?? randomUUID();
  const start = fields.startAt ?? new Date(Date.now() - 60_000);
  const end = fields.endAt ?? new Date(Date.now() + 3 * 3600_000);
  await withPg(databaseUrl, (c) =>
    c.query('INSERT INTO research (id, name, start_at, end_at, is_radiance, is_furnance, is_pressure) VALUES ($1, $2, $3, $4, true, true, true)', [
      id,
      fields.name ?? `Test research ${id.slice(0, 8)}`,
      start,
      end,
    ]),
  );
  return id;
}

export async function withPg<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function countReadings(databaseUrl: string, researchId: string): Promise<number> {
  return withPg(databaseUrl, async (c) => {
    const r = await c.query<{ n: string }>('SELECT count(*) AS n FROM reading WHERE research_id = $1', [researchId]);
    return Number(r.rows[0]!.n);
  });
}

/** Times stored for a research, ascending. */
export async function storedTimes(databaseUrl: string, researchId: string): Promise<number[]> {
  return withPg(databaseUrl, async (c) => {
    const r = await c.query<{ time: number }>('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time"', [researchId]);
    return r.rows.map((row) => row.time);
  });
}

/**
 * Polls until `check` holds. The deadline only turns a hang into a readable failure: no test
 * asserts how long anything takes.
 */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A plain frame at `time`, with a few thermocouples. */
export function frame(time: number, overrides: Partial<DaqPayload> = {}): DaqPayload {
  return { time, radiance: 1.5, pressure: 16.2, pk: 500 + time, thermocouples_out: [20 + time / 100, 21, null], ...overrides };
}

export async function metricValue(ingest: RunningIngest, name: string, labels: Record<string, string> = {}): Promise<number> {
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
export async function ingestFor(env: TestEnvironment, researchIds: readonly string[] | 'all', options: IngestDeps['options'] = {}, databaseUrl = env.db.url): Promise<RunningIngest> {
  const config = ingestConfig(databaseUrl, env.broker);
  const ingest = await startTestIngest(config, env.bus, researchIds, options);
  env.cleanups.push(async () => {
    await ingest.stop();
    await dropSession(env.broker.url, config.mqttClientId);
  });
  return ingest;
}
