import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MqttClient } from 'mqtt';
import { type Bus, InProcessBus } from '@furnace/bus';
import { type AlarmView, daqTopic, type LiveServerMessage } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  connectPublisher,
  connectViewer,
  dropSession,
  insertMarkers,
  login,
  researchBody,
  startTestBroker,
  streamUrl,
  SUPERUSER,
  TEST_REDIS_URL,
  testBus,
  type TestBroker,
  type TestViewer,
  waitFor,
} from '@furnace/testing';
import type { RunningIngest } from '@furnace/ingest';
import { startSimulator } from '@furnace/simulator';
import { ingestConfig, startTestIngest } from '@furnace/ingest/testing';
import {
  auth,
  CriteriaKeeper,
  startTestApi,
  startTestSmtp,
  type TestApi,
  type TestSmtp,
  viewerTokenFor,
} from '@furnace/api-server/testing';

/*
 * Alarms raised by the server (docs/behaviour.md, "Alarms") on simulated tests, with the scale-out layout: two
 * ingest and two API instances on one database, bus and broker. The simulator's DAQ goes silent (--silence-at) or
 * a thermocouple reports its fault flag (--fault-at); the alarm is raised once, repeats while unacknowledged,
 * stops repeating once acknowledged, and clears when frames come again. Its messages reach a real SMTP server
 * and a webhook receiver here, which checks each signature and counts the deliveries.
 */

/** Short timings: a message repeats every 2.5 s; the webhook's retries 100 ms apart. */
const REPEAT_MS = 2_500;
const ALARMS = { repeatMs: REPEAT_MS, sweepMs: 100, watchMs: 300, webhookBackoffMs: 100, webhookAttempts: 3 };
const KEEPER = { tickMs: 200, leaseMs: 2_000, pushMs: 50, saveMs: 1_000 };
const SECRET = 'a-webhook-secret-of-the-furnace';
/** The furnace's DAQ scans every 0.5 s: silence is 1.5 s without a frame. */
const SCAN_S = 0.5;

interface Hook {
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
  status: number;
}

describe('alarms: simulator → two ingests → bus → two API instances → e-mail and webhook', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let sharedBus: Bus | undefined;
  let ingestBus: Bus;
  let smtp: TestSmtp;
  let apis: TestApi[] = [];
  const ingests: { ingest: RunningIngest; clientId: string }[] = [];
  let hookServer: Server;
  let hookUrl: string;
  const hooks: Hook[] = [];
  /** The receiver answers 500 to this many calls first (a webhook retried). */
  let failures = 0;
  let admin: string;
  let staff: { id: string; email: string; token: string };
  let publisher: MqttClient;
  const viewers: TestViewer[] = [];

  beforeAll(async () => {
    [db, broker, smtp] = await Promise.all([createTestDatabase(), startTestBroker(), startTestSmtp()]);
    sharedBus = TEST_REDIS_URL ? undefined : new InProcessBus();
    const env = smtp.env('alarms@lab.example.com');
    apis = [
      await startTestApi(env, { db, bus: sharedBus, alarms: ALARMS, criteriaKeeper: KEEPER }),
      await startTestApi(env, { db, bus: sharedBus, alarms: ALARMS, criteriaKeeper: KEEPER }),
    ];
    ingestBus = sharedBus ?? (await testBus());
    for (let i = 0; i < 2; i++) {
      const config = ingestConfig(db.url, broker);
      ingests.push({ ingest: await startTestIngest(config, ingestBus, 'all'), clientId: config.mqttClientId });
    }
    publisher = await connectPublisher(broker.url);
    hookServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = failures > 0 ? 500 : 200;
        if (failures > 0) failures--;
        hooks.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, at: Date.now(), status });
        res.statusCode = status;
        res.end(status === 200 ? 'ok' : 'not now');
      });
    });
    await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/alarms`;
    admin = await login(apis[0]!, SUPERUSER.email, SUPERUSER.password);
    const me = await apis[0]!.http.get('/api/v1/users/me').set(auth(admin));
    staff = { id: me.body.id, email: me.body.email, token: admin };
  });
  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await publisher?.endAsync();
    for (const { ingest, clientId } of ingests) {
      await ingest.stop();
      await dropSession(broker.url, clientId).catch(() => undefined);
    }
    for (const api of apis) await api.close();
    if (!sharedBus) await ingestBus?.close();
    await sharedBus?.close();
    await new Promise((resolve) => hookServer?.close(resolve));
    await smtp?.close();
    await broker?.stop();
    await db?.drop();
  });

  const alarmsOf = async (api: TestApi, researchId: string): Promise<AlarmView[]> => {
    const res = await api.http.get(`/api/v1/research/${researchId}/alarms`).set(auth(staff.token));
    expect(res.status).toBe(200);
    return res.body.data as AlarmView[];
  };
  const alarmEvents = (viewer: TestViewer) =>
    viewer.messages.filter((m): m is Extract<LiveServerMessage, { event: 'ALARM' }> => m.event === 'ALARM');
  const deliveryOf = (h: Hook) => String(h.headers['x-furnace-delivery'] ?? '');
  const delivered = (alarmId: string, message: number) =>
    hooks.filter((h) => deliveryOf(h) === `${alarmId}:${message}`);
  const accepted = (alarmId: string) =>
    hooks.filter((h) => h.status === 200 && deliveryOf(h).startsWith(`${alarmId}:`));

  it('silence: raised once after 3 scan periods (at least 2 s), sent by e-mail and a signed webhook (retried), repeated until acknowledged, cleared when frames come again', async () => {
    const furnace = await apis[0]!.http
      .post('/api/v1/furnaces')
      .set(auth(admin))
      .send({
        name: 'Piec alarmowy',
        code: 'alarm-1',
        scan_period_s: SCAN_S,
        watch_emails: ['Watch@Example.com'],
        webhook_url: hookUrl,
        webhook_secret: SECRET,
      });
    expect(furnace.status).toBe(200);
    expect(furnace.body).toMatchObject({
      watch_emails: ['watch@example.com'],
      webhook_url: hookUrl,
      webhook_secret_set: true,
    });
    expect(furnace.body).not.toHaveProperty('webhook_secret');
    const created = await apis[1]!.http
      .post('/api/v1/research')
      .set(auth(staff.token))
      .send(researchBody({ furnace_id: furnace.body.id, responsible_user_id: staff.id }));
    expect(created.status).toBe(200);
    expect(created.body.responsible_user_id).toBe(staff.id);
    const researchId = created.body.id as string;
    const client = await apis[0]!.http
      .post('/api/v1/research/emails')
      .set(auth(staff.token))
      .send({ research_id: researchId, email: 'client@example.com' });
    expect(client.status).toBe(200);
    const staffViewer = await connectViewer(streamUrl(apis[0]!, researchId, { token: staff.token }));
    const clientViewer = await connectViewer(streamUrl(apis[1]!, researchId, { code: client.body.id }));
    viewers.push(staffViewer, clientViewer);

    // The DAQ scans every 0.5 s and goes silent at 3 s of the test for 14 s.
    const SILENCE_AT = 3;
    let lastBeforeSilence = 0;
    let framesAfter = 0;
    failures = 1;
    const simulator = startSimulator({
      url: broker.url,
      researchId,
      rate: 1 / SCAN_S,
      speed: 1,
      channels: 3,
      duration: 30,
      silence: { at: SILENCE_AT, for: 14 },
      onFrame: (time) => {
        if (time < SILENCE_AT) lastBeforeSilence = Date.now();
        else framesAfter++;
      },
    });
    try {
      const raised = await waitFor('the silence alarm', async () =>
        (await alarmsOf(apis[1]!, researchId)).find((a) => a.kind === 'silence'),
      );
      expect(raised).toMatchObject({ kind: 'silence', subject: '', furnace_id: furnace.body.id, cleared_at: null });
      expect(raised.details).toMatchObject({ scan_period_s: SCAN_S, missed_scans: 3, silence_s: 2 });

      // The webhook: refused once (500), retried, accepted; every call signed with the furnace's secret.
      const firstAccepted = await waitFor('the first message accepted by the webhook', () =>
        delivered(raised.id, 1).find((h) => h.status === 200),
      );
      const first = delivered(raised.id, 1);
      expect(first.map((h) => h.status)).toEqual([500, 200]);
      for (const hook of first) {
        const expected = `sha256=${createHmac('sha256', SECRET).update(hook.body).digest('hex')}`;
        expect(hook.headers['x-furnace-signature']).toBe(expected);
        expect(hook.headers['x-furnace-timestamp']).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      expect(JSON.parse(firstAccepted.body)).toMatchObject({
        event: 'alarm',
        message: 1,
        alarm: { id: raised.id, kind: 'silence', research_id: researchId },
        research: { id: researchId, name: created.body.name },
        furnace: { id: furnace.body.id, code: 'alarm-1' },
      });
      // A DAQ going silent → the alarm at the webhook, from the moment it counts as silent (3 × 0.5 s < 2 s).
      const thirdMissed = lastBeforeSilence + 2_000;
      console.log(
        `Silence → webhook: ${first[0]!.at - thirdMissed} ms after 2 s of silence (first call), ` +
          `${firstAccepted.at - thirdMissed} ms to the accepted retry (bus ${TEST_REDIS_URL ? 'Redis' : 'in-process'}, broker ${broker.shared ? 'Mosquitto' : 'aedes'})`,
      );
      expect(first[0]!.at - thirdMissed).toBeLessThan(5_000);

      // The e-mails: the responsible engineer and the furnace's watch list.
      for (const to of [staff.email, 'watch@example.com']) {
        const mail = await smtp.next(
          (m) => m.to.includes(to) && m.parsed.subject?.includes('ALARM') === true,
          `the alarm to ${to}`,
        );
        expect(mail.parsed.subject).toContain(created.body.name);
        expect(mail.parsed.text).toContain(`/research/${researchId}/view`);
      }

      // Unacknowledged, it repeats after the interval, once.
      const repeat = await waitFor('the repeat', () => delivered(raised.id, 2).find((h) => h.status === 200), 10_000);
      // Claimed (last_notified_at, the database's clock) a whole interval after the first.
      const claimedAt = (hook: Hook) =>
        Date.parse((JSON.parse(hook.body) as { alarm: AlarmView }).alarm.last_notified_at!);
      expect(claimedAt(repeat) - claimedAt(firstAccepted)).toBeGreaterThanOrEqual(REPEAT_MS);
      expect(delivered(raised.id, 2)).toHaveLength(1);

      // Acknowledged (through the other instance): no more repeats; the staff stream is told.
      const ack = await apis[0]!.http.post(`/api/v1/alarms/${raised.id}/acknowledge`).set(auth(staff.token));
      expect(ack.status).toBe(200);
      expect(ack.body).toMatchObject({ id: raised.id, acknowledged_by: staff.email });
      const again = await apis[1]!.http.post(`/api/v1/alarms/${raised.id}/acknowledge`).set(auth(staff.token));
      expect(again.status).toBe(409);
      expect(again.body.detail).toContain(staff.email);
      await waitFor('ALARM acknowledged on the staff stream', () =>
        alarmEvents(staffViewer).some((m) => m.data.id === raised.id && m.data.acknowledged_by === staff.email),
      );
      const messages = accepted(raised.id).length;

      // Frames again: cleared.
      const cleared = await waitFor(
        'the alarm cleared by frames again',
        async () => (await alarmsOf(apis[0]!, researchId)).find((a) => a.id === raised.id && a.cleared_at !== null),
        30_000,
      );
      expect(framesAfter).toBeGreaterThan(0);
      expect(cleared.acknowledged_by).toBe(staff.email);
      await waitFor('ALARM cleared on the staff stream', () =>
        alarmEvents(staffViewer).some((m) => m.data.id === raised.id && m.data.cleared_at !== null),
      );
      // Well over the interval since the acknowledgement: no message after it.
      expect(Date.now() - repeat.at).toBeGreaterThan(REPEAT_MS);
      expect(accepted(raised.id)).toHaveLength(messages);

      // One row, raised by one instance; every attempt logged.
      const rows: { kind: string }[] = await apis[0]!.dataSource.query(
        `SELECT kind FROM alarm WHERE research_id = $1 AND kind = 'silence'`,
        [researchId],
      );
      expect(rows).toHaveLength(1);
      const log: { channel: string; message: number; attempt: number; status: string }[] =
        await apis[0]!.dataSource.query(
          `SELECT channel, message, attempt, status FROM alarm_delivery WHERE alarm_id = $1 ORDER BY message, channel, attempt`,
          [raised.id],
        );
      expect(log.filter((l) => l.channel === 'webhook' && l.message === 1)).toEqual([
        { channel: 'webhook', message: 1, attempt: 1, status: 'failed' },
        { channel: 'webhook', message: 1, attempt: 2, status: 'sent' },
      ]);
      expect(log.filter((l) => l.channel === 'email' && l.message === 1)).toHaveLength(2);

      // A client's stream never carries an alarm; a client's token cannot read them.
      expect(clientViewer.messages.some((m) => m.event === 'DATA')).toBe(true);
      expect(alarmEvents(clientViewer)).toEqual([]);
    } finally {
      await simulator.stop();
    }
  }, 90_000);

  it('a 10 Hz DAQ pausing 1 s is not silent (3 scans are 0.3 s, the floor is 2 s); stopped, it is after 2 s', async () => {
    const furnace = await apis[0]!.http
      .post('/api/v1/furnaces')
      .set(auth(admin))
      .send({ name: 'Piec szybki', code: 'alarm-fast', scan_period_s: 0.1 });
    expect(furnace.status).toBe(200);
    const created = await apis[0]!.http
      .post('/api/v1/research')
      .set(auth(staff.token))
      .send(researchBody({ furnace_id: furnace.body.id }));
    const researchId = created.body.id as string;
    let lastFrame = 0;
    const simulator = startSimulator({
      url: broker.url,
      researchId,
      rate: 10,
      channels: 3,
      duration: 5,
      silence: { at: 2, for: 1 },
      onFrame: () => (lastFrame = Date.now()),
    });
    try {
      await simulator.done;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Frames went on after the pause, and none of the alarms is a silence.
      expect((await alarmsOf(apis[0]!, researchId)).filter((a) => a.kind === 'silence')).toEqual([]);
      const raised = await waitFor('the silence alarm after the DAQ stopped', async () =>
        (await alarmsOf(apis[1]!, researchId)).find((a) => a.kind === 'silence'),
      );
      expect(raised.details).toMatchObject({ scan_period_s: 0.1, silence_s: 2 });
      expect(Date.parse(raised.raised_at) - lastFrame).toBeGreaterThanOrEqual(2_000 - 50);
    } finally {
      await simulator.stop();
    }
  }, 60_000);

  it('a faulted thermocouple raises its alarm; excluding it clears it', async () => {
    const created = await apis[0]!.http.post('/api/v1/research').set(auth(staff.token)).send(researchBody());
    const researchId = created.body.id as string;
    await insertMarkers(apis[0]!.dataSource, researchId, { 1: 'Tśr i Tmax', 2: 'Tśr i Tmax', 3: 'Tśr i Tmax' });
    const simulator = startSimulator({
      url: broker.url,
      researchId,
      rate: 2,
      speed: 4,
      channels: 3,
      preIgnition: 10,
      faultAt: { time: 5, thermoId: 2 },
    });
    try {
      const alarm = await waitFor('the thermocouple alarm', async () =>
        (await alarmsOf(apis[1]!, researchId)).find((a) => a.kind === 'thermocouple'),
      );
      expect(alarm).toMatchObject({ subject: '2', details: { reason: 'fault' }, cleared_at: null });
      const excluded = await apis[0]!.http
        .post(`/api/v1/research/${researchId}/exclusions`)
        .set(auth(staff.token))
        .send({ thermo_id: 2, from_time: 5, reason: 'wire broken' });
      expect(excluded.status).toBe(200);
      await waitFor('the thermocouple alarm cleared', async () =>
        (await alarmsOf(apis[0]!, researchId)).find((a) => a.id === alarm.id && a.cleared_at !== null),
      );
      const rows: unknown[] = await apis[0]!.dataSource.query(
        `SELECT 1 FROM alarm WHERE research_id = $1 AND kind = 'thermocouple'`,
        [researchId],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await simulator.stop();
    }
  }, 60_000);

  it('d_e outside its tolerance raises its alarm; the test ending clears it', async () => {
    const created = await apis[0]!.http.post('/api/v1/research').set(auth(staff.token)).send(researchBody());
    const researchId = created.body.id as string;
    // A furnace far colder than the standard curve for 7 minutes (d_e is judged after 5).
    for (let t = 0; t <= 420; t++)
      await publisher.publishAsync(daqTopic(researchId), JSON.stringify({ time: t, pk: 20 + t / 10 }), { qos: 1 });
    const alarm = await waitFor('the d_e alarm', async () =>
      (await alarmsOf(apis[1]!, researchId)).find((a) => a.kind === 'deviation'),
    );
    expect(alarm.details.value as number).toBeLessThan(-(alarm.details.limit as number));
    // The test ends (its schedule moved to end now): every alarm of it is cleared.
    const ended = await apis[0]!.http
      .put(`/api/v1/research/${researchId}`)
      .set(auth(staff.token))
      .send({ end_at: new Date(Date.now() + 500).toISOString() });
    expect(ended.status).toBe(200);
    await waitFor(
      'every alarm cleared once the test ended',
      async () => (await alarmsOf(apis[0]!, researchId)).every((a) => a.cleared_at !== null),
      20_000,
    );
  }, 60_000);

  it('silence is noticed by another instance when the owner stops during it, from the newest stored frame', async () => {
    const furnace = await apis[0]!.http
      .post('/api/v1/furnaces')
      .set(auth(admin))
      .send({ name: 'Piec wolny', code: 'alarm-slow', scan_period_s: 3 });
    const created = await apis[0]!.http
      .post('/api/v1/research')
      .set(auth(staff.token))
      .send(researchBody({ furnace_id: furnace.body.id }));
    const researchId = created.body.id as string;
    for (let t = 0; t < 5; t++)
      await publisher.publishAsync(daqTopic(researchId), JSON.stringify({ time: t, pk: 20 }), { qos: 1 });
    const owner = await waitFor('an instance to keep the test', () =>
      apis.find((api) => api.app.get(CriteriaKeeper).keptResearches.includes(researchId)),
    );
    const [last] = (await owner.dataSource.query(
      `SELECT received_at FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1`,
      [researchId],
    )) as { received_at: Date }[];
    // The owner stops (9 s of silence are still to come): it hands the lease back, the other takes the test.
    apis = apis.filter((api) => api !== owner);
    await owner.close();
    const other = apis[0]!;
    const alarm = await waitFor('the silence alarm raised by the other instance', async () =>
      (await alarmsOf(other, researchId)).find((a) => a.kind === 'silence'),
    );
    expect(other.app.get(CriteriaKeeper).keptResearches).toContain(researchId);
    // Timed from the newest stored frame, not from when the other instance took the test.
    const after = Date.parse(alarm.raised_at) - new Date(last!.received_at).getTime();
    expect(after).toBeGreaterThanOrEqual(9_000 - 100);
    expect(after).toBeLessThan(9_000 + 5_000);
    expect(await alarmsOf(other, researchId)).toHaveLength(1);
  }, 60_000);

  it('are staff only', async () => {
    const created = await apis[0]!.http.post('/api/v1/research').set(auth(staff.token)).send(researchBody());
    expect((await apis[0]!.http.get(`/api/v1/research/${created.body.id}/alarms`)).status).toBe(401);
    const client = await apis[0]!.http
      .post('/api/v1/research/emails')
      .set(auth(staff.token))
      .send({ research_id: created.body.id, email: 'client2@example.com' });
    const viewer = viewerTokenFor(apis[0]!, client.body.id, created.body.id);
    expect((await apis[0]!.http.get(`/api/v1/research/${created.body.id}/alarms`).set(auth(viewer))).status).toBe(403);
    expect(
      (
        await apis[0]!.http
          .post('/api/v1/alarms/00000000-0000-4000-8000-000000000000/acknowledge')
          .set(auth(staff.token))
      ).status,
    ).toBe(404);
  });
});
