import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createBus } from '@furnace/bus';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { connectViewer, streamUrl, waitFor } from '@furnace/testing';
import { addClient, createResearch, insertFrame, uploadConfig, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/*
 * GET /research/{id}/live-view: what the live view reads before its stream opens, in one answer. Each
 * part is what the part's own endpoint answers the same caller (a client sees less than staff), the
 * ticket opens the caller's stream once, a change made through any instance shows in the next answer,
 * and nobody reads a research that is not theirs.
 */
describe('GET /research/{id}/live-view', () => {
  let db: TestDatabase;
  let a: TestApi;
  let b: TestApi;
  let staff: string;
  let researchId: string;
  let client: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Two instances on one bus (Redis when the machine has it, else one in-process bus shared).
    const shared = process.env.TEST_REDIS_URL ? undefined : await createBus(undefined);
    a = await startTestApi({}, { db, bus: shared });
    b = await startTestApi({}, { db, bus: shared });
    staff = (await signUpUser(a)).token;
    researchId = (await createResearch(a, staff)).id;
    expect((await uploadConfig(a, staff, researchId)).status).toBe(200);
    for (let t = 0; t < 30; t++) await insertFrame(a, researchId, t, { pk: 20 + t, thermocouples: [20 + t, 21, 22] });
    expect(
      (
        await a.http
          .post(`/api/v1/research/urls`)
          .set(auth(staff))
          .send({ research_id: researchId, url: 'https://camera.example/1' })
      ).status,
    ).toBe(200);
    expect(
      (
        await a.http
          .post(`/api/v1/research/${researchId}/observations`)
          .set(auth(staff))
          .send({ time: 10, kind: 'note', note: 'for staff', visible_to_clients: false })
      ).status,
    ).toBe(200);
    expect(
      (
        await a.http
          .post(`/api/v1/research/${researchId}/observations`)
          .set(auth(staff))
          .send({ time: 12, kind: 'note', note: 'for all', visible_to_clients: true })
      ).status,
    ).toBe(200);
    expect(
      (
        await a.http
          .post(`/api/v1/research/${researchId}/exclusions`)
          .set(auth(staff))
          .send({ thermo_id: 2, from_time: 5, reason: 'came loose' })
      ).status,
    ).toBe(200);
    const { id: code } = await addClient(a, staff, researchId, 'client-live-view@example.com');
    client = await viewerToken(a, researchId, code);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  const get = (api: TestApi, token: string, path: string) =>
    api.http.get(`/api/v1/research/${researchId}${path}`).set(auth(token));

  it.each([
    ['staff', () => staff],
    ['a client', () => client],
  ])('answers %s what each endpoint answers them, and a ticket that opens their stream once', async (_, token) => {
    const res = await get(a, token(), '/live-view?points=750');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const [research, urls, configs, markers, observations, exclusions, history] = await Promise.all(
      ['', '/urls', '/thermo', '/thermo/coords', '/observations', '/exclusions', '/history?points=750'].map((p) =>
        get(a, token(), p),
      ),
    );
    expect(res.body).toEqual({
      research: research!.body,
      urls: urls!.body.data,
      configs: configs!.body.data,
      markers: markers!.body.data,
      observations: observations!.body.data,
      exclusions: exclusions!.body.data,
      history: history!.body,
    });
    // The caller's own ticket is in the headers: the body is the same for every caller of the audience.
    expect(res.headers['stream-ticket-expires-in']).toBe('30');
    expect(res.body.observations.map((o: { note: string }) => o.note)).toEqual(
      token() === staff ? ['for staff', 'for all'] : ['for all'],
    );
    expect(res.body.history.last_time).toBe(29);

    const ticket = res.headers['stream-ticket'] as string;
    const viewer = await connectViewer(streamUrl(a, researchId, { ticket }));
    try {
      await waitFor('the first message', () => viewer.messages.length > 0);
      expect(viewer.messages[0]!.event).toBe('CRITERIA');
    } finally {
      await viewer.close();
    }
    await expect(connectViewer(streamUrl(a, researchId, { ticket }))).rejects.toThrow();
  });

  it('gives the callers of one audience the same body in the encoding each accepts, each with a ticket of their own', async () => {
    // fetch would decode what it receives: node:http shows the bytes as sent.
    const raw = (encoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = httpGet(
          `${a.url}/api/v1/research/${researchId}/live-view`,
          { headers: { ...auth(client), 'Accept-Encoding': encoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
      });
    const [br1, br2, gz, plain] = await Promise.all([raw('br'), raw('gzip, br;q=0.5'), raw('gzip'), raw('identity')]);
    expect([br1, br2, gz, plain].map((r) => r.headers['content-encoding'])).toEqual(['br', 'gzip', 'gzip', undefined]);
    expect([br1, br2, gz, plain].every((r) => r.headers['vary']?.includes('Accept-Encoding'))).toBe(true);
    const text = plain.body.toString('utf8');
    expect(brotliDecompressSync(br1.body).toString('utf8')).toBe(text);
    expect(gunzipSync(gz.body).toString('utf8')).toBe(text);
    // The same bytes for the audience; the tickets differ.
    expect(Buffer.compare(gz.body, br2.body)).toBe(0);
    expect(new Set([br1, br2, gz, plain].map((r) => r.headers['stream-ticket'])).size).toBe(4);
    expect(JSON.parse(text).observations.map((o: { note: string }) => o.note)).toEqual(['for all']);
  });

  it('shows a change made through another instance in its next answer', async () => {
    expect((await get(a, client, '/live-view')).body.observations).toHaveLength(1);
    expect(
      (
        await b.http
          .post(`/api/v1/research/${researchId}/observations`)
          .set(auth(staff))
          .send({ time: 20, kind: 'note', note: 'later', visible_to_clients: true })
      ).status,
    ).toBe(200);
    // The notice crosses the bus; the answer shared for a second is forgotten as it arrives (well within that second).
    await waitFor(
      'the new observation in the live view',
      async () => (await get(a, client, '/live-view')).body.observations.length === 2,
      400,
    );
    expect((await get(a, client, '/live-view')).body.observations.map((o: { note: string }) => o.note)).toEqual([
      'for all',
      'later',
    ]);
  });

  it('is refused to a stranger, to a client of another research, and for a research that does not exist', async () => {
    expect((await a.http.get(`/api/v1/research/${researchId}/live-view`)).status).toBe(401);
    const other = (await createResearch(a, staff)).id;
    expect((await a.http.get(`/api/v1/research/${other}/live-view`).set(auth(client))).status).toBe(403);
    expect((await a.http.get(`/api/v1/research/${randomUUID()}/live-view`).set(auth(staff))).status).toBe(404);
    expect((await get(a, staff, '/live-view?points=1')).status).toBe(422);
  });
});
