import { randomBytes } from 'node:crypto';
import { furnaceTopic, parseBusMessage, researchChannel } from '@furnace/contracts';
import { frame, insertResearch, storedTimes, waitFor, withPg } from '@furnace/testing';
import { ingestFor, metricValue, useTestEnvironment } from './support';

/** A furnace code no other test file uses (they share the broker). */
const uniqueCode = () => `r-${randomBytes(5).toString('hex')}`;

const insertFurnace = (url: string, code: string) =>
  withPg(
    url,
    async (c) =>
      (await c.query<{ id: string }>('INSERT INTO furnace (name, code) VALUES ($1, $1) RETURNING id', [code])).rows[0]!
        .id,
  );

/** A research on the furnace with the window [startAt, endAt). */
async function scheduled(url: string, furnaceId: string, startAt: Date, endAt: Date): Promise<string> {
  const id = await insertResearch(url, { startAt, endAt });
  await withPg(url, (c) => c.query('UPDATE research SET furnace_id = $2 WHERE id = $1', [id, furnaceId]));
  return id;
}

/** The furnace's unassigned readings, oldest first. */
const unassigned = (url: string, furnaceId: string) =>
  withPg(
    url,
    async (c) =>
      (
        await c.query<{ time: Date; daq_time: number; pk: number; thermocouples: (number | null)[] }>(
          'SELECT "time", daq_time, pk, thermocouples FROM furnace_reading WHERE furnace_id = $1 ORDER BY "time"',
          [furnaceId],
        )
      ).rows,
  );

const HOUR = 3600_000;

// A DAQ configured once per furnace publishes on lab/{code}/data; each frame goes to the test scheduled on the
// furnace at the frame's time, and one that no test was scheduled for is kept as the furnace's unassigned reading
// (docs/behaviour.md, "Furnaces").
describe('ingest: a furnace topic, routed by the frame’s time', () => {
  const env = useTestEnvironment();

  it('sends each frame to the test running at its time (pre-ignition frames too) and keeps the rest as unassigned', async () => {
    const code = uniqueCode();
    const furnaceId = await insertFurnace(env.db.url, code);
    const t0 = Date.now() - 4 * HOUR;
    // Back to back: the first ends when the second starts; then nothing is scheduled until an hour ahead.
    const first = await scheduled(env.db.url, furnaceId, new Date(t0), new Date(t0 + HOUR));
    const second = await scheduled(env.db.url, furnaceId, new Date(t0 + HOUR), new Date(t0 + 3 * HOUR));
    const later = await scheduled(env.db.url, furnaceId, new Date(Date.now() + HOUR), new Date(Date.now() + 2 * HOUR));
    const received: number[] = [];
    const unsubscribe = await env.bus.subscribe(researchChannel(second), (message) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') received.push(parsed.value.payload.time);
    });
    const ingest = await ingestFor(env, 'all', { topics: [furnaceTopic(code)] });
    const at = (ms: number) => new Date(ms).toISOString();
    const frames = [
      frame(600, { ts: at(t0 + 600_000) }), // the first test
      frame(-30, { ts: at(t0 + HOUR + 60_000) }), // the second, before its ignition
      frame(0, { ts: at(t0 + HOUR) }), // the second's first instant (the first's window is [start, end))
      frame(90, { ts: at(t0 + HOUR + 150_000) }), // the second
      frame(7, { ts: at(t0 + 3 * HOUR + 60_000) }), // between the second and the later one: unassigned
      frame(8), // no ts: its arrival, now, between them too
    ];
    for (const f of frames) await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(f), { qos: 1 });

    await waitFor('the two unassigned readings', async () => (await unassigned(env.db.url, furnaceId)).length === 2);
    await waitFor('the second test’s frames', async () => (await storedTimes(env.db.url, second)).length === 3);
    expect(await storedTimes(env.db.url, first)).toEqual([600]);
    expect(await storedTimes(env.db.url, second)).toEqual([-30, 0, 90]);
    expect(await storedTimes(env.db.url, later)).toEqual([]);
    const kept = await unassigned(env.db.url, furnaceId);
    expect(kept[0]).toMatchObject({ daq_time: 7, pk: 507, thermocouples: [20.07, 21, null] });
    expect(kept[0]!.time.toISOString()).toBe(at(t0 + 3 * HOUR + 60_000));
    expect(kept[1]!.daq_time).toBe(8);
    expect(Math.abs(kept[1]!.time.getTime() - Date.now())).toBeLessThan(60_000);
    // Live viewers of the test get its frames as from its own topic.
    await waitFor('the second test’s frames on the bus', () => received.length === 3);
    expect(received).toEqual([-30, 0, 90]);
    expect(await metricValue(ingest, 'furnace_ingest_frames_unassigned_total')).toBe(2);
    expect(await metricValue(ingest, 'furnace_ingest_frames_stored_total')).toBe(4);

    // Sent again (a broker redelivery): nothing new.
    await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(frames[4]), { qos: 1 });
    await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(frames[0]), { qos: 1 });
    await waitFor(
      'both counted as copies',
      async () => (await metricValue(ingest, 'furnace_ingest_frames_duplicate_total')) === 2,
    );
    expect((await unassigned(env.db.url, furnaceId)).length).toBe(2);
    expect(await storedTimes(env.db.url, first)).toEqual([600]);
    await unsubscribe();
  });

  it('finds a test created just before its DAQ starts, within a second', async () => {
    const code = uniqueCode();
    const furnaceId = await insertFurnace(env.db.url, code);
    await ingestFor(env, 'all', { topics: [furnaceTopic(code)] });
    await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(frame(-60)), { qos: 1 });
    await waitFor('kept as unassigned', async () => (await unassigned(env.db.url, furnaceId)).length === 1);

    const research = await scheduled(env.db.url, furnaceId, new Date(Date.now() - 1000), new Date(Date.now() + HOUR));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(frame(-59)), { qos: 1 });
    await waitFor('stored under the new test', async () => (await storedTimes(env.db.url, research)).length === 1);
    expect(await storedTimes(env.db.url, research)).toEqual([-59]);
    expect((await unassigned(env.db.url, furnaceId)).map((r) => r.daq_time)).toEqual([-60]);
  });

  it('refuses a frame of a code no furnace has: stored nowhere, kept as a dead letter', async () => {
    const code = uniqueCode();
    const ingest = await ingestFor(env, 'all', { topics: [furnaceTopic(code)] });
    await env.publisher.publishAsync(furnaceTopic(code), JSON.stringify(frame(1)), { qos: 1 });
    await waitFor(
      'refused',
      async () =>
        (await metricValue(ingest, 'furnace_ingest_frames_refused_total', { reason: 'unknown_furnace' })) === 1,
    );
    const letters = await waitFor('the dead letter', () =>
      withPg(env.db.url, async (c) => {
        const rows = (
          await c.query('SELECT reason, detail, research_id FROM reading_dead_letter WHERE topic = $1', [
            furnaceTopic(code),
          ])
        ).rows;
        return rows.length > 0 && rows;
      }),
    );
    expect(letters).toEqual([
      { reason: 'unknown_furnace', detail: `no furnace has the code "${code}"`, research_id: null },
    ]);
    expect(await metricValue(ingest, 'furnace_ingest_frames_unassigned_total')).toBe(0);
    expect(await metricValue(ingest, 'furnace_ingest_frames_stored_total')).toBe(0);
  });
});
