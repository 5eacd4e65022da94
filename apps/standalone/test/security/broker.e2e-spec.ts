import { connect as tcpConnect } from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { existsSync } from 'node:fs';
import { MAIN, startSystemProcess } from '../system';
import {
  eventually,
  externalAddress,
  listeningSockets,
  type SecuredSystem,
  sleep,
  startSecuredSystem,
} from './support';

/*
 * Attacks on the embedded MQTT broker of `npm start` (aedes), each against the running system:
 * the refusal, and that nothing was stored, received or disturbed.
 */

const frame = (time: number) => JSON.stringify({ time, pk: 500 + time, thermocouples_out: [20 + time] });

/** Connects and resolves with the client, or rejects with the broker's refusal (no reconnecting). */
function connectMqtt(url: string, options: IClientOptions = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...options });
}

/** Resolves when the TCP port answers, rejects with the socket error otherwise. */
function tcpProbe(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = tcpConnect({ host, port, timeout: 3000 });
    s.once('connect', () => {
      s.destroy();
      resolve();
    });
    s.once('timeout', () => {
      s.destroy();
      reject(new Error('timeout'));
    });
    s.once('error', reject);
  });
}

describe('security: the embedded broker', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm test builds it first (tsc -b)`);
  });

  describe('on loopback (the default)', () => {
    let sys: SecuredSystem;
    let researchId: string;
    let url: string;
    const clients: MqttClient[] = [];
    beforeAll(async () => {
      sys = await startSecuredSystem();
      researchId = await sys.research();
      url = `mqtt://127.0.0.1:${sys.mqttPort}`;
    });
    afterAll(async () => {
      for (const c of clients) await c.endAsync(true).catch(() => undefined);
      expect(await sys?.proc.stop()).toBe(0);
    });
    const daq = async (options: IClientOptions = {}) => {
      const c = await connectMqtt(url, options);
      clients.push(c);
      return c;
    };

    it('listens on 127.0.0.1 only: another machine cannot reach it', async () => {
      await expect(tcpProbe('127.0.0.1', sys.mqttPort)).resolves.toBeUndefined();
      expect(listeningSockets(sys.proc.child.pid!).filter((l) => l.port === sys.mqttPort)).toEqual([
        { address: '127.0.0.1', port: sys.mqttPort },
      ]);
      // And from this machine's network address, as another machine would dial it (where it has one).
      const external = externalAddress();
      if (external) await expect(tcpProbe(external, sys.mqttPort)).rejects.toThrow(/ECONNREFUSED/);
      expect(sys.proc.output()).toContain(`Embedded MQTT broker (aedes) on 127.0.0.1:${sys.mqttPort}`);
    });

    it('a DAQ subscribing to furnace/# is refused and receives nothing', async () => {
      const spy = await daq();
      const received: string[] = [];
      spy.on('message', (topic) => received.push(topic));
      // Every filter is answered with the failure code 0x80 (mqtt.js rejects with the SUBACK).
      const refusal = await spy.subscribeAsync(['furnace/#', `furnace/${researchId}/data`, '#'], { qos: 1 }).then(
        () => null,
        (e: { packet?: { granted?: number[] } }) => e.packet?.granted,
      );
      expect(refusal).toEqual([128, 128, 128]);

      const before = (await sys.rows(researchId)).length;
      const publisher = await daq();
      await publisher.publishAsync(`furnace/${researchId}/data`, frame(1), { qos: 1 });
      // The frame reached the ingest (stored) and nobody else.
      expect(await eventually(async () => (await sys.rows(researchId)).length === before + 1)).toBe(true);
      await sleep(500);
      expect(received).toEqual([]);
    });

    it('a DAQ may publish to furnace/{uuid}/data only', async () => {
      const before = await sys.rows(researchId);
      for (const topic of [
        `furnace/${researchId}/cmd`,
        'furnace/not-a-uuid/data',
        `$SYS/broker/uptime`,
        `other/${researchId}/data`,
      ]) {
        const c = await daq();
        const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
        // aedes answers a refused publish by closing the connection; the QoS 1 publish is never acknowledged.
        await expect(
          Promise.race([
            c.publishAsync(topic, frame(50), { qos: 1 }),
            closed.then(() => Promise.reject(new Error('closed'))),
          ]),
        ).rejects.toThrow();
      }
      await sleep(500);
      expect(await sys.rows(researchId)).toEqual(before);
      expect(sys.proc.output()).toContain(`Refused a publish to furnace/${researchId}/cmd`);
    });

    it("a client using the ingest's client id is refused and the ingest keeps receiving", async () => {
      await expect(connectMqtt(url, { clientId: 'furnace-ingest', clean: false })).rejects.toThrow(
        /Identifier rejected|client id reserved/i,
      );
      await expect(
        connectMqtt(url, { clientId: 'furnace-ingest', username: 'furnace-ingest', password: 'guess' }),
      ).rejects.toThrow(/Identifier rejected|client id reserved/i);
      const before = (await sys.rows(researchId)).length;
      const publisher = await daq();
      await publisher.publishAsync(`furnace/${researchId}/data`, frame(2), { qos: 1 });
      expect(await eventually(async () => (await sys.rows(researchId)).length === before + 1)).toBe(true);
      expect(sys.proc.output()).toContain("Refused a client using the ingest's reserved client id furnace-ingest");
    });

    it('a 70 KiB publish is refused by the broker, and nothing is stored', async () => {
      const before = await sys.rows(researchId);
      const c = await daq();
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      const big = JSON.stringify({ time: 3, pk: 1, comment: 'x'.repeat(70 * 1024) });
      c.publish(`furnace/${researchId}/data`, big, { qos: 1 });
      await closed;
      await sleep(500);
      expect(await sys.rows(researchId)).toEqual(before);
      expect(sys.proc.output()).toMatch(/Refused an MQTT packet of \d+ bytes/);
      // The broker is still there for the others.
      const next = await daq();
      await next.publishAsync(`furnace/${researchId}/data`, frame(4), { qos: 1 });
      expect(await eventually(async () => (await sys.rows(researchId)).length === before.length + 1)).toBe(true);
    });
  });

  describe('beyond loopback (MQTT_HOST)', () => {
    it('refuses to start without MQTT_USERNAME and MQTT_PASSWORD, naming them', async () => {
      await expect(startSystemProcess({ MQTT_HOST: '0.0.0.0' })).rejects.toThrow(
        /MQTT_USERNAME, MQTT_PASSWORD: required when the embedded broker listens beyond loopback/,
      );
    });

    it('an unauthenticated or wrong-password client is refused; the configured DAQ gets through', async () => {
      const sys = await startSecuredSystem({
        MQTT_HOST: '0.0.0.0',
        MQTT_USERNAME: 'daq',
        MQTT_PASSWORD: 'daq-password-42',
      });
      try {
        const researchId = await sys.research();
        expect(listeningSockets(sys.proc.child.pid!).filter((l) => l.port === sys.mqttPort)).toEqual([
          { address: '0.0.0.0', port: sys.mqttPort },
        ]);
        // Dialled as another machine would (this machine's network address), or on loopback where it has none.
        const url = `mqtt://${externalAddress() ?? '127.0.0.1'}:${sys.mqttPort}`;
        await expect(connectMqtt(url)).rejects.toThrow(/Bad username or password|Not authorized/i);
        await expect(connectMqtt(url, { username: 'daq', password: 'wrong-password' })).rejects.toThrow(
          /Bad username or password/i,
        );
        await expect(connectMqtt(url, { username: 'furnace-ingest', password: 'daq-password-42' })).rejects.toThrow(
          /Bad username or password/i,
        );
        expect(await sys.rows(researchId)).toEqual([]);

        const good = await connectMqtt(url, { username: 'daq', password: 'daq-password-42' });
        await good.publishAsync(`furnace/${researchId}/data`, frame(1), { qos: 1 });
        expect(await eventually(async () => (await sys.rows(researchId)).length === 1)).toBe(true);
        await good.endAsync();
        // The password is never logged.
        expect(sys.proc.output()).not.toContain('daq-password-42');
      } finally {
        expect(await sys.proc.stop()).toBe(0);
      }
    });
  });
});
