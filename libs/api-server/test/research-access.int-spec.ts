import { login, SUPERUSER } from '@furnace/testing';
import { addClient, createResearch, SPECIMEN_PNG, uploadConfig, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';

/**
 * Who may call each research route. Callers: anonymous; a client holding a code of THIS research
 * (as a viewer token); a client of ANOTHER research; a signed-in user; a superuser.
 */
type Caller = 'anonymous' | 'viewer' | 'otherViewer' | 'user' | 'superuser';
const CALLERS: Caller[] = ['anonymous', 'viewer', 'otherViewer', 'user', 'superuser'];

interface Ids {
  research: string;
  url: string;
  email: string;
  config: string;
  observation: string;
  exclusion: string;
  drawing: string;
}
interface Route {
  name: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: (ids: Ids) => string;
  body?: (ids: Ids) => object;
  /** Which callers get in (any 2xx, or 404/409/422/502 after passing the gate); the rest must get 401 or 403. */
  allowed: Caller[];
}

const staff: Caller[] = ['user', 'superuser'];
const readers: Caller[] = ['viewer', 'user', 'superuser'];

const ROUTES: Route[] = [
  { name: 'list researches', method: 'get', path: () => '/api/v1/research/', allowed: staff },
  {
    name: 'create research',
    method: 'post',
    path: () => '/api/v1/research/',
    body: () => ({ name: 'x', start_at: '2026-01-01T00:00:00Z', end_at: '2026-01-01T01:00:00Z' }),
    allowed: staff,
  },
  { name: 'read research', method: 'get', path: (i) => `/api/v1/research/${i.research}`, allowed: readers },
  { name: 'report PDF', method: 'get', path: (i) => `/api/v1/research/${i.research}/report.pdf`, allowed: staff },
  {
    name: 'classification PDF',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/classification.pdf`,
    allowed: staff,
  },
  { name: 'list drawings', method: 'get', path: (i) => `/api/v1/research/${i.research}/drawings`, allowed: staff },
  { name: 'attach drawing', method: 'post', path: (i) => `/api/v1/research/${i.research}/drawings`, allowed: staff },
  {
    name: 'download drawing',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/drawings/${i.drawing}`,
    allowed: staff,
  },
  {
    name: 'delete drawing',
    method: 'delete',
    path: (i) => `/api/v1/research/${i.research}/drawings/${i.drawing}`,
    allowed: staff,
  },
  {
    name: 'update research',
    method: 'put',
    path: (i) => `/api/v1/research/${i.research}`,
    body: () => ({ is_pressure: true }),
    allowed: staff,
  },
  { name: 'list links', method: 'get', path: (i) => `/api/v1/research/${i.research}/urls`, allowed: readers },
  { name: 'read link', method: 'get', path: (i) => `/api/v1/research/urls/${i.url}`, allowed: staff },
  {
    name: 'create link',
    method: 'post',
    path: () => '/api/v1/research/urls',
    body: (i) => ({ research_id: i.research, url: 'https://x.example/a' }),
    allowed: staff,
  },
  {
    name: 'update link',
    method: 'put',
    path: (i) => `/api/v1/research/urls/${i.url}`,
    body: () => ({ url: 'https://x.example/b' }),
    allowed: staff,
  },
  { name: 'list e-mails', method: 'get', path: (i) => `/api/v1/research/${i.research}/emails`, allowed: staff },
  { name: 'read e-mail', method: 'get', path: (i) => `/api/v1/research/emails/${i.email}`, allowed: staff },
  {
    name: 'create e-mail',
    method: 'post',
    path: () => '/api/v1/research/emails',
    body: (i) => ({ research_id: i.research, email: `m${Math.random()}@example.com`.replace('0.', '') }),
    allowed: staff,
  },
  {
    name: 'update e-mail',
    method: 'put',
    path: (i) => `/api/v1/research/emails/${i.email}`,
    body: () => ({ email: 'client@example.com' }),
    allowed: staff,
  },
  { name: 'send e-mail', method: 'post', path: (i) => `/api/v1/research/emails/${i.email}/send`, allowed: staff },
  {
    name: 'send all e-mails',
    method: 'post',
    path: (i) => `/api/v1/research/${i.research}/emails/send`,
    allowed: staff,
  },
  { name: 'list configs', method: 'get', path: (i) => `/api/v1/research/${i.research}/thermo`, allowed: readers },
  { name: 'read config', method: 'get', path: (i) => `/api/v1/research/thermo/${i.config}`, allowed: readers },
  { name: 'config photo', method: 'get', path: (i) => `/api/v1/research/thermo/${i.config}/image`, allowed: readers },
  { name: 'config file', method: 'get', path: (i) => `/api/v1/research/thermo/${i.config}/config`, allowed: staff },
  {
    name: 'replace config file',
    method: 'put',
    path: (i) => `/api/v1/research/thermo/${i.config}/config`,
    allowed: staff,
  },
  {
    name: 'config markers',
    method: 'get',
    path: (i) => `/api/v1/research/thermo/${i.config}/coords`,
    allowed: readers,
  },
  {
    name: 'research markers',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/thermo/coords`,
    allowed: readers,
  },
  {
    name: 'list observations',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/observations`,
    allowed: readers,
  },
  {
    name: 'record observation',
    method: 'post',
    path: (i) => `/api/v1/research/${i.research}/observations`,
    body: () => ({ time: 10, kind: 'note', note: 'n' }),
    allowed: staff,
  },
  {
    name: 'change observation',
    method: 'patch',
    path: (i) => `/api/v1/research/observations/${i.observation}`,
    body: () => ({ visible_to_clients: true }),
    allowed: staff,
  },
  {
    name: 'delete observation',
    method: 'delete',
    path: (i) => `/api/v1/research/observations/${i.observation}`,
    allowed: staff,
  },
  {
    name: 'list exclusions',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/exclusions`,
    allowed: readers,
  },
  {
    name: 'exclude thermocouple',
    method: 'post',
    path: (i) => `/api/v1/research/${i.research}/exclusions`,
    body: () => ({ thermo_id: 2, from_time: 60, reason: 'r' }),
    allowed: staff,
  },
  {
    name: 'delete exclusion',
    method: 'delete',
    path: (i) => `/api/v1/research/exclusions/${i.exclusion}`,
    allowed: staff,
  },
  { name: 'criteria', method: 'get', path: (i) => `/api/v1/research/${i.research}/criteria`, allowed: readers },
  {
    name: 'replay frames',
    method: 'get',
    path: (i) => `/api/v1/research/${i.research}/frames?from=0&to=60`,
    allowed: staff,
  },
  { name: 'measurement types', method: 'get', path: () => '/api/v1/measurement-types', allowed: CALLERS },
];

describe('research access-control matrix', () => {
  let api: TestApi;
  const tokens: Partial<Record<Caller, string>> = {};
  let ids: Ids;

  beforeAll(async () => {
    api = await startTestApi();
    tokens.superuser = await login(api, SUPERUSER.email, SUPERUSER.password);
    tokens.user = (await signUpUser(api)).token;
    const r = await createResearch(api, tokens.user);
    const other = await createResearch(api, tokens.user);
    const code = (await addClient(api, tokens.user, r.id, 'client@example.com')).id;
    const otherCode = (await addClient(api, tokens.user, other.id, 'other@example.com')).id;
    tokens.viewer = await viewerToken(api, r.id, code);
    tokens.otherViewer = await viewerToken(api, other.id, otherCode);
    const url = (
      await api.http
        .post('/api/v1/research/urls')
        .set(auth(tokens.user))
        .send({ research_id: r.id, url: 'https://cam.example/1' })
    ).body.id;
    const config = (await uploadConfig(api, tokens.user, r.id, SPECIMEN_PNG)).body.id;
    // A spare e-mail record the matrix may change freely (the client's code must stay valid).
    const email = (await addClient(api, tokens.user, r.id, 'spare@example.com')).id;
    const observation = (
      await api.http
        .post(`/api/v1/research/${r.id}/observations`)
        .set(auth(tokens.user))
        .send({ time: 5, kind: 'cotton_pad' })
    ).body.id;
    const exclusion = (
      await api.http
        .post(`/api/v1/research/${r.id}/exclusions`)
        .set(auth(tokens.user))
        .send({ thermo_id: 1, from_time: 0, reason: 'wire' })
    ).body.id;
    const drawing = (
      await api.http
        .post(`/api/v1/research/${r.id}/drawings`)
        .set(auth(tokens.user))
        .attach('file', SPECIMEN_PNG, 'widok.png')
    ).body.id;
    if (!observation || !exclusion || !drawing) throw new Error('observation, exclusion or drawing not created');
    ids = { research: r.id, url, email, config, observation, exclusion, drawing };
  });
  afterAll(() => api?.close());

  const table: [string, Caller, boolean][] = ROUTES.flatMap((r) =>
    CALLERS.map((c) => [r.name, c, r.allowed.includes(c)] as [string, Caller, boolean]),
  );

  it.each(table)('%s as %s → allowed: %s', async (name, caller, allowed) => {
    const route = ROUTES.find((r) => r.name === name)!;
    let req = api.http[route.method](route.path(ids));
    const token = tokens[caller];
    if (token) req = req.set(auth(token));
    if (route.body) req = req.send(route.body(ids));
    const res = await req;
    if (allowed) {
      expect([401, 403]).not.toContain(res.status);
    } else {
      expect(res.status).toBe(caller === 'anonymous' ? 401 : 403);
    }
  });

  it('refuses a code of another research, a made-up code and a malformed one', async () => {
    const exchange = (code: string) => api.http.post(`/api/v1/research/${ids.research}/viewer-token`).send({ code });
    const otherCode = (await api.http.get(`/api/v1/research/${ids.research}/emails`).set(auth(tokens.user!))).body
      .data[0].id;
    expect((await exchange(otherCode)).status).toBe(200);
    expect((await exchange('00000000-0000-4000-8000-000000000000')).status).toBe(403);
    expect((await exchange("' OR 1=1 --")).status).toBe(403);
    expect(
      (
        await api.http
          .post('/api/v1/research/00000000-0000-4000-8000-000000000000/viewer-token')
          .send({ code: otherCode })
      ).status,
    ).toBe(404);
  });

  it('never lets a viewer delete, even its own research', async () => {
    expect((await api.http.delete(`/api/v1/research/${ids.research}`).set(auth(tokens.viewer!))).status).toBe(403);
    expect((await api.http.delete(`/api/v1/research/thermo/${ids.config}`).set(auth(tokens.viewer!))).status).toBe(403);
    expect((await api.http.delete(`/api/v1/research/urls/${ids.url}`).set(auth(tokens.viewer!))).status).toBe(403);
    expect((await api.http.get(`/api/v1/users/me`).set(auth(tokens.viewer!))).status).toBe(403);
  });

  it('lets only a superuser delete a research', async () => {
    const r = await createResearch(api, tokens.user!);
    expect((await api.http.delete(`/api/v1/research/${r.id}`)).status).toBe(401);
    expect((await api.http.delete(`/api/v1/research/${r.id}`).set(auth(tokens.user!))).status).toBe(403);
    expect((await api.http.delete(`/api/v1/research/${r.id}`).set(auth(tokens.otherViewer!))).status).toBe(403);
    expect((await api.http.delete(`/api/v1/research/${r.id}`).set(auth(tokens.superuser!))).status).toBe(200);
  });
});
