// The sections a process's configuration is composed of: each one's variables (fields), the checks
// across them (rules) and what it becomes in the configuration (build). Which process loads which
// section: docs/architecture.md, "Configuration".
import { resolve } from 'node:path';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@furnace/contracts';
import {
  bool,
  emailOr,
  type Env,
  frameAncestors,
  integer,
  isAddressOrCidr,
  isOrigin,
  mqttName,
  oneOf,
  optionalEmail,
  optionalList,
  optionalSecret,
  optionalString,
  port,
  type Rule,
  stringOr,
  urlWith,
  type Values,
} from './env';

/** The first superuser's password when none is configured: only for a first look on one machine. */
export const DEFAULT_SUPERUSER_PASSWORD = 'changethis';

/** True for an address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

// ---- process: what every process reads (its HTTP listener and its logs) ----

export const processFields = {
  NODE_ENV: oneOf(['development', 'production', 'test'], 'development'),
  PORT: port(8000),
  HOST: stringOr('0.0.0.0'),
  LOG_FORMAT: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(['json', 'pretty'], { message: 'expected json or pretty' }).optional(),
  ),
};

export interface ProcessConfig {
  env: 'development' | 'production' | 'test';
  /** The HTTP port: the API and dashboard, or the ingest's /health and /metrics. */
  port: number;
  host: string;
  logFormat: 'json' | 'pretty';
}

export const processConfig = (e: Values<typeof processFields>): ProcessConfig => ({
  env: e.NODE_ENV,
  port: e.PORT,
  host: e.HOST,
  logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'pretty'),
});

// ---- database, bus: the services; unset, `npm start` embeds them ----

export const databaseFields = { DATABASE_URL: urlWith(['postgres:', 'postgresql:']) };
export const busFields = { REDIS_URL: urlWith(['redis:', 'rediss:']) };

/** `name` must be set (`why`: when or for what), e.g. a service a separate process cannot embed. */
export function required<V extends Record<string, unknown>>(name: keyof V & string, why: string): Rule<V> {
  return { uses: [name], check: (e) => (e[name] === undefined ? `${name}: required ${why}` : undefined) };
}

// ---- data directory: the embedded database, the mail outbox, the generated secret ----

const dataDirFields = { DATA_DIR: stringOr('./data') };

/** DATA_DIR as an absolute path. */
export function dataDirOf(env: Env): string {
  return resolve(dataDirFields.DATA_DIR.parse(env.DATA_DIR));
}

// ---- secret: what signs the API's tokens ----

export const secretFields = { SECRET_KEY: optionalSecret(32, 'must be at least 32 characters') };

/**
 * SECRET_KEY is required by every process that loads it: it signs the API's tokens. `npm start` without
 * DATABASE_URL passes the one it keeps in DATA_DIR (apps/standalone), so there only a start on a database
 * server asks for it.
 */
export const secretRequired: Rule<Values<typeof secretFields & typeof databaseFields>> = {
  uses: ['SECRET_KEY', 'DATABASE_URL'],
  check: (e) =>
    e.SECRET_KEY
      ? undefined
      : `SECRET_KEY: required${e.DATABASE_URL ? ' when DATABASE_URL is set' : ''} (at least 32 characters)`,
};

// ---- mqtt: the ingest's client of the broker ----

export const mqttFields = {
  MQTT_URL: urlWith(['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']),
  MQTT_USERNAME: optionalString,
  MQTT_PASSWORD: optionalString,
  // Stable across restarts (its persistent session holds what the broker received meanwhile); each
  // ingest instance needs its own.
  MQTT_CLIENT_ID: mqttName('furnace-ingest'),
  MQTT_SHARED_SUBSCRIPTION: bool(true),
  // The instances of one deployment share the group; two deployments (or a test run) on one broker
  // each need their own, or the broker splits one's frames with the other.
  MQTT_SHARED_GROUP: mqttName('furnace-ingest'),
  INGEST_BUFFER_FRAMES: integer(100_000, 1000, 10_000_000),
};

export interface MqttConfig {
  /** Unset: the embedded aedes broker (`npm start` only). */
  mqttUrl?: string;
  mqttUsername?: string;
  mqttPassword?: string;
  /** The ingest's MQTT client id (persistent session). */
  mqttClientId: string;
  /**
   * Subscribe through the shared subscription `$share/{group}/…` so several ingest instances split
   * the load. Applies to a configured broker (MQTT_URL); the embedded aedes has no shared
   * subscriptions and one ingest.
   */
  mqttSharedSubscription: boolean;
  /** Name of the shared-subscription group (`$share/{group}/…`) the instances of one deployment join. */
  mqttSharedGroup: string;
  /** Frames the ingest holds in memory while the database is unreachable; beyond it the oldest are dropped (counted). */
  ingestBufferFrames: number;
}

export const mqttCredentialsTogether: Rule<Values<typeof mqttFields>> = {
  uses: ['MQTT_USERNAME', 'MQTT_PASSWORD'],
  check: (e) =>
    !!e.MQTT_USERNAME === !!e.MQTT_PASSWORD
      ? undefined
      : e.MQTT_USERNAME
        ? 'MQTT_PASSWORD: required with MQTT_USERNAME'
        : 'MQTT_USERNAME: required with MQTT_PASSWORD',
};

export const mqttConfig = (e: Values<typeof mqttFields>): MqttConfig => ({
  mqttUrl: e.MQTT_URL,
  mqttUsername: e.MQTT_USERNAME,
  mqttPassword: e.MQTT_PASSWORD,
  mqttClientId: e.MQTT_CLIENT_ID,
  mqttSharedSubscription: e.MQTT_SHARED_SUBSCRIPTION,
  mqttSharedGroup: e.MQTT_SHARED_GROUP,
  ingestBufferFrames: e.INGEST_BUFFER_FRAMES,
});

// ---- dynsec: the API as administrator of Mosquitto's dynamic security plugin ----

// A broker named by MQTT_URL (Mosquitto) learns each furnace's DAQ credential from the API, which
// signs in as this administrator (docs/behaviour.md §16). Unset: the API tells no broker (the embedded
// aedes reads the credentials from the database itself).
export const dynsecFields = {
  MQTT_URL: mqttFields.MQTT_URL,
  MQTT_DYNSEC_USERNAME: optionalString,
  MQTT_DYNSEC_PASSWORD: optionalString,
};

export interface DynsecConfig {
  /** The broker whose dynamic security plugin holds the furnace DAQs' clients. */
  url: string;
  username: string;
  password: string;
}

export const dynsecWithBroker: Rule<Values<typeof dynsecFields>> = {
  uses: ['MQTT_URL', 'MQTT_DYNSEC_USERNAME', 'MQTT_DYNSEC_PASSWORD'],
  check: (e) =>
    !!e.MQTT_DYNSEC_USERNAME !== !!e.MQTT_DYNSEC_PASSWORD
      ? e.MQTT_DYNSEC_USERNAME
        ? 'MQTT_DYNSEC_PASSWORD: required with MQTT_DYNSEC_USERNAME'
        : 'MQTT_DYNSEC_USERNAME: required with MQTT_DYNSEC_PASSWORD'
      : e.MQTT_DYNSEC_USERNAME && !e.MQTT_URL
        ? 'MQTT_DYNSEC_USERNAME: applies to a broker named by MQTT_URL (Mosquitto); the embedded broker needs none'
        : undefined,
};

export const dynsecConfig = (e: Values<typeof dynsecFields>): { dynsec?: DynsecConfig } =>
  e.MQTT_URL && e.MQTT_DYNSEC_USERNAME && e.MQTT_DYNSEC_PASSWORD
    ? { dynsec: { url: e.MQTT_URL, username: e.MQTT_DYNSEC_USERNAME, password: e.MQTT_DYNSEC_PASSWORD } }
    : {};

// ---- broker: the embedded aedes of `npm start` ----

export const brokerFields = {
  MQTT_PORT: port(1883),
  // Loopback unless said otherwise; every client signs in either way (docs/behaviour.md §16).
  MQTT_HOST: stringOr('127.0.0.1'),
};

// ---- api: accounts, mail and the HTTP surface ----

export const apiFields = {
  ...dataDirFields,
  ACCESS_TOKEN_EXPIRE_MINUTES: integer(60 * 24 * 8, 1),
  FIRST_SUPERUSER: emailOr('admin@example.com'),
  FIRST_SUPERUSER_PASSWORD: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .default(DEFAULT_SUPERUSER_PASSWORD),
  ),
  SIGNUP: oneOf(['approval', 'open', 'off'], 'approval'),
  LOGIN_RATE_LIMIT: integer(10, 1),
  SIGNUP_RATE_LIMIT: integer(10, 1),
  PASSWORD_HASH_CONCURRENCY: integer(2, 1, 64),
  // Mail
  FRONTEND_HOST: urlWith(['http:', 'https:']),
  SMTP_HOST: optionalString,
  SMTP_PORT: port(587),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_TLS: bool(true),
  SMTP_SSL: bool(false),
  EMAILS_FROM_EMAIL: optionalEmail,
  EMAILS_FROM_NAME: optionalString,
  INTERNAL_CLIENT_EMAIL: optionalEmail,
  BRAND_NAME: stringOr('Furnace Live'),
  // HTTP
  TRUST_PROXY: optionalList(isAddressOrCidr, 'expected IP addresses or CIDRs separated by commas, e.g. 172.16.0.0/12'),
  ALLOWED_ORIGINS: optionalList(isOrigin, 'expected origins separated by commas, e.g. https://furnace.example.com'),
  FRAME_ANCESTORS: frameAncestors,
  METRICS_TOKEN: optionalSecret(32, 'expected at least 32 characters (openssl rand -hex 32)'),
  HEAVY_WORK_CONCURRENCY: integer(2, 1, 64),
  LIVE_STREAMS_PER_USER: integer(20, 1),
  LIVE_STREAMS_PER_CLIENT: integer(10, 1),
};

export interface ApiSettings {
  /** Where the mail outbox is kept when SMTP_HOST is unset. */
  dataDir: string;
  secretKey: string;
  accessTokenExpireMinutes: number;
  firstSuperuser: string;
  firstSuperuserPassword: string;
  /** True when FIRST_SUPERUSER_PASSWORD was not set: the first superuser must change it at the first sign-in. */
  firstSuperuserPasswordIsDefault: boolean;
  /** Self sign-up: `approval` (an inactive account a superuser activates), `open` (active at once) or `off` (403). */
  signup: 'approval' | 'open' | 'off';
  loginRateLimit: number;
  /** Sign-ups per hour per address (429 above). */
  signupRateLimit: number;
  /** Password hashes (argon2, 64 MiB each) computed at once; the rest wait. */
  passwordHashConcurrency: number;
  frontendHost: string;
  smtp?: { host: string; port: number; user?: string; password?: string; tls: boolean; ssl: boolean };
  emailsFrom: { address: string; name: string };
  internalClientEmail?: string;
  brandName: string;
  /** Addresses/CIDRs of proxies whose X-Forwarded-For is believed; empty: none (the socket's address counts). */
  trustProxy: string[];
  /** Origins whose pages may open a live stream (requests without Origin always may). */
  allowedOrigins: string[];
  /** CSP frame-ancestors sources: who may show the dashboard in a frame ('none' by default). */
  frameAncestors: string[];
  /** The bearer token GET /api/v1/metrics asks for; unset: the metrics are served to this machine only. */
  metricsToken?: string;
  /** History exports and PDF reports made at once by one API instance; one more is answered 429. */
  heavyWorkConcurrency: number;
  /** Live streams one staff user may hold open on one API instance; one more is refused 429. */
  liveStreamsPerUser: number;
  /** Live streams one client e-mail record (code or viewer token) may hold open on one API instance. */
  liveStreamsPerClient: number;
}

export const senderWithSmtp: Rule<Values<typeof apiFields>> = {
  uses: ['SMTP_HOST', 'EMAILS_FROM_EMAIL'],
  check: (e) => (e.SMTP_HOST && !e.EMAILS_FROM_EMAIL ? 'EMAILS_FROM_EMAIL: required when SMTP_HOST is set' : undefined),
};

/** The well-known default password is refused anywhere but a local embedded start. */
export const ownSuperuserPassword: Rule<Values<typeof apiFields & typeof databaseFields & typeof processFields>> = {
  uses: ['FIRST_SUPERUSER_PASSWORD', 'DATABASE_URL', 'NODE_ENV'],
  check: (e) =>
    e.FIRST_SUPERUSER_PASSWORD === DEFAULT_SUPERUSER_PASSWORD && (e.DATABASE_URL || e.NODE_ENV === 'production')
      ? `FIRST_SUPERUSER_PASSWORD: must be set to a password of your own (not "${DEFAULT_SUPERUSER_PASSWORD}") when DATABASE_URL is set or NODE_ENV=production`
      : undefined,
};

export function apiSettings(e: Values<typeof apiFields & typeof processFields & typeof secretFields>): ApiSettings {
  const frontendHost = (e.FRONTEND_HOST ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    dataDir: resolve(e.DATA_DIR),
    // Present: the secretRequired rule ran before.
    secretKey: e.SECRET_KEY!,
    accessTokenExpireMinutes: e.ACCESS_TOKEN_EXPIRE_MINUTES,
    firstSuperuser: e.FIRST_SUPERUSER,
    firstSuperuserPassword: e.FIRST_SUPERUSER_PASSWORD,
    firstSuperuserPasswordIsDefault: e.FIRST_SUPERUSER_PASSWORD === DEFAULT_SUPERUSER_PASSWORD,
    signup: e.SIGNUP,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY,
    frontendHost,
    smtp: e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT,
          user: e.SMTP_USER,
          password: e.SMTP_PASSWORD,
          tls: e.SMTP_TLS,
          ssl: e.SMTP_SSL,
        }
      : undefined,
    emailsFrom: { address: e.EMAILS_FROM_EMAIL ?? 'noreply@furnace.local', name: e.EMAILS_FROM_NAME ?? e.BRAND_NAME },
    internalClientEmail: e.INTERNAL_CLIENT_EMAIL,
    brandName: e.BRAND_NAME,
    trustProxy: e.TRUST_PROXY ?? [],
    allowedOrigins: (e.ALLOWED_ORIGINS ?? [new URL(frontendHost).origin]).map((o) => o.replace(/\/+$/, '')),
    frameAncestors: e.FRAME_ANCESTORS,
    metricsToken: e.METRICS_TOKEN,
    heavyWorkConcurrency: e.HEAVY_WORK_CONCURRENCY,
    liveStreamsPerUser: e.LIVE_STREAMS_PER_USER,
    liveStreamsPerClient: e.LIVE_STREAMS_PER_CLIENT,
  };
}

// ---- standalone only ----

export const demoFields = { DEMO: bool(true) };
