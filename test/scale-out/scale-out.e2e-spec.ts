import type { MqttClient } from 'mqtt';
import request from 'supertest';
import { createFrameSource, daqTopic, type DaqPayload, insertionIndex } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  apiEnv,
  type AppProcess,
  connectPublisher,
  connectViewer,
  dropSession,
  ingestEnv,
  insertResearch,
  login,
  missingBuild,
  startApp,
  storedTimes,
  streamUrl,
  SUPERUSER,
  TEST_MQTT_URL,
  TEST_REDIS_URL,
  type TestViewer,
  uniqueId,
  waitFor,
} from '@furnace/testing';
import { createFrameGenerator } from '@furnace/simulator';

/*
 * The distributed deployment without Docker: two API processes and two ingest processes, built as
 * they ship (apps/*\/dist/main.js), sharing the machine's PostgreSQL, Redis and Mosquitto. The two
 * ingests split the DAQ topic through a shared subscription; each API instance feeds its own
 * viewers from Redis. A real MQTT client publishes as a DAQ does.
 */

// Separate processes meet only through real servers: an in-process bus or an embedded broker
// cannot be shared between them. With nothing configured (a fresh machine) this file is skipped.
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const skipReason =
  TEST_DATABASE_URL && TEST_REDIS_URL && TEST_MQTT_URL
    ? null
    : 'needs TEST_DATABASE_URL, TEST_REDIS_URL and TEST_MQTT_URL: separate API and ingest processes meet only through a real PostgreSQL, Redis and MQTT broker';
const describeIfServices = skipReason ? describe.skip : describe;

/** A DAQ's cadence: 10 frames a second, 60 channels, as the simulator makes them. */
const FRAMES = 150;
const INTERVAL_MS = 100;
const VIEWERS_PER_API = 10;

/**
 * What the dashboard draws of what a viewer received: the frames pushed, in arrival order, into
 * the browser's live store (the frame source, ordering by time); each frame it passes on placed
 * in a curve by time as the curves' store does.
 */
async function drawn(frames: readonly DaqPayload[]): Promise<{ curve: number[]; newest: number[] }> {
  const source = createFrameSource();
  const curve: [number][] = [];
  source.subscribeAll((frame) => curve.splice(insertionIndex(curve, frame.time), 0, [frame.time]));
  const newest: number[] = [];
  source.subscribe((frame) => newest.push(frame.time));
  for (const frame of frames) source.push(frame);
  return { curve: curve.map((p) => p[0]), newest };
}

/** The value of a counter in an ingest's /metrics (Prometheus text). */
async function counter(ingest: AppProcess, name: string): Promise<number> {
  const text = await (await fetch(`${ingest.url}/metrics`)).text();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

describeIfServices(
  `scale-out: 2 API processes + 2 ingest processes on PostgreSQL, Redis and Mosquitto${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let db: TestDatabase;
    let researchId: string;
    const apis: AppProcess[] = [];
    const ingests: AppProcess[] = [];
    const clientIds = [uniqueId('scale-out-ingest-1'), uniqueId('scale-out-ingest-2')];
    const viewers: TestViewer[] = [];
    let publisher: MqttClient | undefined;

    beforeAll(async () => {
      const missing = missingBuild(['api', 'ingest']);
      if (missing) throw new Error(missing);
      db = await createTestDatabase();
      researchId = await insertResearch(db.url);
      const services = { databaseUrl: db.url, redisUrl: TEST_REDIS_URL!, mqttUrl: TEST_MQTT_URL! };
      // A group of this run's own: other runs and deployments on the same broker keep their frames.
      const group = uniqueId('scale-out');
      const started = await Promise.allSettled([
        startApp('api', apiEnv(services, SUPERUSER)),
        startApp('api', apiEnv(services, SUPERUSER)),
        ...clientIds.map((id) => startApp('ingest', ingestEnv(services, id, group))),
      ]);
      for (const s of started) if (s.status === 'fulfilled') (s.value.app === 'api' ? apis : ingests).push(s.value);
      const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      if (failed) throw failed.reason;
    }, 120_000);

    afterAll(async () => {
      for (const viewer of viewers) await viewer.close();
      await publisher?.endAsync();
      await Promise.all([...ingests, ...apis].map((p) => p.stop()));
      // The machine's Mosquitto keeps persistent sessions (and queues for them) until told otherwise.
      for (const id of clientIds) await dropSession(TEST_MQTT_URL!, id).catch(() => undefined);
      await db?.drop();
    }, 60_000);

    it('delivers every frame to every viewer on both instances once, draws the curves in time order, and stores it once', async () => {
      const token = await login({ http: request(apis[0]!.url) }, SUPERUSER.email, SUPERUSER.password);
      for (const api of apis) {
        for (let i = 0; i < VIEWERS_PER_API; i++)
          viewers.push(await connectViewer(streamUrl(api, researchId, { token })));
      }

      publisher = await connectPublisher(TEST_MQTT_URL!);
      const generate = createFrameGenerator({ channels: 60, seed: 7 });
      /** What was published, as it reads back from JSON (-0 becomes 0). */
      const sent: DaqPayload[] = [];
      const started = performance.now();
      for (let i = 0; i < FRAMES; i++) {
        // Scheduled against the clock, as a DAQ samples: a slow publish does not stretch the cadence.
        const wait = started + i * INTERVAL_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const json = JSON.stringify(generate(i * (INTERVAL_MS / 1000)));
        sent.push(JSON.parse(json) as DaqPayload);
        await publisher.publishAsync(daqTopic(researchId), json, { qos: 1 });
      }
      const times = sent.map((p) => p.time);

      await waitFor('every viewer has every frame', () => viewers.every((v) => v.times.length >= FRAMES), 30_000).catch(
        () => undefined,
      );
      // The API forwards each frame as it arrives: the two ingests' frames may cross on the wire,
      // and the dashboard's store puts them in time order.
      const byTime = (a: DaqPayload, b: DaqPayload) => a.time - b.time;
      let crossed = 0;
      for (const viewer of viewers) {
        const received = viewer.messages.flatMap((m) => (m.event === 'DATA' ? [m.data] : []));
        expect(received).toHaveLength(FRAMES);
        expect([...received].sort(byTime)).toEqual(sent);
        const { curve, newest } = await drawn(received);
        expect(curve).toEqual(times);
        // The overlay and side panel show the newest frame by time: they never step back.
        expect(newest).toEqual([...newest].sort((a, b) => a - b));
        expect(newest.at(-1)).toBe(times.at(-1));
        crossed += received.filter((f, i) => i > 0 && f.time < received[i - 1]!.time).length;
      }
      console.log(
        `scale-out: ${viewers.length} viewers, ${crossed} frames received after a newer one (placed by time in the curves)`,
      );

      expect(await storedTimes(db.url, researchId)).toEqual(times);
      // Both ingests took part (the broker shares the topic between them), and together stored each frame once.
      const stored = await Promise.all(ingests.map((ingest) => counter(ingest, 'furnace_ingest_frames_stored_total')));
      expect(stored.every((n) => n > 0)).toBe(true);
      expect(stored.reduce((a, b) => a + b, 0)).toBe(FRAMES);
      const duplicates = await Promise.all(
        ingests.map((ingest) => counter(ingest, 'furnace_ingest_frames_duplicate_total')),
      );
      expect(duplicates).toEqual([0, 0]);
    }, 120_000);
  },
);
