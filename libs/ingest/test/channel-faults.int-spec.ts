import { daqTopic, parseBusMessage, researchChannel, type DaqPayload } from '@furnace/contracts';
import { countReadings, insertResearch, storedTimes, waitFor, withPg } from '@furnace/testing';
import { ingestFor, metricValue, useTestEnvironment } from './support';

describe('ingest: a broken thermocouple and frames before ignition', () => {
  const env = useTestEnvironment();

  it('keeps pk, pressure and the other channels of a frame with one over-range channel: only that channel is null, flagged in faults', async () => {
    const researchId = await insertResearch(env.db.url);
    const onBus: DaqPayload[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(researchId), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') onBus.push(parsed.value.payload);
    });
    const ingest = await ingestFor(env, [researchId]);
    const faultsBefore = await metricValue(ingest, 'furnace_ingest_channel_faults_total');
    const publish = (payload: object | string) =>
      env.publisher.publishAsync(
        daqTopic(researchId),
        typeof payload === 'string' ? payload : JSON.stringify(payload),
        { qos: 1 },
      );

    const before = Date.now();
    await publish({ time: 2580, pk: 918.4, pressure: 17.2, radiance: 3.1, thermocouples_out: [151.2, 3276.7, 149.8] });
    await publish({ time: 2581, pk: 918.6, pressure: 17.1, thermocouples_out: [151.4, 3276.7, 150.1] });
    await publish('{"time":2582,"pk":"hot"}'); // malformed: still dead-lettered
    await waitFor('two frames stored', async () => (await countReadings(env.db.url, researchId)) === 2);
    await waitFor(
      'the malformed frame refused',
      async () =>
        (await metricValue(ingest, 'furnace_ingest_frames_refused_total', { reason: 'invalid_payload' })) >= 1,
    );

    const rows = await withPg(
      env.db.url,
      async (c) =>
        (
          await c.query(
            'SELECT "time", pk, pressure, radiance, thermocouples, faults, received_at FROM reading WHERE research_id = $1 ORDER BY "time"',
            [researchId],
          )
        ).rows,
    );
    expect(rows.map(({ received_at: _r, ...row }) => row)).toEqual([
      { time: 2580, pk: 918.4, pressure: 17.2, radiance: 3.1, thermocouples: [151.2, null, 149.8], faults: [2] },
      { time: 2581, pk: 918.6, pressure: 17.1, radiance: null, thermocouples: [151.4, null, 150.1], faults: [2] },
    ]);
    for (const row of rows) expect(row.received_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    await waitFor('both frames on the bus', () => onBus.length === 2);
    expect(onBus[0]).toEqual({
      time: 2580,
      pk: 918.4,
      pressure: 17.2,
      radiance: 3.1,
      thermocouples_out: [151.2, null, 149.8],
      faults: [2],
    });
    expect(await metricValue(ingest, 'furnace_ingest_channel_faults_total')).toBe(faultsBefore + 2);
    await waitFor('the dead letter written', async () =>
      withPg(
        env.db.url,
        async (c) =>
          (await c.query('SELECT 1 FROM reading_dead_letter WHERE research_id = $1', [researchId])).rowCount === 1,
      ),
    );
    await unsubscribe();
  });

  it('stores frames from an hour before ignition (negative time), without faults when none', async () => {
    const researchId = await insertResearch(env.db.url);
    await ingestFor(env, [researchId]);
    for (const time of [-3600, -60, -0.5, 0]) {
      await env.publisher.publishAsync(
        daqTopic(researchId),
        JSON.stringify({ time, thermocouples_out: [20.2, 20.4] }),
        { qos: 1 },
      );
    }
    await waitFor('four frames stored', async () => (await countReadings(env.db.url, researchId)) === 4);
    expect(await storedTimes(env.db.url, researchId)).toEqual([-3600, -60, -0.5, 0]);
    const faults = await withPg(
      env.db.url,
      async (c) => (await c.query('SELECT faults FROM reading WHERE research_id = $1', [researchId])).rows,
    );
    expect(faults.every((r) => r.faults === null)).toBe(true);
  });
});
