import { readIgnitionAt } from '../src/history/ignition';
import { createResearch } from './factories';
import { signUpUser, startTestApi, type TestApi } from './harness';

/**
 * The wall-clock time of ignition from the frames' own stamps (docs/behaviour.md, the history's time of
 * day): the first frame at or after ignition that has one, else the latest before it, else none.
 */
describe('ignition time from the frames', () => {
  let api: TestApi;
  let staff: string;

  beforeAll(async () => {
    api = await startTestApi();
    staff = (await signUpUser(api)).token;
  });
  afterAll(() => api?.close());

  /** A frame stored with the given stamps (null: none, as rows kept before receipt times were). */
  const frame = (researchId: string, time: number, daqTs: string | null, receivedAt: string | null) =>
    api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, daq_ts, received_at, pk) SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', $3, $4, 20 FROM research r WHERE r.id = $1`,
      [researchId, time, daqTs, receivedAt],
    );
  const ignition = async (researchId: string) =>
    (await readIgnitionAt(api.dataSource, researchId))?.toISOString() ?? null;

  it("takes the first frame at or after ignition: the DAQ's clock before the receipt time", async () => {
    const { id } = await createResearch(api, staff);
    await frame(id, -10, '2026-03-01T08:06:40Z', null);
    await frame(id, 0, '2026-03-01T08:07:00Z', '2026-03-01T08:07:02Z');
    await frame(id, 10, '2026-03-01T08:07:11Z', null);
    expect(await ignition(id)).toBe('2026-03-01T08:07:00.000Z');
  });

  it('goes past frames without a stamp to the first that has one, at or after ignition', async () => {
    const { id } = await createResearch(api, staff);
    await frame(id, -10, '2026-03-01T08:06:00Z', null);
    await frame(id, 0, null, null);
    await frame(id, 10, null, null);
    // 08:07:35 received, 20 s after ignition: lit at 08:07:15 (not the pre-ignition frame's 08:06:10).
    await frame(id, 20, null, '2026-03-01T08:07:35Z');
    expect(await ignition(id)).toBe('2026-03-01T08:07:15.000Z');
  });

  it('takes the latest stamped frame before ignition when none after has one, and null when no frame has any', async () => {
    const before = await createResearch(api, staff);
    await frame(before.id, -20, '2026-03-01T08:06:00Z', null);
    await frame(before.id, -10, null, '2026-03-01T08:06:55Z');
    await frame(before.id, 0, null, null);
    expect(await ignition(before.id)).toBe('2026-03-01T08:07:05.000Z');
    const none = await createResearch(api, staff);
    await frame(none.id, 0, null, null);
    await frame(none.id, 10, null, null);
    expect(await ignition(none.id)).toBeNull();
  });
});
