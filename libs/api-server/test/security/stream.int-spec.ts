// "The live stream" part of the security model, attacked against running APIs: revoked access closes
// open streams, the dashboard's URL carries only a single-use ticket, and a page of another origin
// cannot open a stream. Each test asserts the refusal and that nothing arrived.
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { connectViewer, frame, login, refusal, streamUrl, SUPERUSER, waitFor } from '@furnace/testing';
import { addClient, createResearch } from '../factories';
import { auth, signUpUser, startTestApi, type TestApi } from '../harness';
import { publishFrame, viewerTokenFor } from '../live-support';
import { signHs256 } from '../tokens';
import { ACCESS_ENDED, closedWithin, dataTimes, ticketFor, watch } from './stream-support';

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
      const byTicket = await watch(
        streamUrl(api, research.id, {
          ticket: await ticketFor(api, research.id, viewerToken),
        }),
      );
      const staff = await watch(
        streamUrl(api, research.id, {
          ticket: await ticketFor(api, research.id, admin),
        }),
      );
      await publishFrame(api, research.id, frame(1));
      await waitFor('frame 1 on every stream', () =>
        [byCode, byToken, byTicket, staff].every((w) => dataTimes(w.viewer).includes(1)),
      );

      const since = Date.now();
      expect((await api.http.delete(`/api/v1/research/emails/${code}`).set(auth(admin))).status).toBe(200);
      for (const w of [byCode, byToken, byTicket])
        expect(await closedWithin(w, since)).toMatchObject({
          code: ACCESS_ENDED,
          reason: 'Access revoked',
        });
      await publishFrame(api, research.id, frame(2));
      await waitFor('frame 2 for staff', () => dataTimes(staff.viewer).includes(2));
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
      const res = await api.http
        .put(`/api/v1/research/emails/${code}`)
        .set(auth(admin))
        .send({ email: 'new-address@example.com' });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(code);
      expect(await closedWithin(w, since)).toMatchObject({
        code: ACCESS_ENDED,
      });
      await publishFrame(api, research.id, frame(5));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(dataTimes(w.viewer)).toEqual([]);
    });

    it("a user's password change, deactivation or deletion closes that user's streams, and only theirs", async () => {
      const research = await createResearch(api, admin);
      const [changes, deactivated, deleted] = [await signUpUser(api), await signUpUser(api), await signUpUser(api)];
      const streams = {
        changes: await watch(
          streamUrl(api, research.id, {
            ticket: await ticketFor(api, research.id, changes.token),
          }),
        ),
        changesByToken: await watch(streamUrl(api, research.id, { token: changes.token })),
        deactivated: await watch(
          streamUrl(api, research.id, {
            ticket: await ticketFor(api, research.id, deactivated.token),
          }),
        ),
        deleted: await watch(streamUrl(api, research.id, { token: deleted.token })),
        admin: await watch(
          streamUrl(api, research.id, {
            ticket: await ticketFor(api, research.id, admin),
          }),
        ),
      };
      let since = Date.now();
      expect(
        (
          await api.http.patch('/api/v1/users/me/password').set(auth(changes.token)).send({
            current_password: changes.password,
            new_password: 'changed-password-1',
          })
        ).status,
      ).toBe(200);
      expect(await closedWithin(streams.changes, since)).toMatchObject({
        code: ACCESS_ENDED,
      });
      expect(await closedWithin(streams.changesByToken, since)).toMatchObject({
        code: ACCESS_ENDED,
      });
      since = Date.now();
      expect(
        (await api.http.patch(`/api/v1/users/${deactivated.id}`).set(auth(admin)).send({ is_active: false })).status,
      ).toBe(200);
      expect(await closedWithin(streams.deactivated, since)).toMatchObject({
        code: ACCESS_ENDED,
      });
      since = Date.now();
      expect((await api.http.delete(`/api/v1/users/${deleted.id}`).set(auth(admin))).status).toBe(200);
      expect(await closedWithin(streams.deleted, since)).toMatchObject({
        code: ACCESS_ENDED,
      });
      await publishFrame(api, research.id, frame(7));
      await waitFor('frame 7 for the untouched superuser', () => dataTimes(streams.admin.viewer).includes(7));
      for (const key of ['changes', 'changesByToken', 'deactivated', 'deleted'] as const)
        expect(dataTimes(streams[key].viewer)).toEqual([]);
      await streams.admin.viewer.close();
    });

    it('a token expiring closes the stream it opened', async () => {
      const research = await createResearch(api, admin);
      const me = (await api.http.get('/api/v1/users/me').set(auth(admin))).body as { id: string };
      const now = Math.floor(Date.now() / 1000);
      // A staff token that expires in 2 s, signed as the API signs them.
      const shortLived = signHs256({ sub: me.id, typ: 'access', ver: 0, iat: now, exp: now + 2 }, api.config.secretKey);
      const byTicket = await watch(
        streamUrl(api, research.id, {
          ticket: await ticketFor(api, research.id, shortLived),
        }),
      );
      const byToken = await watch(streamUrl(api, research.id, { token: shortLived }));
      const expiry = (now + 2) * 1000;
      for (const w of [byTicket, byToken])
        expect(await closedWithin(w, expiry)).toMatchObject({
          code: ACCESS_ENDED,
          reason: 'Access expired',
        });
      expect(await refusal(streamUrl(api, research.id, { token: shortLived }))).toMatchObject({
        status: 401,
        received: 0,
      });
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
      expect(await refusal(streamUrl(api, research.id, { ticket }))).toEqual({
        status: 401,
        detail: 'Invalid or expired ticket',
        received: 0,
      });
      await first.close();
      const forOther = await ticketFor(api, research.id, admin);
      expect(await refusal(streamUrl(api, other.id, { ticket: forOther }))).toEqual({
        status: 401,
        detail: 'Invalid or expired ticket',
        received: 0,
      });
      // Tickets are bought with a credential of that research only.
      expect((await api.http.post(`/api/v1/research/${research.id}/stream-ticket`)).status).toBe(401);
      const code = (await addClient(api, admin, other.id, 'other-client@example.com')).id;
      const foreign = await api.http
        .post(`/api/v1/research/${research.id}/stream-ticket`)
        .set(auth(viewerTokenFor(api, code, other.id)));
      expect(foreign.status).toBe(403);
      expect(foreign.body.ticket).toBeUndefined();
    });

    it('a ticket expires 30 s after it was issued', async () => {
      const research = await createResearch(api, admin);
      const res = await api.http.post(`/api/v1/research/${research.id}/stream-ticket`).set(auth(admin));
      expect(res.body).toEqual({ ticket: expect.any(String), expires_in: 30 });
      await new Promise((resolve) => setTimeout(resolve, 31_000));
      expect(await refusal(streamUrl(api, research.id, { ticket: res.body.ticket }))).toEqual({
        status: 401,
        detail: 'Invalid or expired ticket',
        received: 0,
      });
    }, 60_000);

    it('?token= and ?code= keep working for scripts and k6', async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'script@example.com')).id;
      const viewers = [
        await connectViewer(streamUrl(api, research.id, { token: admin })),
        await connectViewer(streamUrl(api, research.id, { code })),
      ];
      await publishFrame(api, research.id, frame(3));
      await waitFor('frame 3 on both', () => viewers.every((v) => dataTimes(v).includes(3)));
      for (const v of viewers) await v.close();
    });
  });

  describe('Origin check on the upgrade', () => {
    it("refuses a page of another origin (403, nothing received); FRONTEND_HOST's origin and no Origin pass", async () => {
      const research = await createResearch(api, admin);
      const code = (await addClient(api, admin, research.id, 'origin@example.com')).id;
      for (const origin of ['https://evil.example', 'http://dashboard.test.evil.example', 'null']) {
        expect(
          await refusal(streamUrl(api, research.id, { code }), {
            Origin: origin,
          }),
        ).toEqual({ status: 403, detail: 'Origin not allowed', received: 0 });
        expect(
          await refusal(
            streamUrl(api, research.id, {
              ticket: await ticketFor(api, research.id, admin),
            }),
            { Origin: origin },
          ),
        ).toMatchObject({ status: 403, received: 0 });
      }
      const own = await connectViewer(streamUrl(api, research.id, { code }), {
        headers: { Origin: 'http://dashboard.test' },
      });
      const script = await connectViewer(streamUrl(api, research.id, { code }));
      await publishFrame(api, research.id, frame(4));
      await waitFor('frame 4', () => dataTimes(own).includes(4) && dataTimes(script).includes(4));
      await own.close();
      await script.close();
    });

    it('ALLOWED_ORIGINS replaces the default', async () => {
      const other = await startTestApi({ ALLOWED_ORIGINS: 'https://furnace.example.com' }, { db });
      try {
        const research = await createResearch(api, admin);
        const code = (await addClient(api, admin, research.id, 'allowed@example.com')).id;
        expect(
          await refusal(streamUrl(other, research.id, { code }), {
            Origin: 'http://dashboard.test',
          }),
        ).toMatchObject({ status: 403, received: 0 });
        const ok = await connectViewer(streamUrl(other, research.id, { code }), {
          headers: { Origin: 'https://furnace.example.com' },
        });
        await ok.close();
      } finally {
        await other.close();
      }
    });
  });
});
