// The request log: one line per request with its method, its path (never the query string, which may
// carry ?code=, ?token= or ?ticket=), its status, its duration and its request id, echoed to the caller.
import { Writable } from 'node:stream';
import { createLogger } from '@furnace/logger';
import { login, SUPERUSER } from '@furnace/testing';
import { startTestApi, type TestApi } from '../harness';

interface RequestLine {
  level: string;
  msg: string;
  reqId?: string;
  req: { id: string; method: string; path: string };
  res: { status: number };
  ms: number;
}

describe('security: the request log', () => {
  let api: TestApi;
  let output = '';
  const lines = () =>
    output
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RequestLine)
      .filter((l) => l.req && l.res);

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    // What production logs (JSON, every level), written where the test reads it.
    api = await startTestApi({}, { logger: createLogger({ logFormat: 'json', env: 'production' }, 'furnace', sink) });
  });
  afterAll(() => api?.close());
  beforeEach(() => (output = ''));

  it('logs the path of a request with ?code= without the code, with the request id the proxy gave, and echoes that id', async () => {
    const id = '2f7c3a51-6f1e-4d7b-9a3e-0c2b1d4e5f60';
    const res = await api.http
      .get(`/api/v1/research/${id}?code=secret-code-8d1f`)
      .set('X-Request-Id', 'proxy-request-42');
    expect(res.status).toBe(401);
    expect(res.headers['x-request-id']).toBe('proxy-request-42');

    expect(output).not.toContain('secret-code-8d1f');
    expect(output).not.toContain('?');
    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        req: { id: 'proxy-request-42', method: 'GET', path: `/api/v1/research/${id}` },
        res: { status: 401 },
        ms: expect.any(Number),
      }),
    ]);
  });

  it('replaces a request id that does not look like one by a new one, and logs the one it answered with', async () => {
    const res = await api.http
      .get('/api/v1/users/me?token=secret-token-77')
      .set('X-Request-Id', 'not an id; "injected": true');
    const answered = res.headers['x-request-id'] as string;
    expect(answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(lines()).toEqual([
      expect.objectContaining({ req: { id: answered, method: 'GET', path: '/api/v1/users/me' }, res: { status: 401 } }),
    ]);
    expect(output).not.toContain('injected');
    expect(output).not.toContain('secret-token-77');
  });

  it('never logs the Authorization header, a body or a password, and gives each request its own id', async () => {
    const token = await login(api, SUPERUSER.email, SUPERUSER.password);
    const me = await api.http
      .get('/api/v1/users/me')
      .set('Authorization', `Bearer ${token}`)
      .set('Cookie', 'session=cookie-secret-5');
    expect(me.status).toBe(200);
    for (const secret of [token, SUPERUSER.password, 'cookie-secret-5']) expect(output).not.toContain(secret);
    const logged = lines();
    expect(logged.map((l) => [l.req.method, l.req.path, l.res.status])).toEqual([
      ['POST', '/api/v1/login/access-token', 200],
      ['GET', '/api/v1/users/me', 200],
    ]);
    expect(new Set(logged.map((l) => l.req.id)).size).toBe(2);
  });

  it('keeps the polled endpoints quiet: no line per health probe', async () => {
    expect((await api.http.get('/api/v1/health')).status).toBe(200);
    expect((await api.http.get('/api/v1/health/')).status).toBe(200);
    expect((await api.http.get('/api/v1/metrics')).status).toBe(200);
    expect(lines()).toEqual([]);
  });
});
