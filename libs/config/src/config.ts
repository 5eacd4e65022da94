import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@furnace/contracts';

/** Raised when the environment does not describe a runnable system; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const port = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(fallback));
const bool = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  );
const urlWith = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      }, `expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`)
      .optional(),
  );
const email = z.email({ message: 'expected an e-mail address' });

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: port(8000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: urlWith(['postgres:', 'postgresql:']),
  REDIS_URL: urlWith(['redis:', 'rediss:']),
  MQTT_URL: urlWith(['mqtt:', 'mqtts:', 'tcp:', 'ws:', 'wss:']),
  MQTT_PORT: port(1883),
  MQTT_USERNAME: optionalString,
  MQTT_PASSWORD: optionalString,
  // The ingest's MQTT client id: stable across restarts (its persistent session holds what the broker
  // received meanwhile); each ingest instance needs its own.
  MQTT_CLIENT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1 to 64 letters, digits, "_", "." or "-"')
      .default('furnace-ingest'),
  ),
  MQTT_SHARED_SUBSCRIPTION: bool(true),
  // The shared-subscription group: the instances of one deployment share it; two deployments (or a
  // test run) on one broker each need their own, or the broker splits one's frames with the other.
  MQTT_SHARED_GROUP: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1 to 64 letters, digits, "_", "." or "-"')
      .default('furnace-ingest'),
  ),
  INGEST_BUFFER_FRAMES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1000).max(10_000_000).default(100_000)),
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_EXPIRE_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(60 * 24 * 8)),
  FIRST_SUPERUSER: z.preprocess(emptyToUndefined, email.default('admin@example.com')),
  FIRST_SUPERUSER_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).default('changethis'),
  ),
  FRONTEND_HOST: urlWith(['http:', 'https:']),
  SMTP_HOST: optionalString,
  SMTP_PORT: port(587),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_TLS: bool(true),
  SMTP_SSL: bool(false),
  EMAILS_FROM_EMAIL: z.preprocess(emptyToUndefined, email.optional()),
  EMAILS_FROM_NAME: optionalString,
  INTERNAL_CLIENT_EMAIL: z.preprocess(emptyToUndefined, email.optional()),
  BRAND_NAME: z.preprocess(emptyToUndefined, z.string().default('Furnace Live')),
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(['json', 'pretty']).optional()),
  LOGIN_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(10)),
  DEMO: bool(true),
});

export type Env = z.input<typeof envSchema>;

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** Unset: the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  /** Unset: the bus is in-process (one process runs ingest and API). */
  redisUrl?: string;
  /** Unset: the embedded aedes broker listens on mqttPort. */
  mqttUrl?: string;
  mqttPort: number;
  mqttUsername?: string;
  mqttPassword?: string;
  /** The ingest's MQTT client id (persistent session). */
  mqttClientId: string;
  /**
   * Subscribe through the shared subscription `$share/furnace-ingest/…` so several ingest instances
   * split the load. Applies to a configured broker (MQTT_URL); the embedded aedes has no shared
   * subscriptions and one ingest.
   */
  mqttSharedSubscription: boolean;
  /** Name of the shared-subscription group (`$share/{group}/…`) the instances of one deployment join. */
  mqttSharedGroup: string;
  /** Frames the ingest holds in memory while the database is unreachable; beyond it the oldest are dropped (counted). */
  ingestBufferFrames: number;
  embedded: { database: boolean; bus: boolean; broker: boolean };
  secretKey: string;
  accessTokenExpireMinutes: number;
  firstSuperuser: string;
  firstSuperuserPassword: string;
  frontendHost: string;
  smtp?: { host: string; port: number; user?: string; password?: string; tls: boolean; ssl: boolean };
  emailsFrom: { address: string; name: string };
  internalClientEmail?: string;
  brandName: string;
  logFormat: 'json' | 'pretty';
  loginRateLimit: number;
  /** Embedded mode offers a demo research fed by the simulator. */
  demo: boolean;
}

/** Reads the secret kept in the data directory, creating it on first start (embedded mode only). */
function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Validates the environment once. Every problem is reported at once, each naming its variable;
 * nothing else in the system reads process.env.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const embeddedDatabase = !e.DATABASE_URL;
  if (!embeddedDatabase && !e.SECRET_KEY) {
    throw new ConfigError('Invalid configuration:\n  SECRET_KEY: required when DATABASE_URL is set (at least 32 characters)');
  }
  if (e.SMTP_HOST && !e.EMAILS_FROM_EMAIL) {
    throw new ConfigError('Invalid configuration:\n  EMAILS_FROM_EMAIL: required when SMTP_HOST is set');
  }
  const secretKey = e.SECRET_KEY ?? embeddedSecret(dataDir);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    mqttUsername: e.MQTT_USERNAME,
    mqttPassword: e.MQTT_PASSWORD,
    mqttClientId: e.MQTT_CLIENT_ID,
    mqttSharedSubscription: e.MQTT_SHARED_SUBSCRIPTION,
    mqttSharedGroup: e.MQTT_SHARED_GROUP,
    ingestBufferFrames: e.INGEST_BUFFER_FRAMES,
    embedded: { database: embeddedDatabase, bus: !e.REDIS_URL, broker: !e.MQTT_URL },
    secretKey,
    accessTokenExpireMinutes: e.ACCESS_TOKEN_EXPIRE_MINUTES,
    firstSuperuser: e.FIRST_SUPERUSER,
    firstSuperuserPassword: e.FIRST_SUPERUSER_PASSWORD,
    frontendHost: (e.FRONTEND_HOST ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtp: e.SMTP_HOST
      ? { host: e.SMTP_HOST, port: e.SMTP_PORT, user: e.SMTP_USER, password: e.SMTP_PASSWORD, tls: e.SMTP_TLS, ssl: e.SMTP_SSL }
      : undefined,
    emailsFrom: { address: e.EMAILS_FROM_EMAIL ?? 'noreply@furnace.local', name: e.EMAILS_FROM_NAME ?? e.BRAND_NAME },
    internalClientEmail: e.INTERNAL_CLIENT_EMAIL,
    brandName: e.BRAND_NAME,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'pretty'),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    demo: e.DEMO && embeddedDatabase,
  };
}

/** The configuration without its secrets, for a start-up log line. */
export function describeConfig(c: AppConfig): Record<string, unknown> {
  const redact = (url?: string) => {
    if (!url) return undefined;
    try {
      const u = new URL(url);
      if (u.password) u.password = '***';
      return u.toString();
    } catch {
      return '***';
    }
  };
  return {
    port: c.port,
    dataDir: c.dataDir,
    database: c.databaseUrl ? redact(c.databaseUrl) : 'embedded (PGlite)',
    bus: c.redisUrl ? redact(c.redisUrl) : 'in-process',
    broker: c.mqttUrl ? redact(c.mqttUrl) : `embedded (aedes) on port ${c.mqttPort}`,
    mail: c.smtp ? `smtp://${c.smtp.host}:${c.smtp.port}` : `outbox (${join(c.dataDir, 'outbox')})`,
    frontendHost: c.frontendHost,
  };
}
