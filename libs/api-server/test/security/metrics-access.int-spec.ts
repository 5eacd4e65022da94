// GET /api/v1/metrics as `npm start` serves it, with no proxy in front to hide it (README "Metrics").
import { startTestApi, type TestApi } from '../harness';

const TOKEN = 'a-metrics-token-of-at-least-32-characters';

describe('security: the metrics', () => {
  describe('without METRICS_TOKEN', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi();
    });
    afterAll(() => api?.close());

    it('serves this machine, and refuses a request relayed by a proxy on it, TRUST_PROXY or not', async () => {
      const local = await api.http.get('/api/v1/metrics');
      expect(local.status).toBe(200);
      expect(local.text).toContain('# HELP furnace_live_viewers');
      for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP']) {
        const relayed = await api.http.get('/api/v1/metrics').set(header, '127.0.0.1');
        expect([header, relayed.status]).toEqual([header, 403]);
        expect(relayed.text).not.toContain('# HELP');
      }
      const trusting = await startTestApi({ TRUST_PROXY: '127.0.0.1,::1' }, { db: api.db });
      try {
        expect((await trusting.http.get('/api/v1/metrics').set('X-Forwarded-For', '10.1.2.3')).status).toBe(403);
      } finally {
        await trusting.close();
      }
    });
  });

  describe('with METRICS_TOKEN', () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startTestApi({ METRICS_TOKEN: TOKEN });
    });
    afterAll(() => api?.close());

    it("serves Prometheus's request that carries the token, and nothing else", async () => {
      const scrape = await api.http.get('/api/v1/metrics').set('Authorization', `Bearer ${TOKEN}`);
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain('# HELP furnace_live_viewers');
      for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`]) {
        const req = api.http.get('/api/v1/metrics');
        const res = await (authorization ? req.set('Authorization', authorization) : req);
        expect([authorization, res.status]).toEqual([authorization, 403]);
        expect(res.body).toEqual({ detail: 'Metrics need the bearer token METRICS_TOKEN' });
      }
    });
  });
});
