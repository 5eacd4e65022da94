// Furnace DAQ credentials with Mosquitto (docs/behaviour.md §16, the docker-compose layout): the API, as
// administrator of the dynamic security plugin, gives each credential to a Mosquitto of this file, started
// with infra/mosquitto's configuration and entrypoint. The DAQ signs in with the password the API showed,
// publishes to its furnace's topic only; rotating, renaming and deleting take effect in the broker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import mqtt, { type MqttClient } from 'mqtt';
import { createLogger } from '@furnace/logger';
import {
  connectClient,
  freePort,
  login,
  mosquittoMissing,
  type OwnMosquitto,
  startOwnMosquitto,
  SUPERUSER,
  waitFor,
} from '@furnace/testing';
import { auth, startTestApi, type TestApi } from './harness';
import { DYNSEC_RESPONSE_TOPIC, DYNSEC_TOPIC } from '../src/furnaces/mosquitto-dynsec';

const FURNACES = '/api/v1/furnaces';
const RESEARCH_TOPIC = 'furnace/3f2a0c4e-8b1d-4c3e-9a57-0d6b2e1f4a10/data';
const missing = mosquittoMissing();

(missing ? describe.skip : describe)(
  missing
    ? `DAQ credentials in Mosquitto (skipped: ${missing})`
    : 'DAQ credentials in Mosquitto (dynamic security plugin, administered by the API)',
  () => {
    let broker: OwnMosquitto;
    let api: TestApi;
    let admin: string;
    let logs = '';
    const clients: MqttClient[] = [];

    const sink = () =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs += chunk.toString();
          done();
        },
      });
    const dynsecEnv = () => ({
      MQTT_URL: broker.url,
      MQTT_DYNSEC_USERNAME: 'api',
      MQTT_DYNSEC_PASSWORD: broker.passwords.api,
    });

    beforeAll(async () => {
      broker = await startOwnMosquitto();
      api = await startTestApi(dynsecEnv(), {
        logger: createLogger({ logFormat: 'json', env: 'production' }, 'furnace', sink()),
      });
      admin = await login(api, SUPERUSER.email, SUPERUSER.password);
      // The administrator connection is up once the start's reconcile has been logged or run.
      await waitFor('the API to administer the broker', () => brokerClients().then((names) => names !== null));
    }, 60_000);

    afterAll(async () => {
      for (const client of clients) client.end(true);
      await api?.close();
      await broker?.stop();
    });

    const create = async (code: string) => {
      const res = await api.http
        .post(FURNACES)
        .set(auth(admin))
        .send({ name: `Piec ${code}`, code });
      expect(res.status).toBe(200);
      return res.body as { id: string };
    };
    const issue = async (id: string) => {
      const res = await api.http.post(`${FURNACES}/${id}/daq-credential`).set(auth(admin));
      expect(res.status).toBe(200);
      return res.body as { username: string; password: string; topic: string; rotated: boolean };
    };

    async function connect(username: string, password: string): Promise<MqttClient> {
      const client = await connectClient(broker.url, username, password);
      clients.push(client);
      return client;
    }

    /** The ingest's account, reading the DAQ topics: what it receives is what the ingest would store. */
    async function ingest(): Promise<string[]> {
      const client = await connect('ingest', broker.passwords.ingest);
      const received: string[] = [];
      client.on('message', (topic, payload) => received.push(`${topic} ${payload.toString()}`));
      await client.subscribeAsync(['lab/+/data', 'furnace/+/data'], { qos: 1 });
      return received;
    }

    /** The usernames of the plugin's clients, asked as the administrator; null while it is not answering. */
    async function brokerClients(): Promise<string[] | null> {
      const client = await mqtt.connectAsync(broker.url, {
        username: 'api',
        password: broker.passwords.api,
        reconnectPeriod: 0,
        protocolVersion: 4,
      });
      let timer: NodeJS.Timeout | undefined;
      try {
        await client.subscribeAsync(DYNSEC_RESPONSE_TOPIC, { qos: 1 });
        const answer = new Promise<string[]>((resolve) =>
          client.on('message', (_topic, payload) => {
            const [response] = (JSON.parse(payload.toString()) as { responses: { data?: { clients: string[] } }[] })
              .responses;
            resolve(response?.data?.clients ?? []);
          }),
        );
        await client.publishAsync(DYNSEC_TOPIC, JSON.stringify({ commands: [{ command: 'listClients' }] }));
        const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 3000)));
        return await Promise.race([answer, late]);
      } finally {
        clearTimeout(timer);
        await client.endAsync(true);
      }
    }

    const closed = (client: MqttClient) =>
      new Promise<void>((resolve) => (client.connected ? client.once('close', () => resolve()) : resolve()));

    it('lets the DAQ sign in with the password the API showed and publish to its furnace’s topic, which the ingest receives', async () => {
      const furnace = await create('mq-1');
      const credential = await issue(furnace.id);
      expect(credential).toMatchObject({ username: 'daq-mq-1', topic: 'lab/mq-1/data', rotated: false });
      const received = await ingest();
      const daq = await connect(credential.username, credential.password);
      await daq.publishAsync('lab/mq-1/data', '{"time":1}', { qos: 1 });
      await waitFor('the frame at the ingest', () => received.includes('lab/mq-1/data {"time":1}'));

      // Mosquitto keeps its own hash of it: the password is in no file of the broker, nor in the API's log.
      const stored = readFileSync(join(broker.dir, 'data', 'dynamic-security.json'), 'utf8');
      expect(stored).toContain('"daq-mq-1"');
      expect(stored).not.toContain(credential.password);
      expect(logs).not.toContain(credential.password);
    });

    it('drops what it publishes to another furnace’s topic, a research topic or any other, and lets it subscribe to nothing', async () => {
      const furnace = await create('mq-2');
      await create('mq-3');
      const credential = await issue(furnace.id);
      const received = await ingest();
      const daq = await connect(credential.username, credential.password);
      for (const topic of ['lab/mq-3/data', RESEARCH_TOPIC, 'lab/mq-2/data/extra', 'other/topic'])
        await daq.publishAsync(topic, '{"time":2}', { qos: 1 });
      // One publisher's messages arrive in order: once this one is there, the others would have been too.
      await daq.publishAsync('lab/mq-2/data', '{"time":3}', { qos: 1 });
      await waitFor('the allowed frame', () => received.includes('lab/mq-2/data {"time":3}'));
      expect(received).toEqual(['lab/mq-2/data {"time":3}']);
      for (const filter of ['#', 'lab/mq-2/data'])
        await expect(daq.subscribeAsync(filter, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    });

    it('keeps the installation’s DAQ account and the ingest working as before', async () => {
      const received = await ingest();
      const daq = await connect('daq', broker.passwords.daq);
      await daq.publishAsync(RESEARCH_TOPIC, '{"time":4}', { qos: 1 });
      await daq.publishAsync('lab/any-furnace/data', '{"time":5}', { qos: 1 });
      await waitFor('both frames', () => received.length === 2);
      expect(received).toEqual([`${RESEARCH_TOPIC} {"time":4}`, 'lab/any-furnace/data {"time":5}']);
    });

    it('refuses the old password once rotated, and closes the connection signed in with it', async () => {
      const furnace = await create('mq-4');
      const first = await issue(furnace.id);
      const daq = await connect(first.username, first.password);
      const gone = closed(daq);
      const second = await issue(furnace.id);
      expect(second).toMatchObject({ username: 'daq-mq-4', rotated: true });
      await gone;
      await expect(connect(first.username, first.password)).rejects.toThrow(/Not authorized/);
      const received = await ingest();
      const again = await connect(second.username, second.password);
      await again.publishAsync('lab/mq-4/data', '{"time":6}', { qos: 1 });
      await waitFor('the frame after rotation', () => received.includes('lab/mq-4/data {"time":6}'));
    });

    it('withdraws the credential when the furnace’s code changes (it must be issued again), closing its connections', async () => {
      const furnace = await create('mq-5');
      const first = await issue(furnace.id);
      const daq = await connect(first.username, first.password);
      const gone = closed(daq);
      const renamed = await api.http.patch(`${FURNACES}/${furnace.id}`).set(auth(admin)).send({ code: 'mq-5b' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.daq_credential).toBeNull();
      await gone;
      await expect(connect('daq-mq-5', first.password)).rejects.toThrow(/Not authorized/);
      await expect(connect('daq-mq-5b', first.password)).rejects.toThrow(/Not authorized/);
      const audit = await api.http
        .get('/api/v1/audit')
        .query({ actor: SUPERUSER.email, per_page: 100 })
        .set(auth(admin));
      expect(
        audit.body.data.filter(
          (e: { entity_id: string; action: string }) => e.entity_id === furnace.id && e.action === 'daq-credential',
        )[0],
      ).toMatchObject({ before: { daq_username: 'daq-mq-5' }, after: null });

      const reissued = await issue(furnace.id);
      expect(reissued).toMatchObject({ username: 'daq-mq-5b', topic: 'lab/mq-5b/data', rotated: false });
      const received = await ingest();
      const again = await connect(reissued.username, reissued.password);
      await again.publishAsync('lab/mq-5/data', '{"time":7}', { qos: 1 });
      await again.publishAsync('lab/mq-5b/data', '{"time":8}', { qos: 1 });
      await waitFor('the frame on the new topic', () => received.includes('lab/mq-5b/data {"time":8}'));
      expect(received).toEqual(['lab/mq-5b/data {"time":8}']);
    });

    it('refuses the credential of a deleted furnace and closes its connections', async () => {
      const furnace = await create('mq-6');
      const credential = await issue(furnace.id);
      const daq = await connect(credential.username, credential.password);
      const gone = closed(daq);
      expect((await api.http.delete(`${FURNACES}/${furnace.id}`).set(auth(admin))).status).toBe(200);
      await gone;
      await expect(connect(credential.username, credential.password)).rejects.toThrow(/Not authorized/);
      expect(await brokerClients()).not.toContain('daq-mq-6');
    });

    it('at start, removes the broker’s clients whose credential is gone and names those the broker lacks; two instances agree', async () => {
      // A client left behind (its furnace deleted while no API was connected) …
      const stray = await mqtt.connectAsync(broker.url, {
        username: 'api',
        password: broker.passwords.api,
        reconnectPeriod: 0,
      });
      await stray.publishAsync(
        DYNSEC_TOPIC,
        JSON.stringify({ commands: [{ command: 'createClient', username: 'daq-left-behind', password: 'x' }] }),
        { qos: 1 },
      );
      await stray.endAsync();
      await waitFor('the stray client', async () => (await brokerClients())?.includes('daq-left-behind'));
      // … and a credential the broker never had (issued while the API did not administer it).
      const furnace = await create('mq-7');
      await api.dataSource.query(
        "INSERT INTO furnace_daq_credential (furnace_id, username, password_hash, issued_at) VALUES ($1, 'daq-mq-7', 'not-a-hash', now())",
        [furnace.id],
      );
      logs = '';
      const second = await startTestApi(dynsecEnv(), {
        db: api.db,
        logger: createLogger({ logFormat: 'json', env: 'production' }, 'furnace', sink()),
      });
      try {
        await waitFor('the stray client to go', async () => !(await brokerClients())?.includes('daq-left-behind'));
        await waitFor('the warning', () => logs.includes('daq-mq-7'));
        const warning = logs.split('\n').find((l) => l.includes('daq-mq-7'))!;
        expect(JSON.parse(warning)).toMatchObject({
          level: 'warn',
          msg: expect.stringMatching(/lacks .*daq-mq-7.*rotate/),
        });
        // The first instance's clients are untouched by the second's start.
        expect(await brokerClients()).toEqual(expect.arrayContaining(['daq-mq-1', 'daq-mq-4', 'daq-mq-5b']));
        // Rotating gives it to the broker.
        const rotated = await issue(furnace.id);
        (await connect(rotated.username, rotated.password)).end(true);
      } finally {
        await second.close();
      }
    });

    it('refuses the issue with 503 when the broker is unreachable and changes nothing; the warning has no password', async () => {
      logs = '';
      const down = await startTestApi(
        { ...dynsecEnv(), MQTT_URL: `mqtt://127.0.0.1:${await freePort()}` },
        { db: api.db, logger: createLogger({ logFormat: 'json', env: 'production' }, 'furnace', sink()) },
      );
      try {
        const token = await login(down, SUPERUSER.email, SUPERUSER.password);
        const furnace = await down.http.post(FURNACES).set(auth(token)).send({ name: 'Piec mq-8', code: 'mq-8' });
        const res = await down.http.post(`${FURNACES}/${furnace.body.id}/daq-credential`).set(auth(token));
        expect(res.status).toBe(503);
        expect(res.body.detail).toContain('nothing was changed');
        expect(res.body).not.toHaveProperty('password');
        // No credential kept, no audit entry of one.
        expect((await down.http.get(`${FURNACES}/${furnace.body.id}`).set(auth(token))).body.daq_credential).toBeNull();
        const audited: unknown[] = await down.dataSource.query(
          `SELECT 1 FROM audit_entry WHERE entity_id = $1 AND action = 'daq-credential'`,
          [furnace.body.id],
        );
        expect(audited).toEqual([]);
        const warning = logs.split('\n').find((l) => l.includes('daq-mq-8'));
        expect(JSON.parse(warning!)).toMatchObject({
          level: 'warn',
          msg: 'The broker was not given daq-mq-8: not connected to the broker; nothing changed',
        });
      } finally {
        await down.close();
      }
    });
  },
);
