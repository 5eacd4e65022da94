// Who may call what. First the accounts routes × {anonymous, user, superuser} with the exact answer
// each caller gets; then, for the whole app (every route of every domain, found at run time), that
// every route carries an access rule and that none but the public ones answers an anonymous caller.
import { randomUUID } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { login, SUPERUSER } from '@furnace/testing';
import type { AccessRule } from '../src/auth/access.decorator';
import { listRouteRules, type RouteRule } from '../src/core/access-rules.check';
import { auth, newUser, signUpUser, startTestApi, type TestApi } from './harness';

type Role = 'anonymous' | 'user' | 'superuser';
const ROLES: Role[] = ['anonymous', 'user', 'superuser'];

/** The account making the call (none for anonymous). */
interface Caller {
  token?: string;
  id?: string;
  email: string;
  password: string;
}

interface Row {
  /** Controller.handler, as listRouteRules names it. */
  route: string;
  rule: AccessRule;
  /** Which case of the route this row is, when a route has several. */
  variant?: string;
  expected: Record<Role, number>;
  /** The call needs an account of its own because it changes or deletes the caller. */
  ownAccount?: boolean;
  send(caller: Caller, role: Role): PromiseLike<Response>;
}

let api: TestApi;
let admin: Caller;
let user: Caller;

const as = (t: Test, caller: Caller) => (caller.token ? t.set(auth(caller.token)) : t);
/** A throwaway account made by the superuser, for calls that change or delete their target. */
async function target(fields: { is_superuser?: boolean } = {}) {
  const u = newUser();
  const res = await api.http
    .post('/api/v1/users/')
    .set(auth(admin.token!))
    .send({ ...u, ...fields });
  if (res.status !== 200) throw new Error(`could not create a target account: ${res.status} ${res.text}`);
  return { ...u, id: res.body.id as string };
}
async function ownAccount(role: Role): Promise<Caller> {
  if (role === 'anonymous') return { email: 'nobody@example.com', password: 'nobody-password' };
  if (role === 'user') return signUpUser(api);
  const su = await target({ is_superuser: true });
  return { ...su, token: await login(api, su.email, su.password) };
}
async function resetTokenFor(email: string): Promise<string> {
  const html = await api.http.post(`/api/v1/password-recovery-html-content/${email}`).set(auth(admin.token!));
  return new URL(/http:\/\/dashboard\.test\/reset-password\?token=[^"\s<]+/.exec(html.text)![0]).searchParams.get(
    'token',
  )!;
}

const ALL_200 = { anonymous: 200, user: 200, superuser: 200 };
const SIGNED_IN = { anonymous: 401, user: 200, superuser: 200 };
const SUPERUSER_ONLY = { anonymous: 401, user: 403, superuser: 200 };

const MATRIX: Row[] = [
  {
    route: 'AuthController.login',
    rule: 'public',
    expected: ALL_200,
    send: (c, role) =>
      api.http
        .post('/api/v1/login/access-token')
        .type('form')
        .send(
          role === 'anonymous'
            ? { username: user.email, password: user.password }
            : { username: c.email, password: c.password },
        ),
  },
  {
    route: 'AuthController.testToken',
    rule: 'user',
    expected: SIGNED_IN,
    send: (c) => as(api.http.post('/api/v1/login/test-token'), c),
  },
  {
    route: 'AuthController.recover',
    rule: 'public',
    expected: ALL_200,
    send: (c, role) => as(api.http.post(`/api/v1/password-recovery/${role === 'anonymous' ? user.email : c.email}`), c),
  },
  {
    route: 'AuthController.reset',
    rule: 'public',
    expected: ALL_200,
    send: async (c) => {
      const t = await target();
      return as(api.http.post('/api/v1/reset-password/'), c).send({
        token: await resetTokenFor(t.email),
        new_password: 'reset-in-the-matrix',
      });
    },
  },
  {
    route: 'AuthController.recoveryHtml',
    rule: 'superuser',
    expected: SUPERUSER_ONLY,
    send: (c) => as(api.http.post(`/api/v1/password-recovery-html-content/${user.email}`), c),
  },
  {
    route: 'UsersController.list',
    rule: 'superuser',
    expected: SUPERUSER_ONLY,
    send: (c) => as(api.http.get('/api/v1/users/').query({ skip: 0, limit: 5 }), c),
  },
  {
    route: 'UsersController.create',
    rule: 'superuser',
    expected: SUPERUSER_ONLY,
    send: (c) => as(api.http.post('/api/v1/users/'), c).send(newUser()),
  },
  {
    route: 'UsersController.signup',
    rule: 'public',
    expected: ALL_200,
    send: (c) => as(api.http.post('/api/v1/users/signup'), c).send(newUser()),
  },
  {
    route: 'UsersController.me',
    rule: 'user',
    expected: SIGNED_IN,
    send: (c) => as(api.http.get('/api/v1/users/me'), c),
  },
  {
    route: 'UsersController.updateMe',
    rule: 'user',
    expected: SIGNED_IN,
    send: (c) => as(api.http.patch('/api/v1/users/me'), c).send({ full_name: 'Matrix Name' }),
  },
  {
    route: 'UsersController.updatePassword',
    rule: 'user',
    expected: SIGNED_IN,
    ownAccount: true,
    send: (c) =>
      as(api.http.patch('/api/v1/users/me/password'), c).send({
        current_password: c.password,
        new_password: 'changed-in-the-matrix',
      }),
  },
  // A superuser may not delete themself: the one cell where a signed-in superuser is refused.
  {
    route: 'UsersController.deleteMe',
    rule: 'user',
    expected: { anonymous: 401, user: 200, superuser: 403 },
    ownAccount: true,
    send: (c) => as(api.http.delete('/api/v1/users/me'), c),
  },
  {
    route: 'UsersController.get',
    rule: 'user',
    variant: 'another account',
    expected: SUPERUSER_ONLY,
    send: async (c) => as(api.http.get(`/api/v1/users/${(await target()).id}`), c),
  },
  {
    route: 'UsersController.get',
    rule: 'user',
    variant: 'themself',
    expected: SIGNED_IN,
    send: (c) => as(api.http.get(`/api/v1/users/${c.id ?? randomUUID()}`), c),
  },
  {
    route: 'UsersController.update',
    rule: 'superuser',
    expected: SUPERUSER_ONLY,
    send: async (c) => as(api.http.patch(`/api/v1/users/${(await target()).id}`), c).send({ full_name: 'Renamed' }),
  },
  {
    route: 'UsersController.delete',
    rule: 'superuser',
    expected: SUPERUSER_ONLY,
    send: async (c) => as(api.http.delete(`/api/v1/users/${(await target()).id}`), c),
  },
];

beforeAll(async () => {
  api = await startTestApi();
  admin = { ...SUPERUSER, token: await login(api, SUPERUSER.email, SUPERUSER.password) };
  admin.id = (await api.http.get('/api/v1/users/me').set(auth(admin.token!))).body.id;
  user = await signUpUser(api);
});
afterAll(() => api?.close());

describe('access-control matrix of the accounts routes', () => {
  const cells = MATRIX.flatMap((row) =>
    ROLES.map((role) => [`${row.route}${row.variant ? ` (${row.variant})` : ''}`, role, row] as const),
  );

  it.each(cells)('%s as %s', async (_name, role, row) => {
    const caller =
      role === 'anonymous'
        ? { email: '', password: '' }
        : row.ownAccount
          ? await ownAccount(role)
          : role === 'user'
            ? user
            : admin;
    const res: Response = await row.send(caller, role);
    const want = row.expected[role];
    // Refusals carry the {"detail"} the dashboard shows; the status is what it acts on.
    expect({ status: res.status, body: res.status >= 400 ? res.body : 'not checked' }).toEqual({
      status: want,
      body: want >= 400 ? { detail: want === 401 ? 'Not authenticated' : expect.any(String) } : 'not checked',
    });
  });

  it('covers every accounts route, with the rule each carries', () => {
    const accounts = listRouteRules(api.app).filter((r) => /^(AuthController|UsersController)\./.test(r.route));
    const served = Object.fromEntries(accounts.map((r) => [r.route, r.rule]));
    const tested = Object.fromEntries(MATRIX.map((r) => [r.route, r.rule]));
    // A new accounts route fails here until it has its row in the matrix.
    expect(tested).toEqual(served);
  });
});

describe('access rules of the whole app', () => {
  let routes: RouteRule[];
  beforeAll(() => {
    routes = listRouteRules(api.app);
  });

  it('gives every route an access rule', () => {
    const valid: AccessRule[] = ['public', 'user', 'superuser', 'research'];
    expect(routes.filter((r) => !valid.includes(r.rule as AccessRule)).map((r) => r.route)).toEqual([]);
  });

  it('lists every operation the API documents (so the checks here see every route)', async () => {
    const doc = (await api.http.get('/api/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const listed = new Set(routes.flatMap((r) => r.paths.map((p) => `${r.method} ${p.replace(/:(\w+)/g, '{$1}')}`)));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter((op) => !listed.has(op))).toEqual([]);
  });

  it('answers an anonymous caller 401 on every route that is not public', async () => {
    const answers: string[] = [];
    for (const r of routes.filter((x) => x.rule !== 'public')) {
      for (const path of r.paths) {
        const url = path.replace(/:\w+/g, () => randomUUID());
        const method = (r.method === 'ALL' ? 'get' : r.method.toLowerCase()) as
          'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
        const res = await api.http[method](url);
        answers.push(`${r.method} ${path} (${r.route}) → ${res.status}`);
      }
    }
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((a) => !a.endsWith('→ 401'))).toEqual([]);
  });
});
