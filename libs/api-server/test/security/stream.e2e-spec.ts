// Revocation on every API instance: two API processes sharing PostgreSQL and Redis, as deployed; a
// revocation made on one must close the streams on the other.
import request from 'supertest';
import type { Bus } from '@furnace/bus';
import { encodeBusMessage, researchChannel } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  apiEnv,
  type AppProcess,
  connectViewer,
  frame,
  login,
  missingBuild,
  startApp,
  streamUrl,
  SUPERUSER,
  testBus,
  waitFor,
} from '@furnace/testing';
import { ACCESS_ENDED, closedWithin, dataTimes, ticketFor, watch } from './stream-support';

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

// Separate processes meet only through real servers.
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const skipReason =
  TEST_DATABASE_URL && TEST_REDIS_URL
    ? null
    : 'needs TEST_DATABASE_URL and TEST_REDIS_URL: two API processes meet only through a real PostgreSQL and Redis';
const describeIfServices = skipReason ? describe.skip : describe;

describeIfServices(
  `security: live stream revocation on every API instance${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let db: TestDatabase;
    const apis: AppProcess[] = [];
    let bus: Bus;

    beforeAll(async () => {
      const missing = missingBuild(['api']);
      if (missing) throw new Error(missing);
      db = await createTestDatabase();
      const env = apiEnv({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL! }, SUPERUSER, {
        FRONTEND_HOST: 'http://dashboard.test',
      });
      apis.push(...(await Promise.all([startApp('api', env), startApp('api', env)])));
      // The bus the two instances share: TEST_REDIS_URL's (required above).
      bus = await testBus();
    }, 120_000);
    afterAll(async () => {
      await Promise.all(apis.map((p) => p.stop()));
      await bus?.close();
      await db?.drop();
    });

    it('a revocation on one instance closes the streams on both within one heartbeat; no frame arrives after', async () => {
      const [a, b] = apis.map((p) => ({ url: p.url, http: request(p.url) }));
      const admin = await login(a!, SUPERUSER.email, SUPERUSER.password);
      const research = (
        await a!.http
          .post('/api/v1/research/')
          .set(auth(admin))
          .send({
            name: 'Two instances',
            start_at: new Date(Date.now() - 3600_000).toISOString(),
            end_at: new Date(Date.now() + 3600_000).toISOString(),
          })
      ).body as { id: string };
      const code = (
        await a!.http
          .post('/api/v1/research/emails')
          .set(auth(admin))
          .send({ research_id: research.id, email: 'two@example.com' })
      ).body.id as string;
      const staff = (
        await a!.http.post('/api/v1/users/').set(auth(admin)).send({
          email: 'staff-two@example.com',
          password: 'staff-password-1',
        })
      ).body as { id: string };
      const staffToken = await login(a!, 'staff-two@example.com', 'staff-password-1');

      const clientStreams = [
        await watch(streamUrl(a!, research.id, { code })),
        await watch(
          streamUrl(b!, research.id, {
            ticket: await ticketFor(
              a!,
              research.id,
              (await a!.http.post(`/api/v1/research/${research.id}/viewer-token`).send({ code })).body.access_token,
            ),
          }),
        ),
      ];
      const staffStreams = [
        await watch(
          streamUrl(a!, research.id, {
            ticket: await ticketFor(b!, research.id, staffToken),
          }),
        ),
        await watch(streamUrl(b!, research.id, { token: staffToken })),
      ];
      const publish = (time: number) =>
        bus.publish(
          researchChannel(research.id),
          encodeBusMessage({
            type: 'frame',
            research_id: research.id,
            payload: frame(time),
          }),
        );
      await publish(1);
      await waitFor('frame 1 on all four streams', () =>
        [...clientStreams, ...staffStreams].every((w) => dataTimes(w.viewer).includes(1)),
      );

      let since = Date.now();
      expect((await b!.http.delete(`/api/v1/research/emails/${code}`).set(auth(admin))).status).toBe(200);
      for (const w of clientStreams)
        expect(await closedWithin(w, since)).toMatchObject({
          code: ACCESS_ENDED,
        });
      since = Date.now();
      expect(
        (await a!.http.patch(`/api/v1/users/${staff.id}`).set(auth(admin)).send({ password: 'set-by-admin-2' })).status,
      ).toBe(200);
      for (const w of staffStreams)
        expect(await closedWithin(w, since)).toMatchObject({
          code: ACCESS_ENDED,
        });
      // On both instances the old token is refused at once.
      for (const api of [a!, b!])
        expect((await api.http.get('/api/v1/users/me').set(auth(staffToken))).status).toBe(401);

      const watcher = await connectViewer(streamUrl(b!, research.id, { token: admin }));
      await publish(2);
      await waitFor('frame 2 for a stream still allowed', () => dataTimes(watcher).includes(2));
      for (const w of [...clientStreams, ...staffStreams]) expect(dataTimes(w.viewer)).toEqual([1]);
      await watcher.close();
    });
  },
);
