// The ack gate against the MQTT.js version this library's package.json pins and a real broker (TEST_MQTT_URL's
// Mosquitto, or an embedded aedes): it wraps a private method of MQTT.js, so this is what tells an
// upgrade of `mqtt` that broke it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { connectPublisher, dropSession, startTestBroker, type TestBroker, uniqueId, waitFor } from '@furnace/testing';
import { type Ack, AckGate } from '../src/ack-gate';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const pinned: string = readJson(join(__dirname, '..', 'package.json')).dependencies.mqtt;
const installed: string = readJson(require.resolve('mqtt/package.json')).version;

/** A persistent session (clean off, like the ingest's) whose PUBACKs go through an AckGate. */
async function gatedSubscriber(url: string, clientId: string, topic: string) {
  const received: { payload: string; ack: Ack }[] = [];
  const client: MqttClient = mqtt.connect(url, {
    clientId,
    clean: false,
    protocolVersion: 4,
    reconnectPeriod: 0,
    manualConnect: true,
  });
  const gate = new AckGate().install(client);
  client.handleMessage = (packet, callback) => {
    received.push({ payload: String(packet.payload), ack: gate.hold(packet.messageId, client) });
    callback();
  };
  client.connect();
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync(topic, { qos: 1 });
  return { client, gate, received };
}

describe('AckGate on the pinned MQTT.js', () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('runs on the version package.json pins exactly', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('holds the PUBACK until release: an unreleased message is redelivered to the next connection, a released one is not', async () => {
    const clientId = uniqueId('gate');
    const topic = `furnace-test/${uniqueId('gate')}`;
    const publisher = await connectPublisher(broker.url);
    try {
      const first = await gatedSubscriber(broker.url, clientId, topic);
      await publisher.publishAsync(topic, 'held', { qos: 1 });
      await publisher.publishAsync(topic, 'released', { qos: 1 });
      await waitFor('both messages received', () => first.received.length === 2);
      first.received.find((m) => m.payload === 'released')!.ack.release();
      await waitFor('the released PUBACK sent', () => first.gate.pending === 1);
      // Disconnects without acknowledging 'held' (a killed ingest sends nothing at all; a clean
      // DISCONNECT also flushes the released PUBACK already written).
      await first.client.endAsync();

      const second = await gatedSubscriber(broker.url, clientId, topic);
      await waitFor('the unacknowledged message redelivered', () => second.received.length >= 1);
      // Anything else would have arrived with it: the broker resends its whole in-flight window at once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(second.received.map((m) => m.payload)).toEqual(['held']);
      for (const m of second.received) m.ack.release();
      await second.client.endAsync();
    } finally {
      await publisher.endAsync();
      await dropSession(broker.url, clientId);
    }
  });
});
