// The broker's configuration (infra/mosquitto): read for its rules, then, where mosquitto is
// installed (every development and CI machine runs one), started with this very configuration
// through its entrypoint script and probed as the DAQ, the ingest and an outsider would.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { DAQ_TOPIC_FILTER, FURNACE_TOPIC_FILTER } from '@furnace/contracts';
import {
  connectClient,
  mosquittoMissing,
  type OwnMosquitto,
  startOwnMosquitto,
  withSbin,
} from '@furnace/testing/mosquitto';
import { loadCompose, parseAcl, repoFile } from './support';

const acl = parseAcl(repoFile('infra/mosquitto/acl'));
const conf = repoFile('infra/mosquitto/mosquitto.conf');
const settings = new Map(
  conf
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => [line.split(/\s+/)[0]!, line.split(/\s+/).slice(1).join(' ')] as const),
);
const compose = loadCompose();
const mosquittoService = compose.services.mosquitto!;

describe('mosquitto configuration', () => {
  it('lets no one in without a password', () => {
    expect(settings.get('allow_anonymous')).toBe('false');
    expect(settings.get('password_file')).toBe('/mosquitto/auth/passwd');
    expect(settings.get('acl_file')).toBe('/mosquitto/auth/acl');
  });

  it('loads the dynamic security plugin where the image has it, its clients kept on the persistence volume', () => {
    expect(settings.get('per_listener_settings')).toBe('false');
    expect(settings.get('plugin')).toBe('/usr/lib/mosquitto_dynamic_security.so');
    expect(settings.get('plugin_opt_config_file')).toBe(
      `${settings.get('persistence_location')!.replace(/\/$/, '')}/dynamic-security.json`,
    );
  });

  it('lets the API administer the plugin, as the ACL user with the password compose gives both, and do nothing else', () => {
    const api = compose.services['api-1']!.environment as Record<string, string>;
    expect(acl.users.get(api.MQTT_DYNSEC_USERNAME!)).toEqual([
      { access: 'write', topic: '$CONTROL/dynamic-security/v1' },
      { access: 'read', topic: '$CONTROL/dynamic-security/v1/response' },
    ]);
    expect(api.MQTT_URL).toBe('mqtt://mosquitto:1883');
    expect(api.MQTT_DYNSEC_PASSWORD).toBe(
      (mosquittoService.environment as Record<string, string>).MQTT_DYNSEC_PASSWORD,
    );
  });

  it('grants nothing to every client at once', () => {
    expect(acl.everyone).toEqual([]);
    expect(acl.patterns).toEqual([]);
  });

  it('lets the DAQ publish to the DAQ topics (a research’s, a furnace’s) and do nothing else', () => {
    expect(acl.users.get('daq')).toEqual([
      { access: 'write', topic: DAQ_TOPIC_FILTER },
      { access: 'write', topic: FURNACE_TOPIC_FILTER },
    ]);
  });

  it('lets the ingest read the DAQ topics and publish nothing', () => {
    const rules = acl.users.get('ingest') ?? [];
    expect(rules).toContainEqual({ access: 'read', topic: DAQ_TOPIC_FILTER });
    expect(rules).toContainEqual({ access: 'read', topic: FURNACE_TOPIC_FILTER });
    expect(rules.filter((r) => r.access !== 'read')).toEqual([]);
  });

  it('creates a password for every ACL user at start, from the environment compose passes', () => {
    const script = repoFile('infra/mosquitto/entrypoint.sh');
    const created = [...script.matchAll(/mosquitto_passwd (?:-c )?-b "\$auth_dir\/passwd" (\w+) "\$(\w+)"/g)].map(
      (m) => [m[1], m[2]],
    );
    expect(created.map(([user]) => user).sort()).toEqual([...acl.users.keys()].sort());
    const env = mosquittoService.environment as Record<string, string>;
    for (const [, variable] of created) {
      if (variable !== 'health_password') expect(env[variable!]).toMatch(/^\$\{[A-Z_]+:\?.+\}$/);
    }
  });

  it('refuses payloads over 64 KiB', () => {
    expect(settings.get('message_size_limit')).toBe('65536');
  });

  it('persists the ingest sessions on the volume compose mounts', () => {
    expect(settings.get('persistence')).toBe('true');
    expect(mosquittoService.volumes).toContain(
      `mosquitto-data:${settings.get('persistence_location')!.replace(/\/$/, '')}`,
    );
  });
});

const missing = mosquittoMissing();
const withBroker = missing ? describe.skip : describe;

withBroker(missing ? `the broker (skipped: ${missing})` : 'the broker, started with this configuration', () => {
  const observer = 'observer-password';
  let broker: OwnMosquitto;
  let passwords: OwnMosquitto['passwords'] & { observer: string };
  let dir = '';
  let port = 0;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    // An observer allowed to read everything, to see what the others manage to publish.
    broker = await startOwnMosquitto({ extraAcl: 'user observer\ntopic read #', extraUsers: { observer } });
    passwords = { ...broker.passwords, observer };
    ({ dir, port } = broker);
  });

  afterAll(async () => {
    for (const client of clients) client.end(true);
    await broker?.stop();
  });

  async function connect(username?: string, password?: string): Promise<MqttClient> {
    const client = await connectClient(`mqtt://127.0.0.1:${port}`, username, password);
    clients.push(client);
    return client;
  }

  /** Subscribes and collects the topics of what arrives. */
  async function listen(client: MqttClient, filter: string): Promise<string[]> {
    const topics: string[] = [];
    client.on('message', (topic) => topics.push(topic));
    await client.subscribeAsync(filter, { qos: 1 });
    return topics;
  }

  /**
   * Publishes `marker` as the DAQ and waits until the observer has it: the broker delivers one
   * publisher's messages in order, so whatever was published before it has arrived by then, or never will.
   */
  async function settle(daq: MqttClient, observed: string[], marker: string): Promise<void> {
    await daq.publishAsync(marker, '{"time":0}', { qos: 1 });
    const deadline = Date.now() + 5000;
    while (!observed.includes(marker)) {
      if (Date.now() > deadline) throw new Error(`${marker} never reached the observer`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function waitUntil(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('refuses a client without a password, and a wrong password', async () => {
    await expect(connect()).rejects.toThrow(/Not authorized/);
    await expect(connect('daq', 'not-the-password')).rejects.toThrow(/Not authorized/);
  });

  it('delivers the DAQ’s frames to the ingest’s shared subscription', async () => {
    const ingest = await connect('ingest', passwords.ingest);
    const received = await listen(ingest, `$share/furnace-ingest/${DAQ_TOPIC_FILTER}`);
    await ingest.subscribeAsync(`$share/furnace-ingest/${FURNACE_TOPIC_FILTER}`, { qos: 1 });
    const daq = await connect('daq', passwords.daq);
    const observed = await listen(await connect('observer', passwords.observer), '#');
    await settle(daq, observed, 'furnace/3f2a0c4e-8b1d-4c3e-9a57-0d6b2e1f4a10/data');
    await settle(daq, observed, 'lab/p1/data');
    await waitUntil(() => received.length === 2);
    expect(received.sort()).toEqual(['furnace/3f2a0c4e-8b1d-4c3e-9a57-0d6b2e1f4a10/data', 'lab/p1/data']);
  });

  it('drops whatever the DAQ publishes elsewhere', async () => {
    const daq = await connect('daq', passwords.daq);
    const observed = await listen(await connect('observer', passwords.observer), '#');
    for (const topic of [
      'furnace/r1/config',
      'furnace/r1/data/extra',
      'furnace/data',
      'other/topic',
      'furnace-ingest',
    ]) {
      await daq.publishAsync(topic, '{"time":0}', { qos: 1 });
    }
    await settle(daq, observed, 'furnace/r1/data');
    expect(observed).toEqual(['furnace/r1/data']);
  });

  it('gives the DAQ nothing to read, and the ingest nothing to publish', async () => {
    const daq = await connect('daq', passwords.daq);
    const daqReceived = await listen(daq, '#');
    const ingest = await connect('ingest', passwords.ingest);
    const ingestReceived = await listen(ingest, 'other/#');
    await ingest.publishAsync('furnace/r2/data', '{"time":0}', { qos: 1 });
    await ingest.publishAsync('other/topic', '{"time":0}', { qos: 1 });
    const observed = await listen(await connect('observer', passwords.observer), '#');
    await settle(daq, observed, 'furnace/r2/data');
    expect(observed).toEqual(['furnace/r2/data']); // the marker, from the DAQ; nothing from the ingest
    expect(daqReceived).toEqual([]);
    expect(ingestReceived).toEqual([]);
  });

  it('drops a 70 KiB message and delivers a 60 KiB one', async () => {
    const daq = await connect('daq', passwords.daq);
    const observer = await connect('observer', passwords.observer);
    const sizes: number[] = [];
    observer.on('message', (_topic, payload) => sizes.push(payload.length));
    const observed = await listen(observer, '#');
    await daq.publishAsync('furnace/r4/data', Buffer.alloc(70 * 1024, 0x20), { qos: 1 });
    await daq.publishAsync('furnace/r4/data', Buffer.alloc(60 * 1024, 0x20), { qos: 1 });
    await settle(daq, observed, 'furnace/r5/data');
    expect(sizes).toEqual([60 * 1024, '{"time":0}'.length]);
  });

  const hasClients = spawnSync('sh', ['-c', 'command -v mosquitto_sub'], { env: withSbin() }).status === 0;
  (hasClients ? it : it.skip)(
    hasClients
      ? 'passes the health check of docker-compose.yml'
      : 'passes the health check (skipped: mosquitto_sub is not installed here)',
    () => {
      const test = mosquittoService.healthcheck!.test as string[];
      const shell = test[1]!
        .replaceAll('$$', '$')
        .replaceAll('/mosquitto/auth/', `${dir}/auth/`)
        .replace('-p 1883', `-p ${port}`);
      const result = spawnSync('sh', ['-c', shell], { env: withSbin(), encoding: 'utf8', timeout: 10_000 });
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    },
  );

  it('keeps the generated files private to the broker', () => {
    const mode = (file: string) =>
      spawnSync('stat', ['-c', '%a', join(dir, 'auth', file)], { encoding: 'utf8' }).stdout.trim();
    expect(['passwd', 'acl', 'healthcheck.password'].map(mode)).toEqual(['600', '600', '600']);
    expect(mode('../data/dynamic-security.json')).toBe('600');
    expect(readFileSync(join(dir, 'auth', 'passwd'), 'utf8')).not.toContain(passwords.daq);
  });
});
