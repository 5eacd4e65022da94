import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded-broker';

/*
 * The embedded broker's access rules (docs/behaviour.md, "DAQ credentials"), as an attacker meets them:
 * real MQTT clients against a broker on a free port, its furnace credentials checked by a stand-in lookup.
 */

const RESEARCH = '0b7c1f6e-2f43-4d8a-9d0e-5a1c2b3d4e5f';
const INSTALLATION = { username: 'daq', password: 'installation-password-1' };
/** username → [password, furnace code]: what the database holds, as the broker asks for it. */
const furnaceCredentials = new Map<string, [string, string]>([
  ['daq-p1', ['p1-password-aaaaaaaaaaaaaaaa', 'p1']],
  ['daq-p2', ['p2-password-bbbbbbbbbbbbbbbb', 'p2']],
]);
let lookups = 0;
let slowLookup: Promise<void> | null = null;

let broker: EmbeddedBroker;
let ingest: MqttClient;
const received: string[] = [];
const clients: MqttClient[] = [];

const connect = (options: IClientOptions = {}) =>
  mqtt.connectAsync(broker.url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...options });
const daq = async (username: string, password: string) => {
  const c = await connect({ username, password });
  clients.push(c);
  return c;
};
/** Resolves 'acknowledged' on the PUBACK, rejects when the broker closes the connection instead. */
const publish = (c: MqttClient, topic: string) => {
  const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
  return Promise.race([
    c.publishAsync(topic, JSON.stringify({ time: 1 }), { qos: 1 }).then(() => 'acknowledged'),
    closed.then(() => Promise.reject(new Error('closed'))),
  ]);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  broker = await startEmbeddedBroker({
    port: 0,
    access: {
      ingestClientId: 'furnace-ingest',
      daq: INSTALLATION,
      furnaceDaq: async (username, password) => {
        lookups++;
        if (slowLookup) await slowLookup;
        const found = furnaceCredentials.get(username);
        return found && found[0] === password ? { furnaceCode: found[1] } : null;
      },
    },
  });
  ingest = await connect({ ...broker.ingest! });
  await ingest.subscribeAsync(['furnace/+/data', 'lab/+/data'], { qos: 1 });
  ingest.on('message', (topic) => received.push(topic));
});
afterAll(async () => {
  for (const c of [...clients, ingest]) await c?.endAsync(true).catch(() => undefined);
  await broker?.stop();
});
beforeEach(() => {
  received.length = 0;
});

describe('the embedded broker without anonymous clients', () => {
  it('refuses a client without credentials, on loopback too, and wrong ones', async () => {
    await expect(connect()).rejects.toThrow(/Not authorized/i);
    await expect(connect({ username: 'daq', password: 'wrong' })).rejects.toThrow(/Bad username or password/i);
    await expect(connect({ username: 'daq-p1', password: 'p2-password-bbbbbbbbbbbbbbbb' })).rejects.toThrow(
      /Bad username or password/i,
    );
    await expect(connect({ username: 'daq-p9', password: 'anything' })).rejects.toThrow(/Bad username or password/i);
  });

  it("lets a furnace credential publish to its furnace's topic only", async () => {
    const p1 = await daq('daq-p1', 'p1-password-aaaaaaaaaaaaaaaa');
    await expect(publish(p1, 'lab/p1/data')).resolves.toBe('acknowledged');
    for (const topic of ['lab/p2/data', `furnace/${RESEARCH}/data`, 'lab/p1/cmd', 'lab/+/data']) {
      const c = await daq('daq-p1', 'p1-password-aaaaaaaaaaaaaaaa');
      await expect(publish(c, topic)).rejects.toThrow('closed');
    }
    await sleep(200);
    expect(received).toEqual(['lab/p1/data']);
  });

  it('looks the credential up once per connection, not per publish', async () => {
    const before = lookups;
    const p2 = await daq('daq-p2', 'p2-password-bbbbbbbbbbbbbbbb');
    for (let i = 0; i < 20; i++) await publish(p2, 'lab/p2/data');
    expect(lookups - before).toBe(1);
    await sleep(200);
  });

  it('lets the installation account publish to every research and furnace topic, and nowhere else', async () => {
    const all = await daq(INSTALLATION.username, INSTALLATION.password);
    await expect(publish(all, `furnace/${RESEARCH}/data`)).resolves.toBe('acknowledged');
    await expect(publish(all, 'lab/p2/data')).resolves.toBe('acknowledged');
    await expect(publish(all, 'lab/not-a-furnace-code-too-long/data')).rejects.toThrow('closed');
    const other = await daq(INSTALLATION.username, INSTALLATION.password);
    await expect(publish(other, '$SYS/anything')).rejects.toThrow('closed');
    await sleep(200);
    expect(received.sort()).toEqual([`furnace/${RESEARCH}/data`, 'lab/p2/data']);
  });

  it('lets no DAQ subscribe', async () => {
    const p1 = await daq('daq-p1', 'p1-password-aaaaaaaaaaaaaaaa');
    const granted = await p1.subscribeAsync(['lab/p1/data', 'lab/#'], { qos: 1 }).then(
      () => null,
      (e: { packet?: { granted?: number[] } }) => e.packet?.granted,
    );
    expect(granted).toEqual([128, 128]);
  });

  it("closes a revoked credential's connections, and a sign-in with it being checked meanwhile", async () => {
    const open = await daq('daq-p1', 'p1-password-aaaaaaaaaaaaaaaa');
    const other = await daq('daq-p2', 'p2-password-bbbbbbbbbbbbbbbb');
    const closed = new Promise<void>((resolve) => open.once('close', () => resolve()));
    let release!: () => void;
    slowLookup = new Promise<void>((r) => (release = r));
    const signingIn = connect({ username: 'daq-p1', password: 'p1-password-aaaaaaaaaaaaaaaa' });
    await sleep(100);
    // Every open connection of daq-p1 (this test's and the earlier tests'), and no other.
    const p1Open = clients.filter((c) => c.connected && c.options.username === 'daq-p1');
    expect(p1Open.length).toBeGreaterThan(0);
    expect(broker.revokeDaq('daq-p1')).toBe(p1Open.length);
    slowLookup = null;
    release();
    await expect(closed).resolves.toBeUndefined();
    await expect(signingIn).rejects.toThrow(/Bad username or password/i);
    await sleep(200);
    expect(p1Open.filter((c) => c.connected)).toEqual([]);
    // Another furnace's DAQ is not disturbed.
    await expect(publish(other, 'lab/p2/data')).resolves.toBe('acknowledged');
  });
});
