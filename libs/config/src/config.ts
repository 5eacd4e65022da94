// One loader per process, each composed of the sections it uses (./sections.ts). A loader is pure:
// the environment in, the configuration or one ConfigError naming every problem out. Nothing else in
// the system reads process.env. See docs/architecture.md, "Configuration".
import { join } from 'node:path';
import { redactUrl } from '@furnace/contracts';
import { type Env, readEnv } from './env';
import {
  apiFields,
  apiSettings,
  type ApiSettings,
  brokerFields,
  busFields,
  databaseFields,
  dataDirOf,
  demoFields,
  dynsecConfig,
  type DynsecConfig,
  dynsecFields,
  dynsecWithBroker,
  mqttConfig,
  type MqttConfig,
  mqttCredentialsTogether,
  mqttFields,
  ownSuperuserPassword,
  processConfig,
  type ProcessConfig,
  processFields,
  required,
  secretFields,
  secretRequired,
  senderWithSmtp,
} from './sections';

/** What the API (libs/api-server) runs with, in its own process or inside `npm start`. */
export interface ApiConfig extends ProcessConfig, ApiSettings {
  /** Unset only inside `npm start`, which then embeds PGlite. */
  databaseUrl?: string;
  /** Unset: the bus is in-process (one process runs ingest and API). */
  redisUrl?: string;
  /** Set: the API mirrors the furnace DAQ credentials into Mosquitto's dynamic security plugin. */
  dynsec?: DynsecConfig;
}

/** What the ingest (libs/ingest) runs with, in its own process or inside `npm start`. */
export interface IngestConfig extends ProcessConfig, MqttConfig {
  databaseUrl?: string;
  redisUrl?: string;
  /** The broker is `npm start`'s embedded aedes (no shared subscriptions). */
  embedded: { broker: boolean };
}

/** `npm start` (apps/standalone): the API and the ingest in one process, embedding what is not configured. */
export interface StandaloneConfig extends ApiConfig, IngestConfig {
  dataDir: string;
  /** Port of the embedded broker. */
  mqttPort: number;
  /** Address the embedded broker listens on (127.0.0.1 unless MQTT_HOST says otherwise). */
  mqttHost: string;
  embedded: { database: boolean; bus: boolean; broker: boolean };
  /** Embedded mode offers a demo research fed by the simulator. */
  demo: boolean;
}

const bySeparate = (process: string) =>
  `by a separate ${process} process (\`npm start\` runs the embedded system in one process)`;
const BY_API_PROCESS = bySeparate('API');
const BY_INGEST_PROCESS = bySeparate('ingest');

const apiProcessFields = {
  ...processFields,
  ...databaseFields,
  ...busFields,
  ...secretFields,
  ...apiFields,
  ...dynsecFields,
};

/** The API as its own process (apps/api): a database server and Redis are required, and a secret of its own. */
export function loadApiConfig(env: Env = process.env): ApiConfig & { databaseUrl: string; redisUrl: string } {
  const e = readEnv(env, apiProcessFields, [
    required('DATABASE_URL', BY_API_PROCESS),
    required('REDIS_URL', BY_API_PROCESS),
    secretRequired,
    ownSuperuserPassword,
    senderWithSmtp,
    dynsecWithBroker,
  ]);
  return {
    ...processConfig(e),
    ...apiSettings(e),
    ...dynsecConfig(e),
    databaseUrl: e.DATABASE_URL!,
    redisUrl: e.REDIS_URL!,
  };
}

// SECRET_KEY is required of every separate process alike (docker-compose.yml gives it to all), though the
// ingest signs nothing with it: it is checked, not kept.
const ingestProcessFields = { ...processFields, ...databaseFields, ...busFields, ...secretFields, ...mqttFields };

/** The ingest as its own process (apps/ingest): the database, Redis, the broker and SECRET_KEY are required. */
export function loadIngestConfig(
  env: Env = process.env,
): IngestConfig & { databaseUrl: string; redisUrl: string; mqttUrl: string } {
  const e = readEnv(env, ingestProcessFields, [
    required('DATABASE_URL', BY_INGEST_PROCESS),
    required('REDIS_URL', BY_INGEST_PROCESS),
    required('MQTT_URL', BY_INGEST_PROCESS),
    secretRequired,
    mqttCredentialsTogether,
  ]);
  return {
    ...processConfig(e),
    ...mqttConfig(e),
    databaseUrl: e.DATABASE_URL!,
    redisUrl: e.REDIS_URL!,
    mqttUrl: e.MQTT_URL!,
    embedded: { broker: false },
  };
}

const standaloneFields = {
  ...apiProcessFields,
  ...mqttFields,
  ...brokerFields,
  ...demoFields,
};

/**
 * `npm start` (apps/standalone), and tests that run the API or the ingest in one process: whatever
 * service is not configured is embedded. SECRET_KEY is required; without DATABASE_URL, `npm start`
 * passes the one it keeps in the data directory (see embeddedSecretDir).
 */
export function loadStandaloneConfig(env: Env = process.env): StandaloneConfig {
  const e = readEnv(env, standaloneFields, [
    secretRequired,
    ownSuperuserPassword,
    senderWithSmtp,
    mqttCredentialsTogether,
    dynsecWithBroker,
  ]);
  const embeddedDatabase = !e.DATABASE_URL;
  return {
    ...processConfig(e),
    ...apiSettings(e),
    ...mqttConfig(e),
    ...dynsecConfig(e),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mqttPort: e.MQTT_PORT,
    mqttHost: e.MQTT_HOST,
    embedded: { database: embeddedDatabase, bus: !e.REDIS_URL, broker: !e.MQTT_URL },
    demo: e.DEMO && embeddedDatabase,
  };
}

/** A tool that needs the database server only (the migration CLI). */
export function loadDatabaseConfig(env: Env = process.env): { databaseUrl: string } {
  const e = readEnv(env, databaseFields, [
    required('DATABASE_URL', 'to generate migrations against a PostgreSQL server'),
  ]);
  return { databaseUrl: e.DATABASE_URL! };
}

/**
 * The data directory in which `npm start` keeps the secret it signs tokens with: when neither
 * SECRET_KEY nor DATABASE_URL is set (an embedded start); otherwise undefined. Reads nothing from disk.
 */
export function embeddedSecretDir(env: Env = process.env): string | undefined {
  const blank = (v?: string) => !v || v.trim() === '';
  return blank(env.SECRET_KEY) && blank(env.DATABASE_URL) ? dataDirOf(env) : undefined;
}

/** The configuration without its secrets, for a start-up log line. */
export function describeConfig(c: StandaloneConfig): Record<string, unknown> {
  const redact = (url?: string) => (url ? redactUrl(url) : undefined);
  return {
    port: c.port,
    dataDir: c.dataDir,
    database: c.databaseUrl ? redact(c.databaseUrl) : 'embedded (PGlite)',
    bus: c.redisUrl ? redact(c.redisUrl) : 'in-process',
    broker: c.mqttUrl ? redact(c.mqttUrl) : `embedded (aedes) on ${c.mqttHost}:${c.mqttPort}`,
    mail: c.smtp ? `smtp://${c.smtp.host}:${c.smtp.port}` : `outbox (${join(c.dataDir, 'outbox')})`,
    frontendHost: c.frontendHost,
  };
}
