import type { MqttClient } from 'mqtt';
import { type Bus, InProcessBus } from '@furnace/bus';
import { daqTopic } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  connectPublisher,
  connectViewer,
  dropSession,
  insertResearch,
  login,
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
import { createFrameGenerator } from '@furnace/simulator';
import { ingestConfig, startTestIngest } from '@furnace/ingest/testing';
import { startTestApi, type TestApi } from '@furnace/api-server/testing';

/*
 * The whole live path with real pieces: an MQTT client publishes (Mosquitto, or an embedded aedes),
 * the ingest stores and publishes on the bus (Redis, or one in-process bus shared by everything in
 * this process), two API instances each fan out to their own viewers.
 */
describe('live pipeline: MQTT → ingest → bus → two API instances → viewers', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let sharedBus: Bus | undefined;
  let ingestBus: Bus;
  let apis: TestApi[] = [];
  let ingest: RunningIngest;
  let publisher: MqttClient;
  let staff: string;
  let researchId: string;
  let clientId: string;
  const viewers: TestViewer[] = [];

  beforeAll(async () => {
    [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
    // Without Redis the instances share one in-process bus, as they would share one Redis.
    sharedBus = TEST_REDIS_URL ? undefined : new InProcessBus();
    apis = [await startTestApi({}, { db, bus: sharedBus }), await startTestApi({}, { db, bus: sharedBus })];
    ingestBus = sharedBus ?? (await testBus());
    staff = await login(apis[0]!, SUPERUSER.email, SUPERUSER.password);
    researchId = await insertResearch(apis[0]!.db.url);
    const config = ingestConfig(db.url, broker);
    clientId = config.mqttClientId;
    ingest = await startTestIngest(config, ingestBus, [researchId]);
    publisher = await connectPublisher(broker.url);
  });
  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await publisher?.endAsync();
    await ingest?.stop();
    if (clientId) await dropSession(broker.url, clientId).catch(() => undefined);
    for (const api of apis) await api.close();
    if (!sharedBus) await ingestBus?.close();
    await sharedBus?.close();
    await broker?.stop();
    await db?.drop();
  });

  it('delivers a frame published by an MQTT client to the viewers of both instances, once each, and stores it once', async () => {
    const [onFirst, onSecond] = [
      await connectViewer(streamUrl(apis[0]!, researchId, { token: staff })),
      await connectViewer(streamUrl(apis[1]!, researchId, { token: staff })),
    ];
    viewers.push(onFirst, onSecond);
    const times = Array.from({ length: 20 }, (_, i) => i);
    for (const t of times)
      await publisher.publishAsync(daqTopic(researchId), JSON.stringify({ time: t, pk: 100 + t }), { qos: 1 });
    await waitFor('20 frames on both instances', () => onFirst.times.length >= 20 && onSecond.times.length >= 20);
    expect(onFirst.times).toEqual(times);
    expect(onSecond.times).toEqual(times);
    const rows: { n: string }[] = await apis[1]!.dataSource.query(
      'SELECT count(*) AS n FROM reading WHERE research_id = $1',
      [researchId],
    );
    expect(Number(rows[0]!.n)).toBe(20);
  });

  it('measures MQTT publish → WebSocket receive latency with 100 viewers (50 per instance)', async () => {
    const crowd: TestViewer[] = [];
    for (let i = 0; i < 100; i++)
      crowd.push(await connectViewer(streamUrl(apis[i % 2]!, researchId, { token: staff }), { timesOnly: true }));
    viewers.push(...crowd);

    // 60 channels as the simulator makes them, 20 frames a second, times after the first test's.
    const generate = createFrameGenerator({ channels: 60, seed: 1 });
    const frames = 100;
    const sentAt = new Map<number, number>();
    for (let i = 0; i < frames; i++) {
      const payload = generate(100 + i);
      sentAt.set(payload.time, performance.now());
      await publisher.publishAsync(daqTopic(researchId), JSON.stringify(payload), { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor('every viewer received every frame', () => crowd.every((v) => v.times.length >= frames), 60_000);

    const latencies: number[] = [];
    for (const viewer of crowd) {
      expect(viewer.times).toEqual([...sentAt.keys()]);
      for (const [time, at] of viewer.arrivals) latencies.push(at - sentAt.get(time)!);
    }
    latencies.sort((a, b) => a - b);
    // The ingest's part (receipt → bus publish: waiting for the batch, then the write), to read the total against.
    const delay = (await ingest.metrics.publishDelay.get()).values;
    const sum = delay.find((v) => v.metricName === 'furnace_ingest_publish_delay_seconds_sum')!.value;
    const count = delay.find((v) => v.metricName === 'furnace_ingest_publish_delay_seconds_count')!.value;
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1);
    console.log(
      `MQTT publish → WebSocket receive, 100 viewers on 2 API instances, ${frames} frames of 60 channels at 20/s (${latencies.length} deliveries, ` +
        `bus ${TEST_REDIS_URL ? 'Redis' : 'in-process'}, broker ${broker.shared ? 'Mosquitto' : 'aedes'}): ` +
        `p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies[latencies.length - 1]!.toFixed(1)} ms; ` +
        `of which in the ingest (batch wait + write, mean): ${((sum / count) * 1000).toFixed(1)} ms`,
    );
  });
});
