import type { ChildProcess } from 'node:child_process';
import type { MqttClient } from 'mqtt';
import { type Bus, createBus } from '@furnace/bus';
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
  type TestBroker,
  type TestViewer,
  waitFor,
  freePort,
  killProcess as kill,
  redisServerInstalled,
  startRedisServer as startRedis,
} from '@furnace/testing';
import type { RunningIngest } from '@furnace/ingest';
import { ingestConfig, metricValue, startTestIngest } from '@furnace/ingest/testing';
import { startTestApi, type TestApi } from '@furnace/api-server/testing';

// Skipped, not failed, where redis-server is not installed: the test needs a Redis it may kill.
const itWithRedis = redisServerInstalled ? it : it.skip;

describe('live stream across a Redis restart', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let redis: ChildProcess | undefined;
  let api: TestApi | undefined;
  let ingestBus: Bus | undefined;
  let ingest: RunningIngest | undefined;
  let publisher: MqttClient | undefined;
  let viewer: TestViewer | undefined;
  let clientId = '';

  afterAll(async () => {
    await viewer?.close();
    await publisher?.endAsync();
    await ingest?.stop();
    if (clientId) await dropSession(broker.url, clientId).catch(() => undefined);
    await ingestBus?.close();
    await api?.close();
    await kill(redis);
    await broker?.stop();
    await db?.drop();
  });

  if (!redisServerInstalled)
    console.warn('live-redis-restart: redis-server is not installed, the Redis restart test is skipped');

  itWithRedis(
    'a viewer connected across a bus server restart receives every frame, those of the outage read back from the database',
    async () => {
      const port = await freePort();
      const url = `redis://127.0.0.1:${port}`;
      redis = await startRedis(port);
      [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
      api = await startTestApi({ REDIS_URL: url }, { db });
      ingestBus = await createBus(url);
      const researchId = await insertResearch(api.db.url);
      const config = ingestConfig(db.url, broker, { REDIS_URL: url });
      clientId = config.mqttClientId;
      ingest = await startTestIngest(config, ingestBus, [researchId]);
      publisher = await connectPublisher(broker.url);
      viewer = await connectViewer(
        streamUrl(api, researchId, { token: await login(api, SUPERUSER.email, SUPERUSER.password) }),
      );
      let next = 0;
      const publish = () =>
        publisher!.publishAsync(daqTopic(researchId), JSON.stringify({ time: next++, pk: 500 }), { qos: 1 });

      for (let i = 0; i < 10; i++) await publish();
      await waitFor('10 frames live before the restart', () => viewer!.times.length === 10);

      await kill(redis);
      const outageStart = next;
      for (let i = 0; i < 10; i++) await publish();
      await waitFor(
        'the outage frames stored',
        async () => (await metricValue(ingest!, 'furnace_ingest_frames_stored_total')) === 20,
      );
      // Long enough that the bus client gives the queued publishes up: those frames never cross the bus.
      await waitFor(
        'the outage frames not published',
        async () => (await metricValue(ingest!, 'furnace_ingest_bus_publish_failed_total')) === 10,
        20_000,
      );
      const outageEnd = next;
      redis = await startRedis(port);

      // Frames keep coming once a second of test time; the viewer must see new ones again.
      const resumeFrom = next;
      while (!viewer.times.some((t) => t >= resumeFrom)) {
        await publish();
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (next > resumeFrom + 600) throw new Error('the viewer never received a frame after the restart');
      }
      for (let i = 0; i < 5; i++) await publish();
      const last = next - 1;
      await waitFor('the last frame live', () => viewer!.times.includes(last));

      const outage = Array.from({ length: outageEnd - outageStart }, (_, i) => outageStart + i);
      await waitFor('the outage frames sent once the bus is back', () =>
        outage.every((t) => viewer!.times.includes(t)),
      );
      const rows: { n: string }[] = await api.dataSource.query(
        'SELECT count(*) AS n FROM reading WHERE research_id = $1',
        [researchId],
      );
      console.log(
        `Redis restart: ${outage.length} frames published while Redis was down, all sent once it was back; ` +
          `live again after ${viewer.times.find((t) => t >= resumeFrom)! - resumeFrom + 1} frames; ${rows[0]!.n} of ${next} stored`,
      );
      expect(Number(rows[0]!.n)).toBe(next);
      // No hole and nothing twice: every frame published reached the viewer once (the dashboard orders them by time).
      expect([...viewer.times].sort((a, b) => a - b)).toEqual(Array.from({ length: next }, (_, i) => i));
    },
  );
});
