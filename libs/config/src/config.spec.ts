import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeConfig,
  embeddedSecretDir,
  loadApiConfig,
  loadDatabaseConfig,
  loadIngestConfig,
  loadStandaloneConfig,
} from './config';
import { ConfigError, type Env } from './env';

const tmp = () => mkdtempSync(join(tmpdir(), 'furnace-config-'));
const SECRET = 'k'.repeat(40);
/** `npm start` in an empty data directory, with the secret its start passes. */
const standalone = (env: Env = {}) => loadStandaloneConfig({ DATA_DIR: tmp(), SECRET_KEY: SECRET, ...env });

/** The problems `load` reports, one line each (ConfigError.problems); [] when it loads. */
function problemsOf(load: () => unknown): readonly string[] {
  try {
    load();
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const error = e as ConfigError;
    expect(error.message).toBe(`Invalid configuration:\n${error.problems.map((p) => `  ${p}`).join('\n')}`);
    return error.problems;
  }
}

/** What docker-compose.yml gives the separate API and ingest processes. */
const SERVICES = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://furnace:pw@db:5432/furnace',
  REDIS_URL: 'redis://:pw@redis:6379',
};

describe('loadStandaloneConfig (npm start)', () => {
  it('runs embedded with nothing but the secret configured', () => {
    const c = standalone();
    expect(c.embedded).toEqual({ database: true, bus: true, broker: true });
    expect(c.port).toBe(8000);
    expect(c.secretKey).toBe(SECRET);
    expect(c.frontendHost).toBe('http://localhost:8000');
    expect(c.demo).toBe(true);
  });

  it('writes nothing: the data directory stays empty, and one that does not exist is not created', () => {
    const dir = tmp();
    standalone({ DATA_DIR: dir });
    expect(readdirSync(dir)).toEqual([]);
    const missing = join(tmp(), 'data');
    expect(problemsOf(() => loadStandaloneConfig({ DATA_DIR: missing }))).toEqual([
      'SECRET_KEY: required (at least 32 characters)',
    ]);
    expect(existsSync(missing)).toBe(false);
  });

  it('tells npm start where to keep a generated secret only when neither SECRET_KEY nor DATABASE_URL is set', () => {
    const dir = tmp();
    expect(embeddedSecretDir({ DATA_DIR: dir })).toBe(dir);
    expect(embeddedSecretDir({ DATA_DIR: dir, SECRET_KEY: ' ' })).toBe(dir);
    expect(embeddedSecretDir({})).toBe(join(process.cwd(), 'data'));
    expect(embeddedSecretDir({ DATA_DIR: dir, SECRET_KEY: SECRET })).toBeUndefined();
    expect(embeddedSecretDir({ DATA_DIR: dir, DATABASE_URL: 'postgres://localhost/db' })).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names every bad variable at once', () => {
    const problems = problemsOf(() =>
      standalone({ PORT: 'eighty', DATABASE_URL: 'mysql://x', FIRST_SUPERUSER: 'not-an-email' }),
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^PORT: /);
    expect(problems[1]).toBe('DATABASE_URL: expected a URL starting with postgres:// or postgresql://');
    expect(problems[2]).toBe('FIRST_SUPERUSER: expected an e-mail address');
  });

  it('reports the checks across variables together with the bad values, in one error', () => {
    expect(
      problemsOf(() =>
        loadStandaloneConfig({
          DATA_DIR: tmp(),
          PORT: '99999',
          DATABASE_URL: 'postgres://localhost/db',
          SMTP_HOST: 'smtp.example.com',
          SIGNUP: 'yes',
        }),
      ),
    ).toEqual([
      'PORT: Too big: expected number to be <=65535',
      'SIGNUP: expected approval, open or off',
      'SECRET_KEY: required when DATABASE_URL is set (at least 32 characters)',
      'FIRST_SUPERUSER_PASSWORD: must be set to a password of your own (not "changethis") when DATABASE_URL is set or NODE_ENV=production',
      'EMAILS_FROM_EMAIL: required when SMTP_HOST is set',
    ]);
  });

  it('reports a bad value once: a check across variables waits for the values it reads to be valid', () => {
    expect(problemsOf(() => standalone({ SMTP_HOST: 'smtp.example.com', EMAILS_FROM_EMAIL: 'nobody' }))).toEqual([
      'EMAILS_FROM_EMAIL: expected an e-mail address',
    ]);
    expect(problemsOf(() => standalone({ DATABASE_URL: 'postgres://localhost/db', SECRET_KEY: 'short' }))).toEqual([
      'SECRET_KEY: must be at least 32 characters',
      'FIRST_SUPERUSER_PASSWORD: must be set to a password of your own (not "changethis") when DATABASE_URL is set or NODE_ENV=production',
    ]);
  });

  it('uses the services that are configured and embeds the rest', () => {
    const c = standalone({
      DATABASE_URL: 'postgres://u:pw@localhost/db',
      REDIS_URL: 'redis://localhost:6379',
      FIRST_SUPERUSER_PASSWORD: 'a-real-password',
    });
    expect(c.embedded).toEqual({ database: false, bus: false, broker: true });
    expect(c.demo).toBe(false);
  });

  it('keeps the embedded broker on loopback unless MQTT_HOST says otherwise; every DAQ signs in either way', () => {
    expect(standalone().mqttHost).toBe('127.0.0.1');
    // No installation account is required beyond loopback: `npm start` makes one (docs/behaviour.md §16).
    expect(standalone({ MQTT_HOST: '0.0.0.0' })).toMatchObject({ mqttHost: '0.0.0.0' });
    expect(problemsOf(() => standalone({ MQTT_HOST: '192.168.1.5', MQTT_USERNAME: 'daq' }))).toEqual([
      'MQTT_PASSWORD: required with MQTT_USERNAME',
    ]);
    expect(problemsOf(() => standalone({ MQTT_PASSWORD: 'pw-123456' }))).toEqual([
      'MQTT_USERNAME: required with MQTT_PASSWORD',
    ]);
    expect(standalone({ MQTT_HOST: '0.0.0.0', MQTT_USERNAME: 'daq', MQTT_PASSWORD: 'pw-123456' })).toMatchObject({
      mqttHost: '0.0.0.0',
      mqttUsername: 'daq',
    });
    expect(standalone({ MQTT_HOST: '127.0.0.2' }).mqttHost).toBe('127.0.0.2');
    // A broker named by MQTT_URL is not embedded: MQTT_HOST does not apply.
    expect(standalone({ MQTT_URL: 'mqtt://broker:1883', MQTT_HOST: '0.0.0.0' }).embedded.broker).toBe(false);
  });

  it("reads FRAME_ANCESTORS as CSP sources, 'none' by default", () => {
    expect(standalone().frameAncestors).toEqual(["'none'"]);
    expect(standalone({ FRAME_ANCESTORS: "'self' https://intranet.lab.example" }).frameAncestors).toEqual([
      "'self'",
      'https://intranet.lab.example',
    ]);
    expect(() => standalone({ FRAME_ANCESTORS: '*' })).toThrow(/FRAME_ANCESTORS: expected 'none', 'self' or origins/);
    expect(() => standalone({ FRAME_ANCESTORS: "'none' https://a.example" })).toThrow(
      /FRAME_ANCESTORS: 'none' cannot be combined/,
    );
  });

  it('never puts a password into the description it logs', () => {
    const c = standalone({
      DATABASE_URL: 'postgres://u:hunter22@db/x',
      REDIS_URL: 'redis://:redispw@r:6379',
      FIRST_SUPERUSER_PASSWORD: 'a-real-password',
    });
    const text = JSON.stringify(describeConfig(c));
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('redispw');
    expect(text).not.toContain(c.secretKey);
  });

  it('gives the ingest a stable MQTT client id, shared subscriptions and a buffer bound, each overridable', () => {
    expect(standalone()).toMatchObject({
      mqttClientId: 'furnace-ingest',
      mqttSharedSubscription: true,
      mqttSharedGroup: 'furnace-ingest',
      ingestBufferFrames: 100_000,
    });
    const set = standalone({
      MQTT_CLIENT_ID: 'ingest-2',
      MQTT_SHARED_SUBSCRIPTION: 'false',
      MQTT_SHARED_GROUP: 'staging',
      INGEST_BUFFER_FRAMES: '5000',
    });
    expect(set).toMatchObject({
      mqttClientId: 'ingest-2',
      mqttSharedSubscription: false,
      mqttSharedGroup: 'staging',
      ingestBufferFrames: 5000,
    });
    expect(() =>
      standalone({ MQTT_CLIENT_ID: 'has space', MQTT_SHARED_GROUP: 'a/b', INGEST_BUFFER_FRAMES: '10' }),
    ).toThrow(
      /MQTT_CLIENT_ID: expected 1 to 64 letters[\s\S]*MQTT_SHARED_GROUP: expected 1 to 64 letters[\s\S]*INGEST_BUFFER_FRAMES:/,
    );
  });

  it('closes sign-up by default (approval), and accepts only approval, open or off', () => {
    expect(standalone().signup).toBe('approval');
    expect(standalone({ SIGNUP: 'off' }).signup).toBe('off');
    expect(() => standalone({ SIGNUP: 'yes' })).toThrow(/SIGNUP: expected approval, open or off/);
  });

  it('trusts no proxy unless TRUST_PROXY lists addresses or CIDRs', () => {
    expect(standalone().trustProxy).toEqual([]);
    expect(standalone({ TRUST_PROXY: '172.16.0.0/12, 10.0.0.5,::1' }).trustProxy).toEqual([
      '172.16.0.0/12',
      '10.0.0.5',
      '::1',
    ]);
    expect(() => standalone({ TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY: expected IP addresses or CIDRs/);
    expect(() => standalone({ TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it('asks no metrics token by default, and one of at least 32 characters when METRICS_TOKEN is set', () => {
    expect(standalone().metricsToken).toBeUndefined();
    expect(standalone({ METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
    expect(() => standalone({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: expected at least 32 characters/);
  });

  it("allows streams from FRONTEND_HOST's origin by default, or from ALLOWED_ORIGINS", () => {
    expect(standalone({ FRONTEND_HOST: 'https://furnace.example.com/' }).allowedOrigins).toEqual([
      'https://furnace.example.com',
    ]);
    expect(standalone({ ALLOWED_ORIGINS: 'https://a.example,http://b.example:8080' }).allowedOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(() => standalone({ ALLOWED_ORIGINS: 'https://a.example/path' })).toThrow(
      /ALLOWED_ORIGINS: expected origins/,
    );
  });

  it('refuses the default superuser password on a database server or in production, naming the variable', () => {
    expect(standalone().firstSuperuserPasswordIsDefault).toBe(true);
    expect(() => standalone({ DATABASE_URL: 'postgres://localhost/db' })).toThrow(
      /FIRST_SUPERUSER_PASSWORD: must be set to a password of your own \(not "changethis"\)/,
    );
    expect(() => standalone({ NODE_ENV: 'production' })).toThrow(/FIRST_SUPERUSER_PASSWORD/);
    const chosen = standalone({ DATABASE_URL: 'postgres://localhost/db', FIRST_SUPERUSER_PASSWORD: 'a-real-password' });
    expect(chosen.firstSuperuserPasswordIsDefault).toBe(false);
  });
});

describe('loadApiConfig (apps/api)', () => {
  it('runs on the services with a secret and a password of its own', () => {
    const c = loadApiConfig({ ...SERVICES, SECRET_KEY: SECRET, FIRST_SUPERUSER_PASSWORD: 'a-real-password' });
    expect(c).toMatchObject({
      env: 'production',
      logFormat: 'json',
      databaseUrl: SERVICES.DATABASE_URL,
      redisUrl: SERVICES.REDIS_URL,
      secretKey: SECRET,
    });
  });

  it('embeds nothing: every missing service, the secret and the default password are named at once', () => {
    expect(problemsOf(() => loadApiConfig({ NODE_ENV: 'production', SMTP_HOST: 'smtp.example.com' }))).toEqual([
      'DATABASE_URL: required by a separate API process (`npm start` runs the embedded system in one process)',
      'REDIS_URL: required by a separate API process (`npm start` runs the embedded system in one process)',
      'SECRET_KEY: required (at least 32 characters)',
      'FIRST_SUPERUSER_PASSWORD: must be set to a password of your own (not "changethis") when DATABASE_URL is set or NODE_ENV=production',
      'EMAILS_FROM_EMAIL: required when SMTP_HOST is set',
    ]);
  });

  it('reads only what the API uses: the broker and ingest variables are not its concern', () => {
    const c = loadApiConfig({
      ...SERVICES,
      SECRET_KEY: SECRET,
      FIRST_SUPERUSER_PASSWORD: 'a-real-password',
      MQTT_CLIENT_ID: 'has space',
      MQTT_USERNAME: 'only-a-name',
      DEMO: 'maybe',
    });
    expect(c).not.toHaveProperty('mqttClientId');
    expect(c).not.toHaveProperty('demo');
  });

  it('administers Mosquitto’s dynamic security only with a broker URL and both credentials; off by default', () => {
    const base = { ...SERVICES, SECRET_KEY: SECRET, FIRST_SUPERUSER_PASSWORD: 'a-real-password' };
    expect(loadApiConfig(base).dynsec).toBeUndefined();
    expect(
      loadApiConfig({
        ...base,
        MQTT_URL: 'mqtt://mosquitto:1883',
        MQTT_DYNSEC_USERNAME: 'furnace-api',
        MQTT_DYNSEC_PASSWORD: 'admin-pw',
      }).dynsec,
    ).toEqual({ url: 'mqtt://mosquitto:1883', username: 'furnace-api', password: 'admin-pw' });
    expect(problemsOf(() => loadApiConfig({ ...base, MQTT_DYNSEC_USERNAME: 'furnace-api' }))).toEqual([
      'MQTT_DYNSEC_PASSWORD: required with MQTT_DYNSEC_USERNAME',
    ]);
    expect(
      problemsOf(() => loadApiConfig({ ...base, MQTT_DYNSEC_USERNAME: 'furnace-api', MQTT_DYNSEC_PASSWORD: 'pw' })),
    ).toEqual([
      'MQTT_DYNSEC_USERNAME: applies to a broker named by MQTT_URL (Mosquitto); the embedded broker needs none',
    ]);
    // Inside `npm start` with the embedded broker there is no Mosquitto to administer.
    expect(() => standalone({ MQTT_DYNSEC_USERNAME: 'a', MQTT_DYNSEC_PASSWORD: 'b' })).toThrow(/MQTT_URL/);
  });
});

describe('loadIngestConfig (apps/ingest)', () => {
  const INGEST = {
    ...SERVICES,
    SECRET_KEY: SECRET,
    MQTT_URL: 'mqtt://mosquitto:1883',
    MQTT_USERNAME: 'ingest',
    MQTT_PASSWORD: 'pw',
  };

  it('runs on the services; the secret is required but not kept (it signs nothing)', () => {
    const c = loadIngestConfig({ ...INGEST, MQTT_CLIENT_ID: 'furnace-ingest-2' });
    expect(c).toMatchObject({
      mqttUrl: 'mqtt://mosquitto:1883',
      mqttClientId: 'furnace-ingest-2',
      mqttSharedSubscription: true,
      embedded: { broker: false },
      port: 8000,
    });
    expect(c).not.toHaveProperty('secretKey');
  });

  it('names every missing service and every bad value at once, and ignores the API variables', () => {
    expect(problemsOf(() => loadIngestConfig({ ...INGEST, SECRET_KEY: '' }))).toEqual([
      'SECRET_KEY: required when DATABASE_URL is set (at least 32 characters)',
    ]);
    expect(
      problemsOf(() =>
        loadIngestConfig({ MQTT_USERNAME: 'ingest', INGEST_BUFFER_FRAMES: '10', SIGNUP: 'yes', SECRET_KEY: 'short' }),
      ),
    ).toEqual([
      'SECRET_KEY: must be at least 32 characters',
      'INGEST_BUFFER_FRAMES: Too small: expected number to be >=1000',
      'DATABASE_URL: required by a separate ingest process (`npm start` runs the embedded system in one process)',
      'REDIS_URL: required by a separate ingest process (`npm start` runs the embedded system in one process)',
      'MQTT_URL: required by a separate ingest process (`npm start` runs the embedded system in one process)',
      'MQTT_PASSWORD: required with MQTT_USERNAME',
    ]);
  });
});

describe('loadDatabaseConfig (the migration CLI)', () => {
  it('needs DATABASE_URL only', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://localhost/scratch' })).toEqual({
      databaseUrl: 'postgres://localhost/scratch',
    });
    expect(problemsOf(() => loadDatabaseConfig({}))).toEqual([
      'DATABASE_URL: required to generate migrations against a PostgreSQL server',
    ]);
  });
});
