// The users routes over HTTP: signup, /users/me, the superuser's CRUD, and what bad input gets back.
import { login, SUPERUSER } from '@furnace/testing';
import { auth, newUser, signUpUser, startTestApi, type TestApi } from './harness';

const USERS = '/api/v1/users';
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const loginStatus = (api: TestApi, email: string, password: string) =>
  api.http
    .post('/api/v1/login/access-token')
    .type('form')
    .send({ username: email, password })
    .then((r) => r.status);

describe('accounts: users', () => {
  let api: TestApi;
  let admin: string;
  let adminId: string;
  /** An ordinary account for the tests that do not change it (argon2 makes each new account cost). */
  let alice: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    api = await startTestApi();
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    adminId = (await api.http.get(`${USERS}/me`).set(auth(admin))).body.id;
    alice = await signUpUser(api);
  });
  afterAll(() => api?.close());

  describe('signup', () => {
    it('creates an inactive, ordinary account that signs in once a superuser activates it, and never returns the password', async () => {
      const fields = newUser({ email: 'Signup.Person@Example.com' });
      const res = await api.http.post(`${USERS}/signup`).send(fields);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: 'signup.person@example.com',
        full_name: fields.full_name,
        is_active: false,
        is_superuser: false,
        must_change_password: false,
      });
      expect(JSON.stringify(res.body)).not.toContain(fields.password);
      expect(await loginStatus(api, 'signup.person@example.com', fields.password)).toBe(400);
      expect((await api.http.patch(`${USERS}/${res.body.id}`).set(auth(admin)).send({ is_active: true })).status).toBe(
        200,
      );
      const token = await login(api, 'signup.person@example.com', fields.password);
      expect((await api.http.get(`${USERS}/me`).set(auth(token))).body.id).toBe(res.body.id);
    });

    it('refuses an e-mail that exists in another letter case with 409, keeping the first account', async () => {
      const first = alice;
      const res = await api.http
        .post(`${USERS}/signup`)
        .send(newUser({ email: first.email.toUpperCase(), password: 'someone-elses-pw' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'The user with this email already exists in the system' });
      expect(await loginStatus(api, first.email, first.password)).toBe(200);
      expect(await loginStatus(api, first.email, 'someone-elses-pw')).toBe(400);
    });

    it('refuses rights asked for at signup (unknown field, 422) and creates nothing', async () => {
      const fields = newUser();
      const res = await api.http.post(`${USERS}/signup`).send({ ...fields, is_superuser: true });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          { loc: ['body', 'is_superuser'], msg: 'property is_superuser should not exist', type: 'whitelistValidation' },
        ],
      });
      expect(await loginStatus(api, fields.email, fields.password)).toBe(400);
    });

    it('answers 422 with loc/msg/type for an invalid e-mail and a short password', async () => {
      const res = await api.http.post(`${USERS}/signup`).send({ email: 'not-an-email', password: 'short' });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual(
        expect.arrayContaining([
          { loc: ['body', 'email'], msg: 'value is not a valid email address', type: 'isEmail' },
          { loc: ['body', 'password'], msg: 'Password must be at least 8 characters', type: 'minLength' },
        ]),
      );
      for (const d of res.body.detail) expect(Object.keys(d).sort()).toEqual(['loc', 'msg', 'type']);
    });

    it('answers 400 with a detail for malformed JSON', async () => {
      const res = await api.http
        .post(`${USERS}/signup`)
        .set('Content-Type', 'application/json')
        .send('{"email": "a@example.com", ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.any(String) });
    });
  });

  describe('/users/me', () => {
    it('reads the caller and answers 401 without a token', async () => {
      const u = alice;
      const res = await api.http.get(`${USERS}/me`).set(auth(u.token));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: u.id,
        email: u.email,
        full_name: u.full_name,
        is_active: true,
        is_superuser: false,
        must_change_password: false,
      });
      expect((await api.http.get(`${USERS}/me`)).status).toBe(401);
    });

    it('updates own name and e-mail (stored lower-cased; the new e-mail signs in)', async () => {
      const u = await signUpUser(api);
      const fresh = newUser();
      const res = await api.http
        .patch(`${USERS}/me`)
        .set(auth(u.token))
        .send({ full_name: 'Renamed Person', email: fresh.email.toUpperCase(), current_password: u.password });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: u.id, full_name: 'Renamed Person', email: fresh.email });
      expect(await loginStatus(api, fresh.email, u.password)).toBe(200);
      expect(await loginStatus(api, u.email, u.password)).toBe(400);
    });

    it("refuses another account's e-mail in any letter case with 409", async () => {
      const u = alice;
      const res = await api.http
        .patch(`${USERS}/me`)
        .set(auth(u.token))
        .send({ email: SUPERUSER.email.toUpperCase(), current_password: u.password });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'The user with this email already exists in the system' });
      expect((await api.http.get(`${USERS}/me`).set(auth(u.token))).body.email).toBe(u.email);
    });

    it('lets nobody raise their own rights: is_superuser and is_active are refused fields', async () => {
      const u = alice;
      for (const body of [{ is_superuser: true }, { is_active: true }, { full_name: 'x', is_superuser: true }]) {
        const res = await api.http.patch(`${USERS}/me`).set(auth(u.token)).send(body);
        expect(res.status).toBe(422);
        expect(res.body.detail[0]).toMatchObject({
          loc: ['body', Object.keys(body).at(-1)],
          type: 'whitelistValidation',
        });
      }
      expect((await api.http.get(`${USERS}/me`).set(auth(u.token))).body).toMatchObject({
        is_superuser: false,
        full_name: u.full_name,
      });
      expect((await api.http.get(USERS).set(auth(u.token))).status).toBe(403);
    });

    it('refuses null for a required field (422, not a server error)', async () => {
      const u = await signUpUser(api);
      const res = await api.http.patch(`${USERS}/me`).set(auth(u.token)).send({ email: null });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'email']);
      // full_name may be cleared.
      const cleared = await api.http.patch(`${USERS}/me`).set(auth(u.token)).send({ full_name: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ full_name: null, email: u.email });
    });

    it('changes the password: wrong current one → 400, same one → 400, then the new one works and the old one not', async () => {
      const u = await signUpUser(api);
      const path = `${USERS}/me/password`;
      const wrong = await api.http
        .patch(path)
        .set(auth(u.token))
        .send({ current_password: 'not-my-password', new_password: 'next-password-1' });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ detail: 'Incorrect password' });
      const same = await api.http
        .patch(path)
        .set(auth(u.token))
        .send({ current_password: u.password, new_password: u.password });
      expect(same.status).toBe(400);
      expect(same.body).toEqual({ detail: 'New password cannot be the same as the current one' });
      const short = await api.http
        .patch(path)
        .set(auth(u.token))
        .send({ current_password: u.password, new_password: 'short' });
      expect(short.status).toBe(422);
      expect(short.body.detail).toEqual([
        { loc: ['body', 'new_password'], msg: 'Password must be at least 8 characters', type: 'minLength' },
      ]);
      const ok = await api.http
        .patch(path)
        .set(auth(u.token))
        .send({ current_password: u.password, new_password: 'next-password-1' });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ message: 'Password updated successfully' });
      expect(await loginStatus(api, u.email, 'next-password-1')).toBe(200);
      expect(await loginStatus(api, u.email, u.password)).toBe(400);
    });

    it('deletes an ordinary account (its token then 401, its login 400), never a superuser', async () => {
      const u = await signUpUser(api);
      const res = await api.http.delete(`${USERS}/me`).set(auth(u.token));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User deleted successfully' });
      expect((await api.http.get(`${USERS}/me`).set(auth(u.token))).status).toBe(401);
      expect(await loginStatus(api, u.email, u.password)).toBe(400);
      const su = await api.http.delete(`${USERS}/me`).set(auth(admin));
      expect(su.status).toBe(403);
      expect(su.body).toEqual({ detail: 'Super users are not allowed to delete themselves' });
      expect((await api.http.get(`${USERS}/me`).set(auth(admin))).status).toBe(200);
    });
  });

  describe('superuser CRUD', () => {
    it('creates accounts with the rights asked for; the created superuser can administer', async () => {
      const fields = newUser();
      const res = await api.http
        .post(USERS)
        .set(auth(admin))
        .send({ ...fields, is_superuser: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        email: fields.email,
        full_name: fields.full_name,
        is_superuser: true,
        is_active: true,
      });
      const token = await login(api, fields.email, fields.password);
      expect((await api.http.get(USERS).set(auth(token))).status).toBe(200);

      const inactive = newUser();
      const off = await api.http
        .post(USERS)
        .set(auth(admin))
        .send({ ...inactive, is_active: false });
      expect(off.body).toMatchObject({ is_active: false, is_superuser: false });
      expect(await loginStatus(api, inactive.email, inactive.password)).toBe(400);
    });

    it('refuses a duplicate e-mail in any letter case with 409', async () => {
      const existing = alice;
      const res = await api.http
        .post(USERS)
        .set(auth(admin))
        .send(newUser({ email: existing.email.toUpperCase() }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'The user with this email already exists in the system' });
    });

    it('lists accounts as {data, count}, paged by skip and limit', async () => {
      const all = await api.http.get(`${USERS}/`).set(auth(admin));
      expect(all.status).toBe(200);
      expect(all.body.count).toBeGreaterThanOrEqual(2);
      expect(all.body.data).toHaveLength(all.body.count);
      for (const u of all.body.data)
        expect(Object.keys(u).sort()).toEqual([
          'email',
          'full_name',
          'id',
          'is_active',
          'is_superuser',
          'must_change_password',
        ]);
      expect(all.body.data.some((u: { email: string }) => u.email === SUPERUSER.email)).toBe(true);

      const page = await api.http.get(USERS).query({ skip: 1, limit: 1 }).set(auth(admin));
      expect(page.body).toEqual({ data: [all.body.data[1]], count: all.body.count });
      const beyond = await api.http.get(USERS).query({ skip: all.body.count, limit: 5 }).set(auth(admin));
      expect(beyond.body).toEqual({ data: [], count: all.body.count });
    });

    it('answers 422 for bad paging parameters and unknown query fields', async () => {
      const bad = await api.http.get(USERS).query({ skip: -1, limit: 0 }).set(auth(admin));
      expect(bad.status).toBe(422);
      const locs = bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
      expect(locs).toEqual(expect.arrayContaining(['query.skip', 'query.limit']));
      const unknown = await api.http.get(USERS).query({ page: 2 }).set(auth(admin));
      expect(unknown.status).toBe(422);
      expect(unknown.body.detail).toEqual([
        { loc: ['query', 'page'], msg: 'property page should not exist', type: 'whitelistValidation' },
      ]);
    });

    it('reads an account by id: any as superuser (404 when missing), only themself as a user', async () => {
      const u = alice;
      expect((await api.http.get(`${USERS}/${u.id}`).set(auth(admin))).body).toMatchObject({
        id: u.id,
        email: u.email,
      });
      expect((await api.http.get(`${USERS}/${u.id}`).set(auth(u.token))).body).toMatchObject({ id: u.id });
      // Letter case of the id does not matter.
      expect((await api.http.get(`${USERS}/${u.id.toUpperCase()}`).set(auth(u.token))).status).toBe(200);
      const other = await api.http.get(`${USERS}/${adminId}`).set(auth(u.token));
      expect(other.status).toBe(403);
      expect(other.body).toEqual({ detail: "The user doesn't have enough privileges" });
      const missing = await api.http.get(`${USERS}/${NO_SUCH_ID}`).set(auth(admin));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: 'The user with this id does not exist in the system' });
    });

    it('answers 422 naming the path parameter for an id that is not a UUID', async () => {
      for (const method of ['get', 'patch', 'delete'] as const) {
        const res = await api.http[method](`${USERS}/not-a-uuid`)
          .set(auth(admin))
          .send(method === 'patch' ? { full_name: 'x' } : undefined);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          detail: [{ loc: ['path', 'user_id'], msg: expect.any(String), type: expect.any(String) }],
        });
      }
    });

    it("updates another account's name, e-mail, password and rights", async () => {
      const u = await signUpUser(api);
      const fresh = newUser();
      const res = await api.http.patch(`${USERS}/${u.id}`).set(auth(admin)).send({
        full_name: 'Changed By Admin',
        email: fresh.email.toUpperCase(),
        password: 'set-by-admin-1',
        is_superuser: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: u.id,
        email: fresh.email,
        full_name: 'Changed By Admin',
        is_active: true,
        is_superuser: true,
        must_change_password: false,
      });
      expect(await loginStatus(api, fresh.email, 'set-by-admin-1')).toBe(200);
      expect(await loginStatus(api, fresh.email, u.password)).toBe(400);
      // The new password revoked the tokens issued before; a new sign-in carries the new rights.
      expect((await api.http.get(USERS).set(auth(u.token))).status).toBe(401);
      expect((await api.http.get(USERS).set(auth(await login(api, fresh.email, 'set-by-admin-1')))).status).toBe(200);
    });

    it('refuses a duplicate e-mail (409), null for required fields (422) and an unknown id (404)', async () => {
      const u = await signUpUser(api);
      const dup = await api.http
        .patch(`${USERS}/${u.id}`)
        .set(auth(admin))
        .send({ email: SUPERUSER.email.toUpperCase() });
      expect(dup.status).toBe(409);
      for (const field of ['is_active', 'is_superuser', 'email', 'password']) {
        const res = await api.http
          .patch(`${USERS}/${u.id}`)
          .set(auth(admin))
          .send({ [field]: null });
        expect(res.status).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['body', field]);
      }
      expect((await api.http.get(`${USERS}/${u.id}`).set(auth(admin))).body).toMatchObject({
        email: u.email,
        is_active: true,
        is_superuser: false,
      });
      expect((await api.http.patch(`${USERS}/${NO_SUCH_ID}`).set(auth(admin)).send({ full_name: 'x' })).status).toBe(
        404,
      );
    });

    it('forbids a superuser to revoke their own rights', async () => {
      for (const body of [{ is_superuser: false }, { is_active: false }]) {
        const res = await api.http.patch(`${USERS}/${adminId}`).set(auth(admin)).send(body);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ detail: 'Super users are not allowed to revoke their own rights' });
      }
      expect((await api.http.get(`${USERS}/me`).set(auth(admin))).body).toMatchObject({
        is_superuser: true,
        is_active: true,
      });
    });

    it('deletes another account (its token then 401), never themself, 404 when missing', async () => {
      const u = await signUpUser(api);
      const res = await api.http.delete(`${USERS}/${u.id}`).set(auth(admin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User deleted successfully' });
      expect((await api.http.get(`${USERS}/me`).set(auth(u.token))).status).toBe(401);
      expect((await api.http.delete(`${USERS}/${u.id}`).set(auth(admin))).status).toBe(404);
      const self = await api.http.delete(`${USERS}/${adminId}`).set(auth(admin));
      expect(self.status).toBe(403);
      expect(self.body).toEqual({ detail: 'Super users are not allowed to delete themselves' });
      expect((await api.http.get(`${USERS}/me`).set(auth(admin))).status).toBe(200);
    });
  });
});
