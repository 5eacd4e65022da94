import { daqTopic } from '@furnace/contracts';
import { frame, insertResearch, storedTimes, waitFor, withPg } from '@furnace/testing';
import { ingestFor, metricValue, useTestEnvironment } from './support';

/** The dead letters of a research, oldest first. */
const deadLetters = (url: string, researchId: string) =>
  withPg(
    url,
    async (c) =>
      (
        await c.query('SELECT reason, detail, payload FROM reading_dead_letter WHERE research_id = $1 ORDER BY id', [
          researchId,
        ])
      ).rows as { reason: string; detail: string; payload: Buffer }[],
  );

const setApproved = (url: string, researchId: string, revision: number | null) =>
  withPg(url, (c) => c.query('UPDATE research SET approved_revision = $2 WHERE id = $1', [researchId, revision]));

// An approved test's readings are frozen (docs/behaviour.md, "The permanent record"): the ingest stores none of
// its frames, refusing each like a frame of no research, to the dead letters, and goes on with the others.
describe('ingest: the frames of an approved test', () => {
  const env = useTestEnvironment();

  it("refuses them to the dead letters, stores the other tests' frames, and stores them again once the test is reopened", async () => {
    const approved = await insertResearch(env.db.url);
    const other = await insertResearch(env.db.url);
    const ingest = await ingestFor(env, [approved, other]);
    await env.publisher.publishAsync(daqTopic(approved), JSON.stringify(frame(1)), { qos: 1 });
    await waitFor('the first frame stored', async () => (await storedTimes(env.db.url, approved)).length === 1);

    await setApproved(env.db.url, approved, 1);
    for (const time of [2, 3]) {
      await env.publisher.publishAsync(daqTopic(approved), JSON.stringify(frame(time)), { qos: 1 });
      await env.publisher.publishAsync(daqTopic(other), JSON.stringify(frame(time)), { qos: 1 });
    }
    await waitFor(
      'both refused',
      async () =>
        (await metricValue(ingest, 'furnace_ingest_frames_refused_total', { reason: 'research_approved' })) === 2,
    );
    await waitFor('the other test stored', async () => (await storedTimes(env.db.url, other)).length === 2);
    expect(await storedTimes(env.db.url, approved)).toEqual([1]);
    await waitFor('the dead letters written', async () => (await deadLetters(env.db.url, approved)).length === 2);
    const letters = await deadLetters(env.db.url, approved);
    expect(letters.map((l) => l.reason)).toEqual(['research_approved', 'research_approved']);
    expect(letters[0]!.detail).toBe(
      `research ${approved} is approved (revision 1): its readings are frozen until a superuser reopens it`,
    );
    expect(JSON.parse(letters[1]!.payload.toString())).toMatchObject({ time: 3 });

    await setApproved(env.db.url, approved, null);
    await env.publisher.publishAsync(daqTopic(approved), JSON.stringify(frame(4)), { qos: 1 });
    await waitFor('stored after the reopening', async () => (await storedTimes(env.db.url, approved)).length === 2);
    expect(await storedTimes(env.db.url, approved)).toEqual([1, 4]);
    expect(await metricValue(ingest, 'furnace_ingest_database_up')).toBe(1);
  });

  it('waits for an approval in progress and then refuses the frame: none lands after the approval its hash covers', async () => {
    const researchId = await insertResearch(env.db.url);
    const ingest = await ingestFor(env, [researchId]);
    await withPg(env.db.url, async (c) => {
      // An approval as ReviewService makes it: the research's row locked, then approved_revision set.
      await c.query('BEGIN');
      await c.query('SELECT id FROM research WHERE id = $1 FOR UPDATE', [researchId]);
      await env.publisher.publishAsync(daqTopic(researchId), JSON.stringify(frame(7)), { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await metricValue(ingest, 'furnace_ingest_frames_stored_total')).toBe(0);
      await c.query('UPDATE research SET approved_revision = 1 WHERE id = $1', [researchId]);
      await c.query('COMMIT');
    });
    await waitFor(
      'refused',
      async () =>
        (await metricValue(ingest, 'furnace_ingest_frames_refused_total', { reason: 'research_approved' })) === 1,
    );
    expect(await storedTimes(env.db.url, researchId)).toEqual([]);
  });
});
