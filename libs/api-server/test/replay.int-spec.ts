import { randomUUID } from 'node:crypto';
import { addClient, createResearch, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/**
 * Stored frames at times first, first + 1, …, last (as the ingest writes them): pk = 500 + time, the
 * thermocouple i reads time + i / 10 (channel 2 has no reading), channel 3 is flagged at time 10.
 */
async function insertFrames(api: TestApi, researchId: string, first: number, last: number) {
  await api.dataSource.query(
    `INSERT INTO reading (research_id, "time", ts, pk, pressure, thermocouples, faults, received_at)
     SELECT $1, t, r.start_at + t * INTERVAL '1 second', 500 + t, CASE WHEN t = 10 THEN NULL ELSE 20 END,
            ARRAY[t + 0.1, NULL, CASE WHEN t = 10 THEN NULL ELSE t + 0.3 END]::real[],
            CASE WHEN t = 10 THEN ARRAY[3]::smallint[] END, now()
     FROM research r, generate_series($2::int, $3::int) AS t WHERE r.id = $1`,
    [researchId, first, last],
  );
}

describe('GET /research/{id}/frames: the stored frames of a window, for the replay', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let viewer: string;
  let code: string;
  let empty: string;

  beforeAll(async () => {
    api = await startTestApi();
    staff = (await signUpUser(api)).token;
    researchId = (await createResearch(api, staff)).id;
    empty = (await createResearch(api, staff, { name: 'Bez danych' })).id;
    // Two frames before ignition, then 1 200 s of a test at 1 Hz: more than one window holds.
    await insertFrames(api, researchId, -2, 1200);
    code = (await addClient(api, staff, researchId, 'client@example.com')).id;
    viewer = await viewerToken(api, researchId, code);
  });
  afterAll(() => api?.close());

  const frames = (id: string, query: string, token: string | null = staff) => {
    const req = api.http.get(`/api/v1/research/${id}/frames${query}`);
    return token === null ? req : req.set(auth(token));
  };

  it('answers every frame of the window with all its channels, in time order, as the live stream sends them', async () => {
    const res = await frames(researchId, '?from=9&to=11.5');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      research_id: researchId,
      first_time: -2,
      last_time: 1200,
      from: 9,
      to: 11.5,
      frames: [
        { time: 9, radiance: null, pressure: 20, pk: 509, thermocouples_out: [9.1, null, 9.3] },
        { time: 10, radiance: null, pressure: null, pk: 510, thermocouples_out: [10.1, null, null], faults: [3] },
        { time: 11, radiance: null, pressure: 20, pk: 511, thermocouples_out: [11.1, null, 11.3] },
      ],
    });
  });

  it('starts at the first frame (before ignition) without from, and ends after the most frames one window holds without to', async () => {
    const res = await frames(researchId, '');
    expect(res.status).toBe(200);
    expect(res.body.from).toBe(-2);
    expect(res.body.frames).toHaveLength(1000);
    expect(res.body.frames[0].time).toBe(-2);
    expect(res.body.to).toBe(997);
    expect(res.body.frames.at(-1).time).toBe(997);
    // The rest of the test, from just after it: up to the last frame.
    const rest = await frames(researchId, '?from=997.5');
    expect(rest.body.frames.map((f: { time: number }) => f.time)).toEqual(
      Array.from({ length: 203 }, (_, i) => 998 + i),
    );
    expect(rest.body.to).toBe(1200);
  });

  it('answers an empty window after the end, and a research without frames with null bounds', async () => {
    const after = await frames(researchId, '?from=5000&to=5100');
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ from: 5000, to: 5100, last_time: 1200, frames: [] });
    const none = await frames(empty, '?from=0&to=60');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ research_id: empty, first_time: null, last_time: null, from: 0, to: 60, frames: [] });
  });

  it('refuses a window of more than 1000 frames with a 400 naming the limit, and one that ends before it starts', async () => {
    const wide = await frames(researchId, '?from=0&to=1000');
    expect(wide.status).toBe(400);
    expect(wide.body.detail).toBe(
      'the window from 0 to 1000 s holds more than 1000 frames, the most one request answers; ask for a shorter window',
    );
    // 1 000 frames exactly is answered.
    expect((await frames(researchId, '?from=0&to=999')).body.frames).toHaveLength(1000);
    const backwards = await frames(researchId, '?from=60&to=30');
    expect(backwards.status).toBe(400);
    expect(backwards.body.detail).toBe('to (30) must not be before from (60)');
  });

  it.each([
    ['?from=abc', 'from'],
    ['?to=Infinity', 'to'],
    ['?from=-4000', 'from'],
    ['?from=0&limit=5', 'limit'],
  ])('refuses %s with a 422 naming %s', async (query, field) => {
    const res = await frames(researchId, query);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['query', field] })]));
  });

  it('is for staff only: 401 without a token, 403 for a viewer of this research or a client code, 404 for an unknown research', async () => {
    expect((await frames(researchId, '?from=0&to=10', null)).status).toBe(401);
    const asViewer = await frames(researchId, '?from=0&to=10', viewer);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.frames).toBeUndefined();
    // A client's code is no bearer token.
    expect((await frames(researchId, '?from=0&to=10', code)).status).toBe(401);
    expect((await api.http.get(`/api/v1/research/${researchId}/frames?from=0&to=10&code=${code}`)).status).toBe(401);
    expect((await frames(randomUUID(), '?from=0&to=10')).status).toBe(404);
    expect((await frames('not-a-uuid', '?from=0&to=10')).status).toBe(422);
  });
});
