import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApiApp } from '../../src/app';
import { startTestApi, type TestApi } from '../harness';

/*
 * Security headers on every response, looked at as a browser gets them: the dashboard's page, the
 * API's JSON, an error, the API docs.
 */

/** The directives of a Content-Security-Policy header, by name. */
function csp(header: string | undefined): Record<string, string[]> {
  expect(header).toBeDefined();
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** A built dashboard's index.html as Vite writes it with html.cspNonce. */
const INDEX = `<!doctype html><html><head><meta property="csp-nonce" nonce="__CSP_NONCE__"><script type="module" src="/assets/index.js" nonce="__CSP_NONCE__"></script></head><body><div id="root"></div></body></html>`;

describe('security: response headers', () => {
  let api: TestApi;
  let dashboardDir: string;
  let http: ReturnType<typeof request>;
  beforeAll(async () => {
    // TRUST_PROXY: the proxy (here the test, on loopback) reports https in X-Forwarded-Proto.
    api = await startTestApi({ TRUST_PROXY: '127.0.0.1' });
    dashboardDir = mkdtempSync(join(tmpdir(), 'furnace-dashboard-'));
    writeFileSync(join(dashboardDir, 'index.html'), INDEX);
    // A second app over the same database and bus, serving that dashboard.
    const app = await createApiApp({ config: api.config, dataSource: api.dataSource, bus: api.bus }, { dashboardDir });
    await app.init();
    http = request(app.getHttpServer());
    afterAllClose = () => app.close();
  });
  let afterAllClose: () => Promise<void> = async () => undefined;
  afterAll(async () => {
    await afterAllClose();
    await api?.close();
    rmSync(dashboardDir, { recursive: true, force: true });
  });

  it('the dashboard page: a strict CSP whose nonce is the one in the page, fresh every time', async () => {
    const first = await http.get('/research');
    expect(first.status).toBe(200);
    const policy = csp(first.headers['content-security-policy']);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['frame-src']).toEqual(['https:']);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    const [self, nonceSource, ...rest] = policy['style-src']!;
    expect([self, rest]).toEqual(["'self'", []]);
    const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(nonceSource!)?.[1];
    expect(nonce).toBeDefined();
    expect(first.text).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
    expect(first.text).not.toContain('__CSP_NONCE__');
    for (const directive of Object.values(policy).flat()) expect(directive).not.toMatch(/unsafe-inline|unsafe-eval|\*/);

    const second = await http.get('/research');
    expect(csp(second.headers['content-security-policy'])['style-src']![1]).not.toBe(nonceSource);
    // The template is never served as it is on disk.
    const raw = await http.get('/index.html');
    expect(raw.text).not.toContain('__CSP_NONCE__');
  });

  it.each([
    ['the API', '/api/v1/health', 200],
    ['an error', '/api/v1/research/', 401],
    ['an unknown API path', '/api/v1/nothing-here', 404],
  ])('%s: nosniff, no-referrer, CSP, no framing, no HSTS over plain http', async (_what, path, status) => {
    const res = await api.http.get(path);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(csp(res.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('HSTS when the request came over https (as the trusted proxy reports it)', async () => {
    const res = await api.http.get('/api/v1/health').set('X-Forwarded-Proto', 'https');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('the API docs page alone may use inline styles (Swagger UI ships them)', async () => {
    const res = await api.http.get('/api/v1/docs/');
    expect(res.status).toBe(200);
    const policy = csp(res.headers['content-security-policy']);
    expect(policy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
  });

  it('FRAME_ANCESTORS names who may frame the dashboard', async () => {
    const framed = await startTestApi({ FRAME_ANCESTORS: "'self' https://intranet.lab.example" });
    try {
      const res = await framed.http.get('/api/v1/health');
      expect(csp(res.headers['content-security-policy'])['frame-ancestors']).toEqual([
        "'self'",
        'https://intranet.lab.example',
      ]);
    } finally {
      await framed.close();
    }
  });
});
