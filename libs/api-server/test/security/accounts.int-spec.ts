// The "Accounts" part of the security model, attacked as a stranger would attack a running API: each
// test makes the attempt, asserts the refusal, and asserts that nothing changed or leaked.
import { randomUUID } from 'node:crypto';
import { UserEntity } from '@furnace/db';
import { addClient, createResearch } from '../factories';
import { login, SUPERUSER } from '@furnace/testing';
import { auth, newUser, signUpUser, startTestApi, type TestApi } from '../harness';
import { metric } from '../live-support';
import { type MailingApi, startMailingApi, type TestSmtp } from '../smtp';

const FROM = 'furnace@lab.example';
const FRONTEND = 'http://dashboard.test';

const loginStatus = async (api: TestApi, email: string, password: string, from?: string) => {
  const req = api.http.post('/api/v1/login/access-token').type('form');
  if (from) req.set('X-Forwarded-For', from);
  return req.send({ username: email, password });
};

const stored = (api: TestApi, email: string) =>
  api.dataSource.getRepository(UserEntity).findOneBy({ email: email.toLowerCase() });

describe('security: accounts', () => {
  let mailing: MailingApi;
  let smtp: TestSmtp;
  let api: TestApi;
  let admin: string;
  beforeAll(async () => ({ api, smtp, admin } = mailing = await startMailingApi(FROM)));
  afterAll(() => mailing?.close());

  describe('self sign-up does not grant staff rights', () => {
    it('creates an inactive account that cannot sign in or read anything, and e-mails the superusers a link to /admin', async () => {
      const research = await createResearch(api, admin);
      const client = await addClient(api, admin, research.id, 'client@example.com');
      const stranger = newUser();
      const res = await api.http.post('/api/v1/users/signup').send(stranger);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: stranger.email,
        is_active: false,
        is_superuser: false,
      });

      const attempt = await loginStatus(api, stranger.email, stranger.password);
      expect(attempt.status).toBe(400);
      expect(attempt.body).toEqual({ detail: 'Inactive user' });
      expect(attempt.body.access_token).toBeUndefined();
      // Without a token every staff route is closed: the client codes, the research, the invitations.
      expect((await api.http.get(`/api/v1/research/${research.id}/emails`)).status).toBe(401);
      expect((await api.http.put(`/api/v1/research/${research.id}`).send({ name: 'Rewritten' })).status).toBe(401);
      expect((await api.http.post(`/api/v1/research/${research.id}/emails/send`)).status).toBe(401);
      expect(await stored(api, stranger.email)).toMatchObject({
        isActive: false,
        isSuperuser: false,
      });
      const after = await api.http.get(`/api/v1/research/${research.id}/emails`).set(auth(admin));
      expect(after.body.data).toEqual([expect.objectContaining({ id: client.id, is_sent: false })]);
      expect((await api.http.get(`/api/v1/research/${research.id}`).set(auth(admin))).body.name).toBe(research.name);

      const notice = await smtp.next(
        (m) => m.to.includes(SUPERUSER.email) && (m.parsed.text ?? '').includes(stranger.email),
        'the sign-up notice to the superuser',
      );
      expect(notice.parsed.subject).toContain(stranger.email);
      expect(notice.parsed.text).toContain(`${FRONTEND}/admin`);
      // The notice goes to the superusers only, never to the account itself.
      expect(smtp.received.some((m) => m.to.includes(stranger.email))).toBe(false);
    });

    it('with SIGNUP=off refuses every sign-up with 403, creates nothing and tells the dashboard so', async () => {
      const closed = await startTestApi({ SIGNUP: 'off' }, { db: api.db });
      try {
        expect((await closed.http.get('/api/v1/config')).body).toEqual({
          signup: 'off',
        });
        const stranger = newUser();
        const res = await closed.http.post('/api/v1/users/signup').send(stranger);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ detail: 'Sign-up is disabled' });
        expect(await stored(closed, stranger.email)).toBeNull();
        expect((await api.http.get('/api/v1/config')).body).toEqual({
          signup: 'approval',
        });
      } finally {
        await closed.close();
      }
    });
  });

  describe('the default superuser password', () => {
    it('must be changed at the first sign-in: everything else answers 403 "password change required" and changes nothing', async () => {
      // FIRST_SUPERUSER_PASSWORD unset on an embedded start (DATABASE_URL unset in the configuration).
      const first = await startTestApi(
        {
          FIRST_SUPERUSER: 'first-admin@example.com',
          FIRST_SUPERUSER_PASSWORD: '',
          DATABASE_URL: '',
        },
        { db: api.db },
      );
      try {
        const token = await login(first, 'first-admin@example.com', 'changethis');
        const me = await first.http.get('/api/v1/users/me').set(auth(token));
        expect(me.body).toMatchObject({
          email: 'first-admin@example.com',
          is_superuser: true,
          must_change_password: true,
        });
        const before = (await first.http.get('/api/v1/research/').set(auth(admin))).body.count;
        for (const req of [
          first.http.get('/api/v1/research/').set(auth(token)),
          first.http
            .post('/api/v1/research/')
            .set(auth(token))
            .send({
              name: 'Planted',
              start_at: new Date().toISOString(),
              end_at: new Date(Date.now() + 3600_000).toISOString(),
            }),
          first.http.get('/api/v1/users/').set(auth(token)),
          first.http.post('/api/v1/users/').set(auth(token)).send(newUser()),
        ]) {
          const res = await req;
          expect(res.status).toBe(403);
          expect(res.body).toEqual({ detail: 'password change required' });
        }
        expect((await first.http.get('/api/v1/research/').set(auth(admin))).body.count).toBe(before);

        const changed = await first.http.patch('/api/v1/users/me/password').set(auth(token)).send({
          current_password: 'changethis',
          new_password: 'chosen-by-the-admin-1',
        });
        expect(changed.status).toBe(200);
        // The token of the default password died with it; the new password works everywhere.
        expect((await first.http.get('/api/v1/users/me').set(auth(token))).status).toBe(401);
        const fresh = await login(first, 'first-admin@example.com', 'chosen-by-the-admin-1');
        expect((await first.http.get('/api/v1/users/me').set(auth(fresh))).body.must_change_password).toBe(false);
        expect((await first.http.get('/api/v1/research/').set(auth(fresh))).status).toBe(200);
        expect((await loginStatus(first, 'first-admin@example.com', 'changethis')).status).toBe(400);
      } finally {
        await first.close();
      }
    });
  });

  describe('tokens die with the password', () => {
    let other: TestApi;
    beforeAll(async () => {
      // A second API instance on the same database: a revoked token must fail on it too.
      other = await startTestApi(smtp.env(FROM), { db: api.db });
    });
    afterAll(() => other?.close());

    const status = async (token: string) => [
      (await api.http.get('/api/v1/users/me').set(auth(token))).status,
      (await other.http.get('/api/v1/users/me').set(auth(token))).status,
    ];

    it('a password change, a reset, a deactivation or a deletion makes every earlier token answer 401 on every instance', async () => {
      // Changed by its owner.
      const a = await signUpUser(api);
      const aOther = await login(other, a.email, a.password);
      expect(await status(a.token)).toEqual([200, 200]);
      expect(
        (
          await api.http.patch('/api/v1/users/me/password').set(auth(a.token)).send({
            current_password: a.password,
            new_password: 'new-password-a1',
          })
        ).status,
      ).toBe(200);
      expect([...(await status(a.token)), ...(await status(aOther))]).toEqual([401, 401, 401, 401]);

      // Reset through the e-mailed link.
      const b = await signUpUser(api);
      expect((await other.http.post(`/api/v1/password-recovery/${b.email}`)).status).toBe(200);
      const mail = await smtp.next(
        (m) => m.to.includes(b.email) && /reset-password\?token=/.test(m.parsed.text ?? ''),
        'the recovery e-mail',
      );
      const resetToken = new URL(
        /http:\/\/dashboard\.test\/reset-password\?token=\S+/.exec(mail.parsed.text!)![0],
      ).searchParams.get('token')!;
      expect(
        (await other.http.post('/api/v1/reset-password/').send({ token: resetToken, new_password: 'new-password-b1' }))
          .status,
      ).toBe(200);
      expect(await status(b.token)).toEqual([401, 401]);

      // Deactivated by a superuser, then re-activated: the old token stays dead.
      const c = await signUpUser(api);
      expect((await api.http.patch(`/api/v1/users/${c.id}`).set(auth(admin)).send({ is_active: false })).status).toBe(
        200,
      );
      expect(await status(c.token)).toEqual([401, 401]);
      expect((await api.http.patch(`/api/v1/users/${c.id}`).set(auth(admin)).send({ is_active: true })).status).toBe(
        200,
      );
      expect(await status(c.token)).toEqual([401, 401]);

      // Deleted.
      const d = await signUpUser(api);
      expect((await other.http.delete(`/api/v1/users/${d.id}`).set(auth(admin))).status).toBe(200);
      expect(await status(d.token)).toEqual([401, 401]);
      expect((await api.http.post('/api/v1/research/').set(auth(d.token)).send({ name: 'x' })).status).toBe(401);
    });

    it('changing one’s e-mail needs the current password; without it nothing changes', async () => {
      const u = await signUpUser(api);
      const taken = newUser().email;
      const none = await api.http.patch('/api/v1/users/me').set(auth(u.token)).send({ email: taken });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({
        detail: 'The current password is required to change the e-mail',
      });
      const wrong = await api.http
        .patch('/api/v1/users/me')
        .set(auth(u.token))
        .send({ email: taken, current_password: 'not-the-password' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ detail: 'Incorrect password' });
      expect((await stored(api, u.email))?.email).toBe(u.email);
      expect(await stored(api, taken)).toBeNull();
      expect((await loginStatus(api, u.email, u.password)).status).toBe(200);
      // With it, the change goes through.
      expect(
        (
          await api.http
            .patch('/api/v1/users/me')
            .set(auth(u.token))
            .send({ email: taken, current_password: u.password })
        ).status,
      ).toBe(200);
    });
  });

  describe('throttles answer 429 with Retry-After', () => {
    let limited: TestApi;
    let research: { id: string };
    let code: string;
    beforeAll(async () => {
      // Believes X-Forwarded-For from this machine only because TRUST_PROXY says so: the test plays a proxy.
      limited = await startTestApi(
        {
          LOGIN_RATE_LIMIT: '3',
          SIGNUP_RATE_LIMIT: '2',
          TRUST_PROXY: '127.0.0.1,::1',
        },
        { db: api.db },
      );
      research = await createResearch(api, admin);
      code = (await addClient(api, admin, research.id, 'watcher@example.com')).id;
    });
    afterAll(() => limited?.close());

    const retryAfter = (res: { status: number; headers: Record<string, string> }) => {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    };

    it('on sign-up: the third sign-up of the hour from one address is refused and not created', async () => {
      const from = '203.0.113.10';
      for (let i = 0; i < 2; i++)
        expect(
          (await limited.http.post('/api/v1/users/signup').set('X-Forwarded-For', from).send(newUser())).status,
        ).toBe(200);
      const third = newUser();
      const res = await limited.http.post('/api/v1/users/signup').set('X-Forwarded-For', from).send(third);
      retryAfter(res);
      expect(res.body.detail).toMatch(/too many/i);
      expect(await stored(api, third.email)).toBeNull();
    });

    it('on password recovery: the sixth request for one account is refused, from any address', async () => {
      const u = await signUpUser(api);
      for (let i = 0; i < 5; i++)
        expect(
          (
            await limited.http
              .post(`/api/v1/password-recovery/${u.email}`)
              .set('X-Forwarded-For', `203.0.113.${20 + i}`)
          ).status,
        ).toBe(200);
      retryAfter(
        await limited.http.post(`/api/v1/password-recovery/${u.email}`).set('X-Forwarded-For', '203.0.113.30'),
      );
    });

    it('on code exchange: guessing codes is cut off, and then even the right code gets no token', async () => {
      const from = '203.0.113.40';
      for (let i = 0; i < 3; i++) {
        const guess = await limited.http
          .post(`/api/v1/research/${research.id}/viewer-token`)
          .set('X-Forwarded-For', from)
          .send({ code: randomUUID() });
        expect(guess.status).toBe(403);
      }
      const right = await limited.http
        .post(`/api/v1/research/${research.id}/viewer-token`)
        .set('X-Forwarded-For', from)
        .send({ code });
      retryAfter(right);
      expect(right.body.access_token).toBeUndefined();
    });

    it('on login per account: rotating X-Forwarded-For does not buy more guesses, not even for the right password', async () => {
      const u = await signUpUser(api);
      for (let i = 0; i < 3; i++)
        expect((await loginStatus(limited, u.email, `guess-${i}`, `198.18.0.${i + 1}`)).status).toBe(400);
      const right = await loginStatus(limited, u.email, u.password, '198.18.0.99');
      retryAfter(right);
      expect(right.body.access_token).toBeUndefined();
    });

    it('on login per address: without TRUST_PROXY, X-Forwarded-For is ignored and one address is limited across accounts', async () => {
      const direct = await startTestApi({ LOGIN_RATE_LIMIT: '3' }, { db: api.db });
      try {
        for (let i = 0; i < 3; i++)
          expect((await loginStatus(direct, `nobody-${i}@example.com`, 'guess', `192.0.2.${i + 1}`)).status).toBe(400);
        const res = await loginStatus(direct, SUPERUSER.email, SUPERUSER.password, '192.0.2.99');
        retryAfter(res);
        expect(res.body.access_token).toBeUndefined();
      } finally {
        await direct.close();
      }
    });
  });

  it('hashing is bounded: a flood of sign-ups queues behind PASSWORD_HASH_CONCURRENCY argon2 computations', async () => {
    const flood = await startTestApi({ PASSWORD_HASH_CONCURRENCY: '2' }, { db: api.db });
    try {
      let sawQueue = false;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          if ((await metric('furnace_password_hashes_waiting')) > 0) sawQueue = true;
          expect(await metric('furnace_password_hashes_running')).toBeLessThanOrEqual(2);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const users = Array.from({ length: 12 }, () => newUser());
      const answers = await Promise.all(users.map((u) => flood.http.post('/api/v1/users/signup').send(u)));
      sampling = false;
      await sampler;
      // Every sign-up was served (queued, not refused), and never more than two hashes ran at once.
      expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
      expect(sawQueue).toBe(true);
      expect(await metric('furnace_password_hashes_running_max')).toBeLessThanOrEqual(2);
      expect(await metric('furnace_password_hashes_running')).toBe(0);
    } finally {
      await flood.close();
    }
  });
});
