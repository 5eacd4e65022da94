import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertApiConfig, ConfigError, describeConfig, loadConfig } from './config';

const tmp = () => mkdtempSync(join(tmpdir(), 'furnace-config-'));

describe('loadConfig', () => {
  it('runs embedded with nothing configured, keeping a generated secret in the data directory', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.embedded).toEqual({ database: true, bus: true, broker: true });
    expect(c.port).toBe(8000);
    expect(c.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'secret_key'), 'utf8')).toBe(c.secretKey);
    expect(loadConfig({ DATA_DIR: dir }).secretKey).toBe(c.secretKey);
    expect(c.frontendHost).toBe('http://localhost:8000');
  });

  it('names every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({ DATA_DIR: tmp(), PORT: 'eighty', DATABASE_URL: 'mysql://x', FIRST_SUPERUSER: 'not-an-email' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/PORT:/);
    expect(message).toMatch(/DATABASE_URL: expected a URL starting with postgres:\/\/ or postgresql:\/\//);
    expect(message).toMatch(/FIRST_SUPERUSER: expected an e-mail address/);
  });

  it('requires SECRET_KEY when a database server is configured', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://localhost/db' })).toThrow(
      /SECRET_KEY: required/,
    );
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:pw@localhost/db',
      SECRET_KEY: 'k'.repeat(40),
      REDIS_URL: 'redis://localhost:6379',
    });
    expect(c.embedded).toEqual({ database: false, bus: false, broker: true });
    expect(c.demo).toBe(false);
  });

  it('keeps the embedded broker on loopback unless MQTT_HOST says otherwise; every DAQ signs in either way', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).mqttHost).toBe('127.0.0.1');
    // No installation account is required beyond loopback: `npm start` generates one (docs/behaviour.md §16).
    expect(loadConfig({ DATA_DIR: tmp(), MQTT_HOST: '0.0.0.0' })).toMatchObject({ mqttHost: '0.0.0.0' });
    expect(() => loadConfig({ DATA_DIR: tmp(), MQTT_HOST: '192.168.1.5', MQTT_USERNAME: 'daq' })).toThrow(
      /MQTT_PASSWORD: required with MQTT_USERNAME/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), MQTT_USERNAME: 'daq' })).toThrow(
      /MQTT_PASSWORD: required with MQTT_USERNAME/,
    );
    expect(
      loadConfig({ DATA_DIR: tmp(), MQTT_HOST: '0.0.0.0', MQTT_USERNAME: 'daq', MQTT_PASSWORD: 'pw-123456' }),
    ).toMatchObject({ mqttHost: '0.0.0.0', mqttUsername: 'daq' });
    expect(loadConfig({ DATA_DIR: tmp(), MQTT_HOST: '127.0.0.2' }).mqttHost).toBe('127.0.0.2');
    // A broker named by MQTT_URL is not embedded: MQTT_HOST does not apply.
    expect(loadConfig({ DATA_DIR: tmp(), MQTT_URL: 'mqtt://broker:1883', MQTT_HOST: '0.0.0.0' }).embedded.broker).toBe(
      false,
    );
  });

  it("reads FRAME_ANCESTORS as CSP sources, 'none' by default", () => {
    expect(loadConfig({ DATA_DIR: tmp() }).frameAncestors).toEqual(["'none'"]);
    expect(
      loadConfig({ DATA_DIR: tmp(), FRAME_ANCESTORS: "'self' https://intranet.lab.example" }).frameAncestors,
    ).toEqual(["'self'", 'https://intranet.lab.example']);
    expect(() => loadConfig({ DATA_DIR: tmp(), FRAME_ANCESTORS: '*' })).toThrow(
      /FRAME_ANCESTORS: expected 'none', 'self' or origins/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), FRAME_ANCESTORS: "'none' https://a.example" })).toThrow(
      /FRAME_ANCESTORS: 'none' cannot be combined/,
    );
  });

  it('never puts a password into the description it logs', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:hunter22@db/x',
      SECRET_KEY: 's'.repeat(40),
      REDIS_URL: 'redis://:redispw@r:6379',
    });
    const text = JSON.stringify(describeConfig(c));
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain('redispw');
    expect(text).not.toContain(c.secretKey);
  });

  it('gives the ingest a stable MQTT client id, shared subscriptions and a buffer bound, each overridable', () => {
    const defaults = loadConfig({ DATA_DIR: tmp() });
    expect(defaults).toMatchObject({
      mqttClientId: 'furnace-ingest',
      mqttSharedSubscription: true,
      mqttSharedGroup: 'furnace-ingest',
      ingestBufferFrames: 100_000,
    });
    const set = loadConfig({
      DATA_DIR: tmp(),
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
      loadConfig({
        DATA_DIR: tmp(),
        MQTT_CLIENT_ID: 'has space',
        MQTT_SHARED_GROUP: 'a/b',
        INGEST_BUFFER_FRAMES: '10',
      }),
    ).toThrow(
      /MQTT_CLIENT_ID: expected 1 to 64 letters[\s\S]*MQTT_SHARED_GROUP: expected 1 to 64 letters[\s\S]*INGEST_BUFFER_FRAMES:/,
    );
  });

  it('closes sign-up by default (approval), and accepts only approval, open or off', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).signup).toBe('approval');
    expect(loadConfig({ DATA_DIR: tmp(), SIGNUP: 'off' }).signup).toBe('off');
    expect(() => loadConfig({ DATA_DIR: tmp(), SIGNUP: 'yes' })).toThrow(/SIGNUP: expected approval, open or off/);
  });

  it('trusts no proxy unless TRUST_PROXY lists addresses or CIDRs', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toEqual([]);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '172.16.0.0/12, 10.0.0.5,::1' }).trustProxy).toEqual([
      '172.16.0.0/12',
      '10.0.0.5',
      '::1',
    ]);
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'nginx' })).toThrow(
      /TRUST_PROXY: expected IP addresses or CIDRs/,
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.0/40' })).toThrow(/TRUST_PROXY/);
  });

  it('asks no metrics token by default, and one of at least 32 characters when METRICS_TOKEN is set', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: 'x'.repeat(32) }).metricsToken).toBe('x'.repeat(32));
    expect(() => loadConfig({ DATA_DIR: tmp(), METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: expected at least 32 characters/,
    );
  });

  it("allows streams from FRONTEND_HOST's origin by default, or from ALLOWED_ORIGINS", () => {
    expect(loadConfig({ DATA_DIR: tmp(), FRONTEND_HOST: 'https://furnace.example.com/' }).allowedOrigins).toEqual([
      'https://furnace.example.com',
    ]);
    expect(
      loadConfig({ DATA_DIR: tmp(), ALLOWED_ORIGINS: 'https://a.example,http://b.example:8080' }).allowedOrigins,
    ).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(() => loadConfig({ DATA_DIR: tmp(), ALLOWED_ORIGINS: 'https://a.example/path' })).toThrow(
      /ALLOWED_ORIGINS: expected origins/,
    );
  });

  it('refuses the default superuser password for an API on a database server or in production, naming the variable', () => {
    const embedded = loadConfig({ DATA_DIR: tmp() });
    expect(embedded.firstSuperuserPasswordIsDefault).toBe(true);
    expect(() => assertApiConfig(embedded)).not.toThrow();
    const server = loadConfig({ DATABASE_URL: 'postgres://localhost/db', SECRET_KEY: 'k'.repeat(40) });
    expect(() => assertApiConfig(server)).toThrow(
      /FIRST_SUPERUSER_PASSWORD: must be set to a password of your own \(not "changethis"\)/,
    );
    expect(() => assertApiConfig(loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' }))).toThrow(
      /FIRST_SUPERUSER_PASSWORD/,
    );
    const chosen = loadConfig({
      DATABASE_URL: 'postgres://localhost/db',
      SECRET_KEY: 'k'.repeat(40),
      FIRST_SUPERUSER_PASSWORD: 'a-real-password',
    });
    expect(chosen.firstSuperuserPasswordIsDefault).toBe(false);
    expect(() => assertApiConfig(chosen)).not.toThrow();
  });
});
