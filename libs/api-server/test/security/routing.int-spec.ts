import { startTestApi, type TestApi } from '../harness';

/*
 * The proxy refuses /api/v1/metrics (infra/nginx/nginx.conf). Were the API's routes case-insensitive,
 * any other spelling would reach the metrics past a proxy rule written for one spelling.
 */
describe('security: routing', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api?.close());

  it('routes case-sensitively: /api/v1/METRICS is not the metrics', async () => {
    // From this machine (loopback, no proxy) the real path answers: the other spellings are refused by routing alone.
    const real = await api.http.get('/api/v1/metrics');
    expect(real.status).toBe(200);
    expect(real.text).toContain('# HELP');
    for (const path of ['/api/v1/METRICS', '/api/v1/Metrics', '/API/V1/METRICS', '/Api/v1/metrics']) {
      const res = await api.http.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toContain('# HELP');
    }
    expect((await api.http.get('/api/v1/HEALTH')).status).toBe(404);
    expect((await api.http.get('/api/v1/health')).status).toBe(200);
  });
});
