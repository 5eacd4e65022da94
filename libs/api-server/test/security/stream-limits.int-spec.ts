// "No caller can take the server hostage", the live stream: one credential holds at most
// LIVE_STREAMS_PER_CLIENT / LIVE_STREAMS_PER_USER open streams on an instance (429 above, until one
// closes), and `?code=` guesses are throttled with the REST code exchange's, in the same counter (429
// with Retry-After).
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { login, streamUrl, SUPERUSER, waitFor } from '@furnace/testing';
import { addClient, createResearch } from '../factories';
import { signUpUser, startTestApi, type TestApi } from '../harness';
import { viewerTokenFor } from '../live-support';
import { ticketFor } from './stream-support';

const PER_CLIENT = 3;
const PER_USER = 4;
const CODE_ATTEMPTS = 5;

interface Attempt {
  status: number;
  detail?: string;
  retryAfter?: string;
  ws?: WebSocket;
}

/** Opens a stream; resolves with 101 and the socket, or the refusal's status, detail and Retry-After. */
function attempt(url: string, headers: Record<string, string> = {}): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          detail: (JSON.parse(body) as { detail: string }).detail,
          retryAfter: res.headers['retry-after'] as string | undefined,
        }),
      );
    });
    ws.once('error', reject);
  });
}

// Each test from a made-up address of its own (the API trusts this host as its proxy): the throttle counts per address.
const addressOf = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe('security: live streams per credential, and code guesses on the stream', () => {
  let api: TestApi;
  let admin: string;
  let researchId: string;
  const opened: WebSocket[] = [];

  /** Opens a stream that must be accepted, closed after the test. */
  async function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
    const result = await attempt(url, headers);
    if (result.status !== 101) throw new Error(`stream refused: ${result.status} ${result.detail}`);
    opened.push(result.ws!);
    return result.ws!;
  }

  beforeAll(async () => {
    api = await startTestApi({
      LIVE_STREAMS_PER_CLIENT: String(PER_CLIENT),
      LIVE_STREAMS_PER_USER: String(PER_USER),
      LOGIN_RATE_LIMIT: String(CODE_ATTEMPTS),
      TRUST_PROXY: '127.0.0.1,::1',
    });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (await createResearch(api, admin)).id;
  });
  afterEach(async () => {
    await Promise.all(
      opened
        .splice(0)
        .map(
          (ws) =>
            new Promise((resolve) =>
              ws.readyState === WebSocket.CLOSED ? resolve(null) : (ws.once('close', resolve), ws.close()),
            ),
        ),
    );
  });
  afterAll(() => api?.close());

  it(`a client holds at most ${PER_CLIENT} streams whatever carries the code (viewer token, ticket, code); another client is not affected; closing one frees its place`, async () => {
    const code = (await addClient(api, admin, researchId, 'many-tabs@example.com')).id;
    const token = viewerTokenFor(api, code, researchId);
    const first = await open(streamUrl(api, researchId, { token }));
    for (let i = 1; i < PER_CLIENT; i++) await open(streamUrl(api, researchId, { token }));
    const detail = `Too many live streams open: at most ${PER_CLIENT} per client access on this server. Close one and try again.`;
    expect(await attempt(streamUrl(api, researchId, { token }))).toMatchObject({ status: 429, detail });
    expect(
      await attempt(streamUrl(api, researchId, { ticket: await ticketFor(api, researchId, token) })),
    ).toMatchObject({ status: 429, detail });
    expect(await attempt(streamUrl(api, researchId, { code }), { 'X-Forwarded-For': addressOf() })).toMatchObject({
      status: 429,
      detail,
    });

    const other = (await addClient(api, admin, researchId, 'other-client@example.com')).id;
    await open(streamUrl(api, researchId, { token: viewerTokenFor(api, other, researchId) }));

    first.close();
    await waitFor('a place free again', async () => {
      const next = await attempt(streamUrl(api, researchId, { token }));
      if (next.ws) opened.push(next.ws);
      return next.status === 101;
    });
  });

  it(`a staff account holds at most ${PER_USER} streams on the instance; another account is not affected`, async () => {
    for (let i = 0; i < PER_USER; i++) await open(streamUrl(api, researchId, { token: admin }));
    expect(await attempt(streamUrl(api, researchId, { ticket: await ticketFor(api, researchId, admin) }))).toEqual({
      status: 429,
      detail: `Too many live streams open: at most ${PER_USER} per staff account on this server. Close one and try again.`,
      retryAfter: undefined,
    });
    const colleague = await signUpUser(api);
    await open(streamUrl(api, researchId, { token: colleague.token }));
  });

  it('?code= guesses count with the REST code exchange from the same address: past LOGIN_RATE_LIMIT both refuse with 429 and Retry-After, even the right code', async () => {
    const code = (await addClient(api, admin, researchId, 'guessed@example.com')).id;
    const guesser = { 'X-Forwarded-For': addressOf() };
    for (let i = 0; i < 3; i++) {
      const res = await api.http
        .post(`/api/v1/research/${researchId}/viewer-token`)
        .set(guesser)
        .send({ code: randomUUID() });
      expect(res.status).toBe(403);
    }
    for (let i = 0; i < CODE_ATTEMPTS - 3; i++)
      expect((await attempt(streamUrl(api, researchId, { code: randomUUID() }), guesser)).status).toBe(403);

    const refused = await attempt(streamUrl(api, researchId, { code }), guesser);
    expect(refused).toMatchObject({ status: 429, detail: 'Too many attempts. Please wait a minute and try again.' });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    const rest = await api.http.post(`/api/v1/research/${researchId}/viewer-token`).set(guesser).send({ code });
    expect(rest.status).toBe(429);
    expect(rest.body.access_token).toBeUndefined();

    // Another address still opens it; from the guesser's address a ticket or token is no code and is not counted.
    await open(streamUrl(api, researchId, { code }), { 'X-Forwarded-For': addressOf() });
    await open(streamUrl(api, researchId, { token: viewerTokenFor(api, code, researchId) }), guesser);
  });

  it('guesses on the stream alone are throttled too', async () => {
    const guesser = { 'X-Forwarded-For': addressOf() };
    const statuses: number[] = [];
    for (let i = 0; i < CODE_ATTEMPTS + 2; i++)
      statuses.push((await attempt(streamUrl(api, researchId, { code: randomUUID() }), guesser)).status);
    expect(statuses).toEqual([...Array<number>(CODE_ATTEMPTS).fill(403), 429, 429]);
    expect(
      (await api.http.post(`/api/v1/research/${researchId}/viewer-token`).set(guesser).send({ code: randomUUID() }))
        .status,
    ).toBe(429);
  });
});
