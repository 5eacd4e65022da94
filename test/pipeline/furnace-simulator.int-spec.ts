// The simulator as a furnace's DAQ (`npm run simulate -- --furnace CODE`): it publishes to lab/{code}/data, each
// frame stamped when sent, and the ingest gives the frames to the test scheduled on the furnace now
// (docs/behaviour.md §15.1).
import { randomBytes } from 'node:crypto';
import { furnaceTopic } from '@furnace/contracts';
import { insertResearch, storedTimes, waitFor, withPg } from '@furnace/testing';
import { startSimulator } from '@furnace/simulator';
import { ingestFor, useTestEnvironment } from '@furnace/ingest/testing';

describe('the simulator on a furnace’s topic', () => {
  const env = useTestEnvironment();

  it('publishes to lab/{code}/data, and its frames land in the test scheduled on the furnace now', async () => {
    const code = `sim-${randomBytes(4).toString('hex')}`;
    const researchId = await insertResearch(env.db.url, {
      startAt: new Date(Date.now() - 60_000),
      endAt: new Date(Date.now() + 3600_000),
    });
    await withPg(env.db.url, async (c) => {
      const furnace = await c.query<{ id: string }>('INSERT INTO furnace (name, code) VALUES ($1, $1) RETURNING id', [
        code,
      ]);
      await c.query('UPDATE research SET furnace_id = $2 WHERE id = $1', [researchId, furnace.rows[0]!.id]);
    });
    await ingestFor(env, 'all', { topics: [furnaceTopic(code)] });

    const simulator = startSimulator({ url: env.broker.url, furnaceCode: code, channels: 4, speed: 10, duration: 9 });
    await simulator.done;
    await simulator.stop();
    await waitFor('ten frames stored', async () => (await storedTimes(env.db.url, researchId)).length === 10);
    expect(await storedTimes(env.db.url, researchId)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [row] = await withPg(
      env.db.url,
      async (c) =>
        (await c.query('SELECT daq_ts FROM reading WHERE research_id = $1 AND "time" = 9', [researchId])).rows,
    );
    // Stamped when sent (not at ignition + 9 s of a simulation ten times faster than the clock).
    expect(Math.abs((row.daq_ts as Date).getTime() - Date.now())).toBeLessThan(30_000);
  });
});
