// "The live stream" part of the security model, attacked against running APIs: revoked access closes
// open streams (on every instance), the dashboard's URL carries only a single-use ticket, and a page
// of another origin cannot open a stream. Each test asserts the refusal and that nothing arrived.
import request from 'supertest';
import { type Bus, createBus } from '@furnace/bus';
import { encodeBusMessage, researchChannel } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { addClient, createResearch } from '../factories';
import { auth, login, signUpUser, startTestApi, SUPERUSER, type TestApi } from '../harness';
import { connectViewer, frame, publishFrame, refusal, streamUrl, type TestViewer, viewerTokenFor } from '../live-support';
import { waitFor } from '../wait';
import { signHs256 } from '../tokens';
import { apiEnv, type AppProcess, missingBuild, startApp } from '../../../../test/support/app-processes';

/** The close code of a stream whose access ended. */
const ACCESS_ENDED = 4401;
/** One heartbeat: the longest a revoked stream may stay open. */
const HEARTBEAT_MS = 5_000;

interface Watched {
  viewer: TestViewer;
  closed: Promise<{ code: number; reason: string; at: number }>;
}

async function watch(url: string, headers?: Record<string, string>): Promise<Watched> {
  const viewer = await connectViewer(url, { headers });
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    viewer.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  return { viewer, closed };
}

/** Resolves with how the stream closed; fails if it stays open longer than one heartbeat after `since`. */
async function closedWithin(w: Watched, since: number): Promise<{ code: number; reason: string }> {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('stream still open after one heartbeat')), HEARTBEAT_MS + 500).unref());
  const closed = await Promise.race([w.closed, timeout]);
  expect(closed.at - since).toBeLessThanOrEqual(HEARTBEAT_MS);
  return closed;
}

const dataTimes = (v: TestViewer) => v.times;

async function ticketFor(api: { http: ReturnType<typeof request> }, researchId: string, token: string): Promise<string> {
  const res = await api.http.post(`/api/v1/research/${researchId}/stream-ticket`).set(auth(token));
  if (res.status !== 200) throw new Error(`ticket refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.ticket as string;
}

describe('security: live stream', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({}, { db });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  describe('revocation reaches open sockets', () => {
    it("deleting a client's e-mail record closes every stream it opened (code, viewer token, ticket); staff keep watching", async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'revoked@example.com')).id;
      const viewerToken = viewerTokenFor(api, code, research.id);
      const byCode = await watch(streamUrl(api, research.id, { code }));
      const byToken = await watch(streamUrl(api, research.id, { token: viewerToken }));
      const byTicket = await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, viewerToken) }));
      const staff = await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, admin) }));
      await publishFrame(api, research.id, frame(1));
      await waitFor(() => [byCode, byToken, byTicket, staff].every((w) => dataTimes(w.viewer).includes(1)), 'frame 1 on every stream');

      const since = Date.now();
      expect((await api.http.delete(`/api/v1/research/emails/${code}`).set(auth(admin))).status).toBe(200);
      for (const w of [byCode, byToken, byTicket]) expect(await closedWithin(w, since)).toMatchObject({ code: ACCESS_ENDED, reason: 'Access revoked' });
      await publishFrame(api, research.id, frame(2));
      await waitFor(() => dataTimes(staff.viewer).includes(2), 'frame 2 for staff');
      for (const w of [byCode, byToken, byTicket]) expect(dataTimes(w.viewer)).toEqual([1]);
      // The code opens nothing any more.
      expect(await refusal(streamUrl(api, research.id, { code }))).toMatchObject({ status: 403, received: 0 });
      await staff.viewer.close();
    });

    it("changing a client's address closes the streams of the old code", async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'old-address@example.com')).id;
      const w = await watch(streamUrl(api, research.id, { code }));
      const since = Date.now();
      const res = await api.http.put(`/api/v1/research/emails/${code}`).set(auth(admin)).send({ email: 'new-address@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(code);
      expect(await closedWithin(w, since)).toMatchObject({ code: ACCESS_ENDED });
      await publishFrame(api, research.id, frame(5));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(dataTimes(w.viewer)).toEqual([]);
    });

    it("a user's password change, deactivation or deletion closes that user's streams, and only theirs", async () => {
      const research = await createResearch(api, admin);
      const [changes, deactivated, deleted] = [await signUpUser(api), await signUpUser(api), await signUpUser(api)];
      const streams = {
        changes: await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, changes.token) })),
        changesByToken: await watch(streamUrl(api, research.id, { token: changes.token })),
        deactivated: await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, deactivated.token) })),
        deleted: await watch(streamUrl(api, research.id, { token: deleted.token })),
        admin: await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, admin) })),
      };
      let since = Date.now();
      expect((await api.http.patch('/api/v1/users/me/password').set(auth(changes.token)).send({ current_password: changes.password, new_password: 'changed-password-1' })).status).toBe(200);
      expect(await closedWithin(streams.changes, since)).toMatchObject({ code: ACCESS_ENDED });
      expect(await closedWithin(streams.changesByToken, since)).toMatchObject({ code: ACCESS_ENDED });
      since = Date.now();
      expect((await api.http.patch(`/api/v1/users/${deactivated.id}`).set(auth(admin)).send({ is_active: false })).status).toBe(200);
      expect(await closedWithin(streams.deactivated, since)).toMatchObject({ code: ACCESS_ENDED });
      since = Date.now();
      expect((await api.http.delete(`/api/v1/users/${deleted.id}`).set(auth(admin))).status).toBe(200);
      expect(await closedWithin(streams.deleted, since)).toMatchObject({ code: ACCESS_ENDED });
      await publishFrame(api, research.id, frame(7));
      await waitFor(() => dataTimes(streams.admin.viewer).includes(7), 'frame 7 for the untouched superuser');
      for (const key of ['changes', 'changesByToken', 'deactivated', 'deleted'] as const) expect(dataTimes(streams[key].viewer)).toEqual([]);
      await streams.admin.viewer.close();
    });

    it('a token expiring closes the stream it opened', async () => {
      const research = await createResearch(api, admin);
      const me = (await api.http.get('/api/v1/users/me').set(auth(admin))).body as { id: string };
      const now = Math.floor(Date.now() / 1000);
      // A staff token that expires in 2 s, signed as the API signs them.
      const shortLived = signHs256({ sub: me.id, typ: 'access', ver: 0, iat: now, exp: now + 2 }, api.config.secretKey);
      const byTicket = await watch(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, shortLived) }));
      const byToken = await watch(streamUrl(api, research.id, { token: shortLived }));
      const expiry = (now + 2) * 1000;
      for (const w of [byTicket, byToken]) expect(await closedWithin(w, expiry)).toMatchObject({ code: ACCESS_ENDED, reason: 'Access expired' });
      expect(await refusal(streamUrl(api, research.id, { token: shortLived }))).toMatchObject({ status: 401, received: 0 });
    });
  });

  describe('no long-lived credential in a URL: single-use tickets', () => {
    it('a ticket opens one stream of its research once; a second use, another research or no credential gets nothing', async () => {
      const research = await createResearch(api, admin);
      const other = await createResearch(api, admin);
      const ticket = await ticketFor(api, research.id, admin);
      expect(ticket).toMatch(/^[\w-]{40,}$/);
      // The ticket is no token: it opens no REST route.
      expect((await api.http.get('/api/v1/users/me').set(auth(ticket))).status).toBe(401);
      const first = await connectViewer(streamUrl(api, research.id, { ticket }));
      expect(await refusal(streamUrl(api, research.id, { ticket }))).toEqual({ status: 401, detail: 'Invalid or expired ticket', received: 0 });
      await first.close();
      const forOther = await ticketFor(api, research.id, admin);
      expect(await refusal(streamUrl(api, other.id, { ticket: forOther }))).toEqual({ status: 401, detail: 'Invalid or expired ticket', received: 0 });
      // Tickets are bought with a credential of that research only.
      expect((await api.http.post(`/api/v1/research/${research.id}/stream-ticket`)).status).toBe(401);
      const code = (await addClient(api, admin, other.id, 'other-client@example.com')).id;
      const foreign = await api.http.post(`/api/v1/research/${research.id}/stream-ticket`).set(auth(viewerTokenFor(api, code, other.id)));
      expect(foreign.status).toBe(403);
      expect(foreign.body.ticket).toBeUndefined();
    });

    it('a ticket expires 30 s after it was issued', async () => {
      const research = await createResearch(api, admin);
      const res = await api.http.post(`/api/v1/research/${research.id}/stream-ticket`).set(auth(admin));
      expect(res.body).toEqual({ ticket: expect.any(String), expires_in: 30 });
      await new Promise((resolve) => setTimeout(resolve, 31_000));
      expect(await refusal(streamUrl(api, research.id, { ticket: res.body.ticket }))).toEqual({ status: 401, detail: 'Invalid or expired ticket', received: 0 });
    }, 60_000);

    it('?token= and ?code= keep working for scripts and k6', async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'script@example.com')).id;
      const viewers = [await connectViewer(streamUrl(api, research.id, { token: admin })), await connectViewer(streamUrl(api, research.id, { code }))];
      await publishFrame(api, research.id, frame(3));
      await waitFor(() => viewers.every((v) => dataTimes(v).includes(3)), 'frame 3 on both');
      for (const v of viewers) await v.close();
    });
  });

  describe('Origin check on the upgrade', () => {
    it("refuses a page of another origin (403, nothing received); FRONTEND_HOST's origin and no Origin pass", async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'origin@example.com')).id;
      for (const origin of ['https://evil.example', 'http://dashboard.test.evil.example', 'null']) {
        expect(await refusal(streamUrl(api, research.id, { code }), { Origin: origin })).toEqual({ status: 403, detail: 'Origin not allowed', received: 0 });
        expect(await refusal(streamUrl(api, research.id, { ticket: await ticketFor(api, research.id, admin) }), { Origin: origin })).toMatchObject({ status: 403, received: 0 });
      }
      const own = await connectViewer(streamUrl(api, research.id, { code }), { headers: { Origin: 'http://dashboard.test' } });
      const script = await connectViewer(streamUrl(api, research.id, { code }));
      await publishFrame(api, research.id, frame(4));
      await waitFor(() => dataTimes(own).includes(4) && dataTimes(script).includes(4), 'frame 4');
      await own.close();
      await script.close();
    });

    it('ALLOWED_ORIGINS replaces the default', async () => {
      const other = await startTestApi({ ALLOWED_ORIGINS: 'https://furnace.example.com' }, { db });
      try {
        const research = await createResearch(api, admin);
        const code = (await addClient(api, admin, research.id, 'allowed@example.com')).id;
        expect(await refusal(streamUrl(other, research.id, { code }), { Origin: 'http://dashboard.test' })).toMatchObject({ status: 403, received: 0 });
        const ok = await connectViewer(streamUrl(other, research.id, { code }), { headers: { Origin: 'https://furnace.example.com' } });
        await ok.close();
      } finally {
        await other.close();
      }
    });
  });
});

// Two API processes sharing PostgreSQL and Redis, as deployed: a revocation made on one must close
// the streams on the other. Separate processes meet only through real servers.
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const skipReason = TEST_DATABASE_URL && TEST_REDIS_URL ? null : 'needs TEST_DATABASE_URL and TEST_REDIS_URL: two API processes meet only through a real PostgreSQL and Redis';
const describeIfServices = skipReason ? describe.skip : describe;

describeIfServices(`security: live stream revocation on every API instance${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let db: TestDatabase;
  const apis: AppProcess[] = [];
  let bus: Bus;

  beforeAll(async () => {
    const missing = missingBuild(['api']);
    if (missing) throw new Error(missing);
    db = await createTestDatabase();
    const env = apiEnv({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL! }, SUPERUSER, { FRONTEND_HOST: 'http://dashboard.test' });
    apis.push(...(await Promise.all([startApp('api', env), startApp('api', env)])));
    bus = await createBus(TEST_REDIS_URL);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(apis.map((p) => p.stop()));
    await bus?.close();
    await db?.drop();
  });

  it('a revocation on one instance closes the streams on both within one heartbeat; no frame arrives after', async () => {
    const [a, b] = apis.map((p) => ({ url: p.url, http: request(p.url) }));
    const admin = await login(a!, SUPERUSER.email, SUPERUSER.password);
    const research = (await a!.http.post('/api/v1/research/').set(auth(admin)).send({
      name: 'Two instances',
      start_at: new Date(Date.now() - 3600_000).toISOString(),
      end_at: new Date(Date.now() + 3600_000).toISOString(),
    })).body as { id: string };
    const code = (await a!.http.post('/api/v1/research/emails').set(auth(admin)).send({ research_id: research.id, email: 'two@example.com' })).body.id as string;
    const staff = (await a!.http.post('/api/v1/users/').set(auth(admin)).send({ email: 'staff-two@example.com', password: 'staff-password-1' })).body as { id: string };
    const staffToken = await login(a!, 'staff-two@example.com', 'staff-password-1');

    const clientStreams = [await watch(streamUrl(a!, research.id, { code })), await watch(streamUrl(b!, research.id, { ticket: await ticketFor(a!, research.id, (await a!.http.post(`/api/v1/research/${research.id}/viewer-token`).send({ code })).body.access_token) }))];
    const staffStreams = [await watch(streamUrl(a!, research.id, { ticket: await ticketFor(b!, research.id, staffToken) })), await watch(streamUrl(b!, research.id, { token: staffToken }))];
    const publish = (time: number) => bus.publish(researchChannel(research.id), encodeBusMessage({ type: 'frame', research_id: research.id, payload: frame(time) }));
    await publish(1);
    await waitFor(() => [...clientStreams, ...staffStreams].every((w) => dataTimes(w.viewer).includes(1)), 'frame 1 on all four streams');

    let since = Date.now();
    expect((await b!.http.delete(`/api/v1/research/emails/${code}`).set(auth(admin))).status).toBe(200);
    for (const w of clientStreams) expect(await closedWithin(w, since)).toMatchObject({ code: ACCESS_ENDED });
    since = Date.now();
    expect((await a!.http.patch(`/api/v1/users/${staff.id}`).set(auth(admin)).send({ password: 'set-by-admin-2' })).status).toBe(200);
    for (const w of staffStreams) expect(await closedWithin(w, since)).toMatchObject({ code: ACCESS_ENDED });
    // On both instances the old token is refused at once.
    for (const api of [a!, b!]) expect((await api.http.get('/api/v1/users/me').set(auth(staffToken))).status).toBe(401);

    const watcher = await connectViewer(streamUrl(b!, research.id, { token: admin }));
    await publish(2);
    await waitFor(() => dataTimes(watcher).includes(2), 'frame 2 for a stream still allowed');
    for (const w of [...clientStreams, ...staffStreams]) expect(dataTimes(w.viewer)).toEqual([1]);
    await watcher.close();
  });
});
