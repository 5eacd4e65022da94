import { daqTopic, parseBusMessage, researchChannel } from '@furnace/contracts';
import { countReadings, frame, insertResearch, storedTimes, waitFor } from '@furnace/testing';
import { ingestFor, metricValue, useTestEnvironment } from './support';
import { hostAndPort, TcpProxy } from './tcp-proxy';

describe('ingest with the database unreachable (a TCP proxy the test cuts)', () => {
  const env = useTestEnvironment();

  async function setUp(maxBufferedFrames?: number) {
    const proxy = await new TcpProxy(...hostAndPort(env.db.url)).start();
    // Registered before the ingest's own cleanup, so it runs after it (cleanups run in reverse).
    env.cleanups.push(() => proxy.stop());
    const researchId = await insertResearch(env.db.url);
    const options = { retryMinMs: 50, retryMaxMs: 200, ...(maxBufferedFrames ? { maxBufferedFrames } : {}) };
    const ingest = await ingestFor(env, [researchId], options, proxy.rewrite(env.db.url));
    const live: number[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(researchId), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') live.push(parsed.value.payload.time);
    });
    env.cleanups.push(async () => {
      await unsubscribe();
      // The ingest writes what it holds before it stops.
      proxy.restore();
    });
    const publish = async (from: number, to: number) => {
      for (let t = from; t < to; t++)
        await env.publisher.publishAsync(daqTopic(researchId), JSON.stringify(frame(t)), { qos: 1 });
    };
    return { proxy, researchId, ingest, live, publish };
  }

  it('keeps frames flowing to viewers, holds them, and stores every one when the database returns', async () => {
    const { proxy, researchId, ingest, live, publish } = await setUp();
    await publish(0, 20);
    await waitFor('20 frames stored', async () => (await countReadings(env.db.url, researchId)) === 20);

    proxy.cut();
    await publish(20, 50);
    await waitFor('the frames published during the outage reach viewers', () => live.length === 50);
    expect(await metricValue(ingest, 'furnace_ingest_database_up')).toBe(0);
    expect(ingest.service.buffered).toBe(30);
    expect(await countReadings(env.db.url, researchId)).toBe(20);

    proxy.restore();
    await waitFor('the buffered frames stored', async () => (await countReadings(env.db.url, researchId)) === 50);
    await waitFor(
      'the ingest back to normal',
      async () => (await metricValue(ingest, 'furnace_ingest_database_up')) === 1,
    );
    await publish(50, 60);
    await waitFor('frames after the outage stored', async () => (await countReadings(env.db.url, researchId)) === 60);

    const times = await storedTimes(env.db.url, researchId);
    const lost = 60 - times.length;
    console.log(
      `database outage: 30 frames during the outage, ${live.length} delivered live, ${times.length} of 60 stored, lost ${lost}`,
    );
    expect(times).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // Published once each: at receipt during the outage, not again when finally written.
    await waitFor('the last frames on the bus', () => live.length === 60);
    expect(live).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(await metricValue(ingest, 'furnace_ingest_frames_dropped_total')).toBe(0);
  });

  it('past the buffer bound drops the oldest frames, counts them, and stores the rest', async () => {
    const { proxy, researchId, ingest, live, publish } = await setUp(10);
    await publish(0, 5);
    await waitFor('5 frames stored', async () => (await countReadings(env.db.url, researchId)) === 5);
    proxy.cut();
    await publish(5, 30);
    await waitFor('all 30 frames delivered live', () => live.length === 30);
    expect(await metricValue(ingest, 'furnace_ingest_frames_dropped_total')).toBe(15);
    proxy.restore();
    await waitFor('the 10 buffered frames stored', async () => (await countReadings(env.db.url, researchId)) === 15);
    console.log('database outage past the bound of 10 frames: 25 during the outage, 15 dropped (counted), 10 stored');
    // The newest frames are kept.
    expect(await storedTimes(env.db.url, researchId)).toEqual([0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
  });
});
