// Login, the test-token route and what the API makes of every kind of bad token, over HTTP.
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { login, SUPERUSER } from '@furnace/testing';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';
import { claimsOf, expired, signHs256, tamper } from './tokens';

const LOGIN = '/api/v1/login/access-token';
const TEST_TOKEN = '/api/v1/login/test-token';

describe('accounts: login', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: string;
  let user: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestApi({}, { db });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    user = await signUpUser(api);
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const form = (username: string, password: string) => api.http.post(LOGIN).type('form').send({ username, password });

  it('answers a form-encoded login with a bearer token that identifies the user', async () => {
    const res = await form(user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const me = await api.http.post(TEST_TOKEN).set(auth(res.body.access_token));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: user.id,
      email: user.email,
      full_name: user.full_name,
      is_active: true,
      is_superuser: false,
      must_change_password: false,
    });
  });

  it('accepts the e-mail in any letter case', async () => {
    const res = await form(user.email.toUpperCase(), user.password);
    expect(res.status).toBe(200);
    expect((await api.http.post(TEST_TOKEN).set(auth(res.body.access_token))).body.id).toBe(user.id);
  });

  it('answers 400 with the same detail for a wrong password and for an unknown e-mail', async () => {
    const wrong = await form(user.email, 'not-the-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: 'Incorrect email or password' });
    const unknown = await form('nobody-here@example.com', user.password);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 422 naming the missing form fields', async () => {
    const res = await api.http.post(LOGIN).type('form').send({ username: user.email });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([{ loc: ['body', 'password'], msg: expect.any(String), type: expect.any(String) }]),
    );
    expect(res.body.detail.every((d: { loc: unknown[] }) => d.loc[1] === 'password')).toBe(true);
  });

  it('refuses an inactive account at login (400) and its existing tokens (401: deactivation revokes them)', async () => {
    const victim = await signUpUser(api);
    const off = await api.http.patch(`/api/v1/users/${victim.id}`).set(auth(admin)).send({ is_active: false });
    expect(off.status).toBe(200);
    const res = await form(victim.email, victim.password);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Inactive user' });
    const old = await api.http.post(TEST_TOKEN).set(auth(victim.token));
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ detail: 'Could not validate credentials' });
  });

  describe('test-token with a bad token', () => {
    it('answers 401 without a token or with garbage', async () => {
      expect((await api.http.post(TEST_TOKEN)).status).toBe(401);
      expect((await api.http.post(TEST_TOKEN)).body).toEqual({ detail: 'Not authenticated' });
      const garbage = await api.http.post(TEST_TOKEN).set(auth('not.a.token'));
      expect(garbage.status).toBe(401);
      expect(garbage.body).toEqual({ detail: 'Could not validate credentials' });
      expect((await api.http.post(TEST_TOKEN).set('Authorization', `Basic ${user.token}`)).status).toBe(401);
    });

    it('answers 401 for a token whose claims were changed (here: to become the superuser)', async () => {
      const adminId = claimsOf(admin).sub;
      const res = await api.http.post(TEST_TOKEN).set(auth(tamper(user.token, { sub: adminId })));
      expect(res.status).toBe(401);
    });

    it('answers 401 for an unsigned token and one signed with another secret', async () => {
      const claims = claimsOf(user.token);
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${user.token.split('.')[1]}.`;
      expect((await api.http.post(TEST_TOKEN).set(auth(none))).status).toBe(401);
      expect(
        (await api.http.post(TEST_TOKEN).set(auth(signHs256(claims, 'some-other-secret-of-sufficient-length')))).status,
      ).toBe(401);
      // The same claims signed with the server's secret are accepted: the refusals are about the signature.
      expect((await api.http.post(TEST_TOKEN).set(auth(signHs256(claims, api.config.secretKey)))).status).toBe(200);
    });

    it('answers 401 for an expired token', async () => {
      const res = await api.http.post(TEST_TOKEN).set(auth(expired(user.token, api.config.secretKey)));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Could not validate credentials' });
    });

    it('answers 401 for a password-reset token used as a bearer token', async () => {
      const html = await api.http.post(`/api/v1/password-recovery-html-content/${user.email}`).set(auth(admin));
      const resetToken = decodeURIComponent(/token=([\w.%-]+)/.exec(html.text)![1]);
      expect((await api.http.post(TEST_TOKEN).set(auth(resetToken))).status).toBe(401);
    });

    it('answers 401 for the token of a deleted account', async () => {
      const gone = await signUpUser(api);
      expect((await api.http.delete('/api/v1/users/me').set(auth(gone.token))).status).toBe(200);
      const res = await api.http.post(TEST_TOKEN).set(auth(gone.token));
      expect(res.status).toBe(401);
    });
  });

  describe('rate limit (LOGIN_RATE_LIMIT=3)', () => {
    let limited: TestApi;
    beforeAll(async () => {
      // A second API on the same database with a low limit; counters are per API instance. It believes
      // X-Forwarded-For from this machine, as an API behind a proxy on TRUST_PROXY's network does, so
      // the test can speak from several client addresses.
      limited = await startTestApi({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: '127.0.0.1,::1' }, { db });
    });
    afterAll(() => limited?.close());

    it('answers 429 once an account has had its attempts from this address, even with the right password', async () => {
      const attempt = (password: string) =>
        limited.http.post(LOGIN).type('form').send({ username: user.email, password });
      for (let i = 0; i < 3; i++) expect((await attempt(`guess-number-${i}`)).status).toBe(400);
      const blocked = await attempt(`guess-number-3`);
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ detail: expect.stringMatching(/too many/i) });
      expect(blocked.body.detail).not.toMatch(/Exception/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await attempt(user.password)).status).toBe(429);
      // Changing the letter case of the e-mail is the same account.
      expect(
        (
          await limited.http
            .post(LOGIN)
            .type('form')
            .send({ username: user.email.toUpperCase(), password: user.password })
        ).status,
      ).toBe(429);
    });

    it('still lets another account sign in from another address; the guessing address is refused for any account', async () => {
      const res = await limited.http
        .post(LOGIN)
        .type('form')
        .set('X-Forwarded-For', '198.51.100.20')
        .send({ username: SUPERUSER.email, password: SUPERUSER.password });
      expect(res.status).toBe(200);
      const same = await limited.http
        .post(LOGIN)
        .type('form')
        .send({ username: SUPERUSER.email, password: SUPERUSER.password });
      expect(same.status).toBe(429);
    });

    it('limits recovery requests for one account, from any address, so an inbox cannot be flooded', async () => {
      const answers: number[] = [];
      for (let i = 0; i < 20 && !answers.includes(429); i++) {
        const from = `198.51.100.${100 + i}`;
        answers.push(
          (await limited.http.post('/api/v1/password-recovery/flood-target@example.com').set('X-Forwarded-For', from))
            .status,
        );
      }
      expect(answers.at(-1)).toBe(429);
      expect(answers.slice(0, -1).every((s) => s === 200)).toBe(true);
      expect(answers.length).toBe(6);
      // Another account is not affected.
      expect(
        (
          await limited.http
            .post('/api/v1/password-recovery/someone-else@example.com')
            .set('X-Forwarded-For', '198.51.100.99')
        ).status,
      ).toBe(200);
    });
  });
});
