import { connect as tcpConnect } from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAIN } from '../system';
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
 * the refusal, and that nothing was stored, received or disturbed (docs/behaviour.md, "DAQ credentials").
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
    /** The installation DAQ account `npm start` generated: `daq`, its password in the data directory. */
    const installation = () => ({
      username: 'daq',
      password: readFileSync(join(sys.dataDir, 'daq-password'), 'utf8').trim(),
    });
    const daq = async (options: IClientOptions = {}) => {
      const c = await connectMqtt(url, { ...installation(), ...options });
      clients.push(c);
      return c;
    };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${sys.proc.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${sys.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const furnace = async (code: string) => {
      const res = await api('POST', '/furnaces', { name: `Piec ${code}`, code });
      expect(res.status).toBe(200);
      return (JSON.parse(res.text) as { id: string }).id;
    };
    const issue = async (furnaceId: string) => {
      const res = await api('POST', `/furnaces/${furnaceId}/daq-credential`);
      expect(res.status).toBe(200);
      return JSON.parse(res.text) as { username: string; password: string; topic: string; rotated: boolean };
    };
    /** Publishes at QoS 1: resolves when the broker acknowledged, rejects when it closed the connection instead. */
    const publishOrClosed = (c: MqttClient, topic: string, payload: string) => {
      const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
      return Promise.race([
        c.publishAsync(topic, payload, { qos: 1 }).then(() => 'acknowledged'),
        closed.then(() => Promise.reject(new Error('closed'))),
      ]);
    };

    it('refuses an anonymous client on loopback, and one with a wrong password; nothing is stored', async () => {
      await expect(connectMqtt(url)).rejects.toThrow(/Not authorized/i);
      await expect(connectMqtt(url, { username: 'daq' })).rejects.toThrow(/Not authorized|Bad username or password/i);
      await expect(connectMqtt(url, { username: 'daq', password: 'guess' })).rejects.toThrow(
        /Bad username or password/i,
      );
      await expect(connectMqtt(url, { username: 'daq-nope', password: 'guess' })).rejects.toThrow(
        /Bad username or password/i,
      );
      expect(await sys.rows(researchId)).toEqual([]);
      // The generated password is kept for this user only.
      expect(statSync(join(sys.dataDir, 'daq-password')).mode & 0o077).toBe(0);
    });

    it("a furnace's credential publishes to its own topic only: not another furnace's, not a research's", async () => {
      const p1 = await furnace('sec-p1');
      await furnace('sec-p2');
      const credential = await issue(p1);
      expect(credential).toMatchObject({ username: 'daq-sec-p1', topic: 'lab/sec-p1/data', rotated: false });
      const before = await sys.rows(researchId);
      const own = await daq({ username: credential.username, password: credential.password });
      await expect(publishOrClosed(own, 'lab/sec-p1/data', frame(10))).resolves.toBe('acknowledged');
      for (const topic of ['lab/sec-p2/data', `furnace/${researchId}/data`, 'lab/sec-p1/cmd']) {
        const c = await daq({ username: credential.username, password: credential.password });
        await expect(publishOrClosed(c, topic, frame(11))).rejects.toThrow('closed');
      }
      await sleep(500);
      // Nothing planted in the research.
      expect(await sys.rows(researchId)).toEqual(before);
      expect(sys.proc.output()).toContain('Refused a publish to lab/sec-p2/data');
      // A DAQ subscribes to nothing, its own topic neither.
      const spy = await daq({ username: credential.username, password: credential.password });
      const refusal = await spy.subscribeAsync(['lab/sec-p1/data', 'lab/#'], { qos: 1 }).then(
        () => null,
        (e: { packet?: { granted?: number[] } }) => e.packet?.granted,
      );
      expect(refusal).toEqual([128, 128]);
    });

    it('a rotated credential is refused at once, and its open connection is closed', async () => {
      const id = await furnace('sec-rot');
      const first = await issue(id);
      const connected = await daq({ username: first.username, password: first.password });
      const dropped = new Promise<void>((resolve) => connected.once('close', () => resolve()));
      const second = await issue(id);
      expect(second).toMatchObject({ username: 'daq-sec-rot', rotated: true });
      expect(second.password).not.toBe(first.password);
      await expect(dropped).resolves.toBeUndefined();
      await expect(connectMqtt(url, { username: first.username, password: first.password })).rejects.toThrow(
        /Bad username or password/i,
      );
      const fresh = await daq({ username: second.username, password: second.password });
      await expect(publishOrClosed(fresh, 'lab/sec-rot/data', frame(12))).resolves.toBe('acknowledged');

      // GET shows that a credential exists and when it was issued, never the secret or its hash.
      const list = await api('GET', '/furnaces');
      const one = await api('GET', `/furnaces/${id}`);
      for (const res of [list, one]) {
        expect(res.text).toContain('"username":"daq-sec-rot"');
        expect(res.text).not.toContain(first.password);
        expect(res.text).not.toContain(second.password);
        expect(res.text).not.toMatch(/scrypt|password/);
      }
      expect(JSON.parse(one.text).daq_credential).toEqual({ username: 'daq-sec-rot', issued_at: expect.any(String) });
      // Nor does the audit trail or the log.
      const audit = await api('GET', '/audit?per_page=50');
      expect(audit.status).toBe(200);
      expect(audit.text).toContain('daq-credential');
      for (const secret of [first.password, second.password]) {
        expect(audit.text).not.toContain(secret);
        expect(sys.proc.output()).not.toContain(secret);
      }
      expect(sys.proc.output()).not.toContain(installation().password);
    });

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
    it('an unauthenticated or wrong-password client is refused; the configured DAQ account gets through', async () => {
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
        // The installation account may publish to every furnace topic too.
        await good.publishAsync('lab/any-furnace/data', frame(2), { qos: 1 });
        await good.endAsync();
        // The password is never logged, and none is generated when the environment gives one.
        expect(sys.proc.output()).not.toContain('daq-password-42');
        expect(existsSync(join(sys.dataDir, 'daq-password'))).toBe(false);
      } finally {
        expect(await sys.proc.stop()).toBe(0);
      }
    });
  });
});
