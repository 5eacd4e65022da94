import { randomUUID } from 'node:crypto';
import { daqTopic, parseBusMessage, researchChannel } from '@furnace/contracts';
import { countReadings, frame, insertResearch, storedTimes, uniqueId, waitFor, withPg } from '@furnace/testing';
import type { RunningIngest } from '../src/ingest';
import { ingestFor, metricValue, useTestEnvironment } from './support';

describe('ingest: MQTT → readings → bus', () => {
  const env = useTestEnvironment();

  it('stores every frame once, with its values, and publishes each on the research channel in order', async () => {
    const researchId = await insertResearch(env.db.url, { startAt: new Date('2030-01-01T10:00:00Z') });
    const received: number[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(researchId), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') received.push(parsed.value.payload.time);
    });
    const ingest = await ingestFor(env, [researchId]);

    const times = Array.from({ length: 50 }, (_, i) => i * 0.5);
    for (const time of times) {
      await env.publisher.publishAsync(
        daqTopic(researchId),
        JSON.stringify(frame(time, { ts: '2030-01-01T10:00:05.000Z' })),
        { qos: 1 },
      );
    }
    await waitFor('50 frames on the bus', () => received.length >= 50);
    expect(received).toEqual(times);
    expect(await storedTimes(env.db.url, researchId)).toEqual(times);

    const row = await withPg(
      env.db.url,
      async (c) =>
        (await c.query('SELECT * FROM reading WHERE research_id = $1 AND "time" = 10', [researchId])).rows[0],
    );
    expect(row).toMatchObject({ radiance: 1.5, pressure: 16.2, pk: 510, thermocouples: [20.1, 21, null] });
    // ts is the research's start plus the frame's time; the DAQ's own clock is kept beside it.
    expect(row.ts.toISOString()).toBe('2030-01-01T10:00:10.000Z');
    expect(row.daq_ts.toISOString()).toBe('2030-01-01T10:00:05.000Z');
    expect(await metricValue(ingest, 'furnace_ingest_frames_stored_total')).toBe(50);
    await unsubscribe();
  });

  it('ignores a redelivered or repeated frame: one row, one bus message', async () => {
    const researchId = await insertResearch(env.db.url);
    const received: number[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(researchId), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') received.push(parsed.value.payload.time);
    });
    const ingest = await ingestFor(env, [researchId]);
    for (const time of [1, 1, 2, 1, 2, 3]) {
      await env.publisher.publishAsync(daqTopic(researchId), JSON.stringify(frame(time)), { qos: 1 });
    }
    await waitFor(
      'three distinct frames stored and the copies counted',
      async () => (await metricValue(ingest, 'furnace_ingest_frames_duplicate_total')) === 3,
    );
    expect(await storedTimes(env.db.url, researchId)).toEqual([1, 2, 3]);
    expect(received).toEqual([1, 2, 3]);
    await unsubscribe();
  });

  it('refuses a frame for an unknown research, keeps it as a dead letter, and stores frames outside the time window', async () => {
    const ended = await insertResearch(env.db.url, {
      startAt: new Date(Date.now() - 7200_000),
      endAt: new Date(Date.now() - 3600_000),
    });
    const unknown = randomUUID();
    const ingest = await ingestFor(env, [ended, unknown]);
    await env.publisher.publishAsync(daqTopic(unknown), JSON.stringify(frame(1)), { qos: 1 });
    await env.publisher.publishAsync(daqTopic(ended), JSON.stringify(frame(1)), { qos: 1 });
    await waitFor('the late frame stored', async () => (await countReadings(env.db.url, ended)) === 1);
    await waitFor(
      'the unknown research refused',
      async () =>
        (await metricValue(ingest, 'furnace_ingest_frames_refused_total', { reason: 'unknown_research' })) === 1,
    );
    expect(await metricValue(ingest, 'furnace_ingest_frames_outside_window_total')).toBe(1);
    await waitFor('the dead letter written', async () =>
      withPg(
        env.db.url,
        async (c) =>
          (await c.query('SELECT 1 FROM reading_dead_letter WHERE research_id = $1', [unknown])).rowCount === 1,
      ),
    );
    const letter = await withPg(
      env.db.url,
      async (c) => (await c.query('SELECT * FROM reading_dead_letter WHERE research_id = $1', [unknown])).rows[0],
    );
    expect(letter).toMatchObject({ reason: 'unknown_research', topic: daqTopic(unknown) });
    expect(JSON.parse(letter.payload.toString())).toEqual(frame(1));
  });

  it('two ingest instances (one shared-subscription group on Mosquitto) store and publish every frame once', async () => {
    const researchId = await insertResearch(env.db.url);
    const received: number[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(researchId), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') received.push(parsed.value.payload.time);
    });
    const group = uniqueId('group');
    const instances: RunningIngest[] = [];
    for (let i = 0; i < 2; i++) instances.push(await ingestFor(env, [researchId], { sharedGroup: group }));
    const times = Array.from({ length: 200 }, (_, i) => i);
    await Promise.all(
      times.map((t) => env.publisher.publishAsync(daqTopic(researchId), JSON.stringify(frame(t)), { qos: 1 })),
    );
    await waitFor('200 frames stored', async () => (await countReadings(env.db.url, researchId)) === 200);
    await waitFor('200 frames on the bus', () => received.length >= 200);
    const share = await Promise.all(
      instances.map((ingest) => metricValue(ingest, 'furnace_ingest_frames_received_total')),
    );
    // Mosquitto splits the messages between the group's members; aedes (no shared subscriptions) gives each all of them.
    console.log(`two ingest instances received ${share.join(' + ')} messages for 200 frames`);
    expect(share.every((n) => n > 0)).toBe(true);
    expect(share[0]! + share[1]!).toBe(env.broker.shared ? 200 : 400);
    expect([...received].sort((a, b) => a - b)).toEqual(times);
    expect(await storedTimes(env.db.url, researchId)).toEqual(times);
    await unsubscribe();
  });

  it('deleting a research deletes its readings', async () => {
    const researchId = await insertResearch(env.db.url);
    await ingestFor(env, [researchId]);
    await env.publisher.publishAsync(daqTopic(researchId), JSON.stringify(frame(1)), { qos: 1 });
    await waitFor('the frame stored', async () => (await countReadings(env.db.url, researchId)) === 1);
    await withPg(env.db.url, (c) => c.query('DELETE FROM research WHERE id = $1', [researchId]));
    expect(await countReadings(env.db.url, researchId)).toBe(0);
  });
});
