import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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

/** The first superuser's password when none is configured: only for a first look on one machine. */
export const DEFAULT_SUPERUSER_PASSWORD = 'changethis';

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
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol);
          } catch {
            return false;
          }
        },
        `expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      )
      .optional(),
  );
/** An IPv4/IPv6 address, optionally with a /prefix (what Express's `trust proxy` accepts). */
function isAddressOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (!family) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** scheme://host[:port] and nothing more (what a browser sends as Origin). */
function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

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
  // Where the embedded broker listens: loopback unless said otherwise (beyond it, credentials are required).
  MQTT_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
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
  INGEST_BUFFER_FRAMES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  ),
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_EXPIRE_MINUTES: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .positive()
      .default(60 * 24 * 8),
  ),
  FIRST_SUPERUSER: z.preprocess(emptyToUndefined, email.default('admin@example.com')),
  FIRST_SUPERUSER_PASSWORD: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .default(DEFAULT_SUPERUSER_PASSWORD),
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
  SIGNUP: z.preprocess(
    emptyToUndefined,
    z.enum(['approval', 'open', 'off'], { message: 'expected approval, open or off' }).default('approval'),
  ),
  SIGNUP_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(10)),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine(
        (list) => list.every(isAddressOrCidr),
        'expected IP addresses or CIDRs separated by commas, e.g. 172.16.0.0/12',
      )
      .optional(),
  ),
  ALLOWED_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(isOrigin), 'expected origins separated by commas, e.g. https://furnace.example.com')
      .optional(),
  ),
  PASSWORD_HASH_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(2)),
  HEAVY_WORK_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(2)),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(32, 'expected at least 32 characters (openssl rand -hex 32)').optional(),
  ),
  LIVE_STREAMS_PER_USER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(20)),
  LIVE_STREAMS_PER_CLIENT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10)),
  DEMO: bool(true),
  // Who may frame the dashboard (CSP frame-ancestors): 'none', 'self' and/or http(s) origins, space-separated.
  FRAME_ANCESTORS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("'none'")
      .transform((v) => v.split(/[\s,]+/).filter(Boolean))
      .pipe(
        z.array(
          z
            .string()
            .refine(
              (s) => ["'none'", "'self'"].includes(s) || /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(s),
              {
                error: (issue) =>
                  `expected 'none', 'self' or origins such as https://intranet.lab.example, got ${JSON.stringify(issue.input)}`,
              },
            ),
        ),
      )
      .refine((list) => !list.includes("'none'") || list.length === 1, "'none' cannot be combined with other sources"),
  ),
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
  /** Address the embedded broker listens on (127.0.0.1 unless MQTT_HOST says otherwise). */
  mqttHost: string;
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
  /** Sign-ups per hour per address (429 above). */
  signupRateLimit: number;
  /** Self sign-up: `approval` (an inactive account a superuser activates), `open` (active at once) or `off` (403). */
  signup: 'approval' | 'open' | 'off';
  /** True when FIRST_SUPERUSER_PASSWORD was not set: the first superuser must change it at the first sign-in. */
  firstSuperuserPasswordIsDefault: boolean;
  /** Addresses/CIDRs of proxies whose X-Forwarded-For is believed; empty: none (the socket's address counts). */
  trustProxy: string[];
  /** Origins whose pages may open a live stream (requests without Origin always may). */
  allowedOrigins: string[];
  /** Password hashes (argon2, 64 MiB each) computed at once; the rest wait. */
  passwordHashConcurrency: number;
  /** History exports and PDF reports made at once by one API instance; one more is answered 429. */
  heavyWorkConcurrency: number;
  /** The bearer token GET /api/v1/metrics asks for; unset: the metrics are served to this machine only. */
  metricsToken?: string;
  /** Live streams one staff user may hold open on one API instance; one more is refused 429. */
  liveStreamsPerUser: number;
  /** Live streams one client e-mail record (code or viewer token) may hold open on one API instance. */
  liveStreamsPerClient: number;
  /** Embedded mode offers a demo research fed by the simulator. */
  demo: boolean;
  /** CSP frame-ancestors sources: who may show the dashboard in a frame ('none' by default). */
  frameAncestors: string[];
}

/** True for an address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
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
    throw new ConfigError(
      'Invalid configuration:\n  SECRET_KEY: required when DATABASE_URL is set (at least 32 characters)',
    );
  }
  if (e.SMTP_HOST && !e.EMAILS_FROM_EMAIL) {
    throw new ConfigError('Invalid configuration:\n  EMAILS_FROM_EMAIL: required when SMTP_HOST is set');
  }
  if (!!e.MQTT_USERNAME !== !!e.MQTT_PASSWORD) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.MQTT_USERNAME ? 'MQTT_PASSWORD' : 'MQTT_USERNAME'}: required with ${e.MQTT_USERNAME ? 'MQTT_USERNAME' : 'MQTT_PASSWORD'}`,
    );
  }
  const passwordIsDefault = e.FIRST_SUPERUSER_PASSWORD === DEFAULT_SUPERUSER_PASSWORD;
  const secretKey = e.SECRET_KEY ?? embeddedSecret(dataDir);
  const frontendHost = (e.FRONTEND_HOST ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    mqttHost: e.MQTT_HOST,
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
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'production' ? 'json' : 'pretty'),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    signup: e.SIGNUP,
    firstSuperuserPasswordIsDefault: passwordIsDefault,
    trustProxy: e.TRUST_PROXY ?? [],
    allowedOrigins: (e.ALLOWED_ORIGINS ?? [new URL(frontendHost).origin]).map((o) => o.replace(/\/+$/, '')),
    passwordHashConcurrency: e.PASSWORD_HASH_CONCURRENCY,
    heavyWorkConcurrency: e.HEAVY_WORK_CONCURRENCY,
    metricsToken: e.METRICS_TOKEN,
    liveStreamsPerUser: e.LIVE_STREAMS_PER_USER,
    liveStreamsPerClient: e.LIVE_STREAMS_PER_CLIENT,
    demo: e.DEMO && embeddedDatabase,
    frameAncestors: e.FRAME_ANCESTORS,
  };
}

/**
 * What only a process that creates the first superuser (the API) must refuse: the well-known default
 * password anywhere but a local embedded start.
 */
export function assertApiConfig(c: AppConfig): void {
  if (c.firstSuperuserPasswordIsDefault && (!c.embedded.database || c.env === 'production')) {
    throw new ConfigError(
      `Invalid configuration:\n  FIRST_SUPERUSER_PASSWORD: must be set to a password of your own (not "${DEFAULT_SUPERUSER_PASSWORD}") when DATABASE_URL is set or NODE_ENV=production`,
    );
  }
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
    broker: c.mqttUrl ? redact(c.mqttUrl) : `embedded (aedes) on ${c.mqttHost}:${c.mqttPort}`,
    mail: c.smtp ? `smtp://${c.smtp.host}:${c.smtp.port}` : `outbox (${join(c.dataDir, 'outbox')})`,
    frontendHost: c.frontendHost,
  };
}
