// Throttles on every API instance: two API processes sharing PostgreSQL and Redis, as deployed. Attempts
// spread over both instances are refused at the same total as on one instance.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { apiEnv, type AppProcess, missingBuild, startApp, SUPERUSER } from '@furnace/testing';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const skipReason =
  TEST_DATABASE_URL && TEST_REDIS_URL
    ? null
    : 'needs TEST_DATABASE_URL and TEST_REDIS_URL: two API processes meet only through a real PostgreSQL and Redis';
const describeIfServices = skipReason ? describe.skip : describe;

const LIMIT = 4;
// Each run comes from its own made-up address (the processes trust this host as their proxy), so runs
// sharing a Redis never count into each other's windows.
const addressOf = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describeIfServices(
  `security: throttles shared by every API instance${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let db: TestDatabase;
    const apis: AppProcess[] = [];
    let a: ReturnType<typeof request>;
    let b: ReturnType<typeof request>;

    beforeAll(async () => {
      const missing = missingBuild(['api']);
      if (missing) throw new Error(missing);
      db = await createTestDatabase();
      const env = apiEnv({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL! }, SUPERUSER, {
        LOGIN_RATE_LIMIT: String(LIMIT),
        SIGNUP_RATE_LIMIT: String(LIMIT),
        TRUST_PROXY: '127.0.0.1/8,::1',
      });
      apis.push(...(await Promise.all([startApp('api', env), startApp('api', env)])));
      a = request(apis[0]!.url);
      b = request(apis[1]!.url);
    }, 120_000);
    afterAll(async () => {
      await Promise.all(apis.map((p) => p.stop()));
      await db?.drop();
    });

    /** Sends `attempt` alternately to each instance until one is refused; the number of answers before the 429 and the 429 itself. */
    async function untilRefused(
      attempt: (http: ReturnType<typeof request>, i: number) => request.Test,
    ): Promise<{ accepted: number; refusal: request.Response }> {
      for (let i = 0; i < LIMIT * 3; i++) {
        const res = await attempt(i % 2 === 0 ? a : b, i);
        if (res.status === 429) return { accepted: i, refusal: res };
      }
      throw new Error(`no 429 after ${LIMIT * 3} attempts over two instances`);
    }

    function expectRefused(res: request.Response) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The sentence names the same wait as Retry-After.
      const minutes = Math.ceil(Number(res.headers['retry-after']) / 60);
      expect(res.body.detail).toBe(
        `Too many attempts. Please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and try again.`,
      );
    }

    it('login from one address: the LIMIT+1st attempt over both instances is refused on both, and the right password does not get through', async () => {
      const ip = addressOf();
      const { accepted, refusal } = await untilRefused((http, i) =>
        http
          .post('/api/v1/login/access-token')
          .set('X-Forwarded-For', ip)
          .type('form')
          .send({ username: `nobody-${i}-${randomUUID()}@example.com`, password: 'wrong-password' }),
      );
      expect(accepted).toBe(LIMIT);
      expectRefused(refusal);
      for (const http of [a, b]) {
        const res = await http
          .post('/api/v1/login/access-token')
          .set('X-Forwarded-For', ip)
          .type('form')
          .send({ username: SUPERUSER.email, password: SUPERUSER.password });
        expectRefused(res);
        expect(res.body.access_token).toBeUndefined();
      }
      // Another address still signs in: the window was this address's.
      const other = await b
        .post('/api/v1/login/access-token')
        .set('X-Forwarded-For', addressOf())
        .type('form')
        .send({ username: SUPERUSER.email, password: SUPERUSER.password });
      expect(other.status).toBe(200);
    });

    it('login against one account from rotating addresses, over both instances: refused at the same total', async () => {
      const account = `target-${randomUUID()}@example.com`;
      const { accepted, refusal } = await untilRefused((http) =>
        http
          .post('/api/v1/login/access-token')
          .set('X-Forwarded-For', addressOf())
          .type('form')
          .send({ username: account, password: 'wrong-password' }),
      );
      expect(accepted).toBe(LIMIT);
      expectRefused(refusal);
    });

    it('sign-up from one address over both instances: refused at the same total, and the refused account is not created', async () => {
      const ip = addressOf();
      const emails: string[] = [];
      const { accepted, refusal } = await untilRefused((http, i) => {
        const email = `signup-${i}-${randomUUID()}@example.com`;
        emails.push(email);
        return http
          .post('/api/v1/users/signup')
          .set('X-Forwarded-For', ip)
          .send({ email, password: 'signup-password-1' });
      });
      expect(accepted).toBe(LIMIT);
      expectRefused(refusal);
      const admin = (
        await a
          .post('/api/v1/login/access-token')
          .set('X-Forwarded-For', addressOf())
          .type('form')
          .send({ username: SUPERUSER.email, password: SUPERUSER.password })
      ).body.access_token as string;
      const users = (await a.get('/api/v1/users/?limit=100').set('Authorization', `Bearer ${admin}`)).body as {
        data: { email: string }[];
      };
      const known = new Set(users.data.map((u) => u.email));
      expect(emails.slice(0, LIMIT).every((e) => known.has(e))).toBe(true);
      expect(known.has(emails[LIMIT]!)).toBe(false);
    });

    it('password recovery for one account from rotating addresses over both instances: refused after 5', async () => {
      const account = `recover-${randomUUID()}@example.com`;
      const answers: number[] = [];
      for (let i = 0; i < 8; i++) {
        answers.push(
          (await (i % 2 === 0 ? a : b).post(`/api/v1/password-recovery/${account}`).set('X-Forwarded-For', addressOf()))
            .status,
        );
      }
      expect(answers).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const refused = await b.post(`/api/v1/password-recovery/${account}`).set('X-Forwarded-For', addressOf());
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
      expect(refused.body.detail).toMatch(/^Too many attempts\. Please wait 1[45] minutes and try again\.$/);
    });

    it('code exchange from one address over both instances: refused at the same total', async () => {
      const ip = addressOf();
      const { accepted, refusal } = await untilRefused((http) =>
        http
          .post(`/api/v1/research/${randomUUID()}/viewer-token`)
          .set('X-Forwarded-For', ip)
          .send({ code: randomUUID() }),
      );
      expect(accepted).toBe(LIMIT);
      expectRefused(refusal);
    });
  },
);
