// The API's HTTP server keeps an idle keep-alive connection open longer than its clients do
// (KEEP_ALIVE_MS in src/app.ts): with Node's default of 5 s, a client sending its next request on a
// connection idle for about 5 s raced the server's close, and the request (a POST of the login, in a
// browser test) was reset.
import { Agent, request as httpRequest } from 'node:http';
import { SUPERUSER } from '@furnace/testing';
import { startTestApi, type TestApi } from './harness';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api?.close());

/** A request on `agent`: its status, its Keep-Alive header and the local port of the connection it went on. */
function send(
  agent: Agent,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; keepAlive: string; localPort: number | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${api.url}${path}`,
      {
        agent,
        method,
        headers: body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {},
      },
      (res) => {
        const localPort = res.socket.localPort;
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, keepAlive: String(res.headers['keep-alive']), localPort }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it('keeps an idle connection open past Node’s 5 s, so the next POST goes on it', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, 'GET', '/api/v1/health');
    expect(first.status).toBe(200);
    expect(first.keepAlive).toBe('timeout=65');

    // Idle past Node's default keep-alive timeout.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const login = await send(
      agent,
      'POST',
      '/api/v1/login/access-token',
      new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }).toString(),
    );
    expect(login.status).toBe(200);
    // The same connection: the server did not close it meanwhile.
    expect(login.localPort).toBe(first.localPort);
  } finally {
    agent.destroy();
  }
}, 20_000);
