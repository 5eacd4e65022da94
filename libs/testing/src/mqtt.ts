import mqtt, { type MqttClient } from 'mqtt';
import { type EmbeddedBroker, startEmbeddedBroker } from '@furnace/broker';
import { uniqueId } from './ids';

// Tests read their environment directly: they are not part of the running system's configuration.
export const TEST_MQTT_URL = process.env.TEST_MQTT_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

export interface TestBroker {
  url: string;
  /** The machine's Mosquitto (shared with other tests) rather than an embedded aedes of this file. */
  shared: boolean;
  stop(): Promise<void>;
}

/** The broker TEST_MQTT_URL names, or an embedded one of this test file on a free port. */
export async function startTestBroker(): Promise<TestBroker> {
  if (TEST_MQTT_URL) return { url: TEST_MQTT_URL, shared: true, stop: async () => undefined };
  const broker: EmbeddedBroker = await startEmbeddedBroker({ port: 0, access: 'open' });
  return { url: broker.url, shared: false, stop: () => broker.stop() };
}

/** Removes a persistent session from the broker (the machine's Mosquitto keeps them on disk otherwise). */
export async function dropSession(url: string, clientId: string): Promise<void> {
  const client = await mqtt.connectAsync(url, { clientId, clean: true, protocolVersion: 4, reconnectPeriod: 0 });
  await client.endAsync();
}

/** A DAQ's connection: publishes frames as the furnace does. */
export async function connectPublisher(url: string): Promise<MqttClient> {
  return mqtt.connectAsync(url, { clientId: uniqueId('publisher'), protocolVersion: 4, clean: true });
}
