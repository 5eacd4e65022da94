import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { encodeBusMessage, researchChannel } from '@furnace/contracts';
import {
  connectViewer,
  frame,
  insertClient,
  insertResearch,
  login,
  refusal,
  streamUrl,
  SUPERUSER,
  type TestViewer,
  waitFor,
} from '@furnace/testing';
import { startTestApi, type TestApi } from './harness';
import { metric, publishFrame, viewerTokenFor } from './live-support';

describe('live stream /api/v1/research/dane/stream/{id}', () => {
  let api: TestApi;
  let staff: string;
  const viewers: TestViewer[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
  });
  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await api?.close();
  });

  async function watch(url: string): Promise<TestViewer> {
    const viewer = await connectViewer(url);
    viewers.push(viewer);
    return viewer;
  }

  it('refuses, before anything is streamed, a caller without a valid token or code for this research', async () => {
    const researchId = await insertResearch(api.db.url);
    const other = await insertResearch(api.db.url);
    const otherCode = await insertClient(api.dataSource, other);
    const otherViewerToken = viewerTokenFor(api, otherCode, other);
    const cases: [string, Record<string, string>, number][] = [
      ['no credentials', {}, 401],
      ['a garbage token', { token: 'not-a-jwt' }, 401],
      ['a tampered token', { token: `${staff.slice(0, -4)}AAAA` }, 401],
      ["another research's viewer token", { token: otherViewerToken }, 403],
      ["another research's code", { code: otherCode }, 403],
      ['a code that is no e-mail record', { code: randomUUID() }, 403],
      ['a code that is no UUID', { code: "1' OR '1'='1" }, 403],
      ['an empty code', { code: '' }, 401],
    ];
    for (const [what, query, status] of cases) {
      const result = await refusal(streamUrl(api, researchId, query));
      expect({ what, status: result.status, received: result.received }).toEqual({ what, status, received: 0 });
      expect(typeof result.detail).toBe('string');
    }
    // Existence is revealed to authorised callers only.
    expect((await refusal(streamUrl(api, randomUUID(), {}))).status).toBe(401);
    expect((await refusal(streamUrl(api, randomUUID(), { token: staff }))).status).toBe(404);
    expect((await refusal(streamUrl(api, 'not-a-uuid', { token: staff }))).status).toBe(404);
    // A malformed handshake by an authorised caller is refused by ws (400) and leaves no subscription behind.
    const channelsBefore = await metric('furnace_live_channels');
    const url = new URL(streamUrl(api, researchId, { token: staff }));
    const raw = connect(Number(url.port), url.hostname);
    raw.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
    );
    const answer = await new Promise<string>((resolve) => raw.once('data', (d: Buffer) => resolve(d.toString())));
    raw.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    await waitFor('the reservation given back', async () => (await metric('furnace_live_channels')) === channelsBefore);
    // A deleted client record revokes the code at once.
    const code = await insertClient(api.dataSource, researchId);
    await api.dataSource.query('DELETE FROM research_email WHERE id = $1', [code]);
    expect((await refusal(streamUrl(api, researchId, { code }))).status).toBe(403);
  });

  it('streams every frame once and in order to staff, code holders and viewer-token holders; answers STATUS; forwards UPDATE', async () => {
    const researchId = await insertResearch(api.db.url);
    const code = await insertClient(api.dataSource, researchId);
    const staffViewer = await watch(streamUrl(api, researchId, { token: staff }));
    const codeViewer = await watch(streamUrl(api, researchId, { code }));
    const tokenViewer = await watch(streamUrl(api, researchId, { token: viewerTokenFor(api, code, researchId) }));

    staffViewer.ws.send('STATUS');
    await waitFor('STATUS before any frame', () => staffViewer.messages.some((m) => m.event === 'STATUS'));
    expect(staffViewer.messages.find((m) => m.event === 'STATUS')).toMatchObject({
      event: 'STATUS',
      data: { research_id: researchId, last_time: null },
    });

    // Redelivered and out-of-order frames (2 twice, 1 after 2) are not shown again.
    for (const t of [1, 2, 2, 1, 3, 4]) await publishFrame(api, researchId, frame(t));
    await api.bus.publish(
      researchChannel(researchId),
      encodeBusMessage({ type: 'update', research_id: researchId, kind: 'THERMOCOUPLE' }),
    );
    // A frame of another research on this channel, and garbage, are ignored.
    await api.bus.publish(
      researchChannel(researchId),
      encodeBusMessage({ type: 'frame', research_id: randomUUID(), payload: frame(99) }),
    );
    await api.bus.publish(researchChannel(researchId), '{"type":"frame"');
    await publishFrame(api, researchId, frame(5));

    for (const viewer of [staffViewer, codeViewer, tokenViewer]) {
      await waitFor('frame 5', () => viewer.times.includes(5));
      expect(viewer.times).toEqual([1, 2, 3, 4, 5]);
      expect(viewer.messages.find((m) => m.event === 'DATA')).toEqual({ event: 'DATA', data: frame(1) });
      expect(viewer.messages.filter((m) => m.event === 'UPDATE')).toEqual([{ event: 'UPDATE', data: 'THERMOCOUPLE' }]);
    }
    codeViewer.ws.send('STATUS');
    await waitFor('STATUS with the last time', () => codeViewer.messages.some((m) => m.event === 'STATUS'));
    const status = codeViewer.messages.find((m) => m.event === 'STATUS');
    expect(status).toMatchObject({ data: { research_id: researchId, last_time: 5 } });
    expect(Date.parse((status as { data: { server_time: string } }).data.server_time)).not.toBeNaN();
  });

  it('unsubscribes from the bus when the last viewer leaves and subscribes again for the next', async () => {
    const researchId = await insertResearch(api.db.url);
    const first = await connectViewer(streamUrl(api, researchId, { token: staff }));
    await first.close();
    await waitFor('no viewer left', async () => (await metric('furnace_live_viewers')) === viewers.length);
    const second = await watch(streamUrl(api, researchId, { token: staff }));
    await publishFrame(api, researchId, frame(1));
    await waitFor('the frame reaches the new viewer', () => second.times.length === 1);
  });

  it('skips frames for a viewer that does not read, then drops it, while the others get every frame', async () => {
    const researchId = await insertResearch(api.db.url);
    const fast = await watch(streamUrl(api, researchId, { token: staff }));
    const slow = await stalledViewer(api, researchId, staff);
    const dropsBefore = await metric('furnace_live_messages_dropped_total', { reason: 'slow_viewer' });
    const closedBefore = await metric('furnace_live_slow_viewers_closed_total');

    // ~12 kB frames until the stalled socket's kernel buffers and the 1 MiB backlog limit are full.
    const wide = Array.from({ length: 1024 }, (_, i) => 1000.123456 + i / 10);
    let sent = 0;
    while ((await metric('furnace_live_slow_viewers_closed_total')) === closedBefore) {
      for (let i = 0; i < 100; i++) await publishFrame(api, researchId, frame(++sent, { thermocouples_out: wide }));
      await waitFor(`the fast viewer got frame ${sent}`, () => fast.times.length === sent);
      if (sent > 20_000) throw new Error('the stalled viewer was never dropped');
    }
    expect(fast.times).toEqual(Array.from({ length: sent }, (_, i) => i + 1));
    expect(await metric('furnace_live_messages_dropped_total', { reason: 'slow_viewer' })).toBeGreaterThanOrEqual(
      dropsBefore + 50,
    );
    // Reading again, it finds the connection closed by the server.
    const closed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    slow.resume();
    await closed;
    const size = JSON.stringify(frame(1, { thermocouples_out: wide })).length;
    console.log(
      `slow viewer: dropped after ${sent} frames of ${size} bytes; the fast viewer received all ${fast.times.length}`,
    );
  });
});

/** A viewer that completes the WebSocket handshake and then never reads. */
async function stalledViewer(api: TestApi, researchId: string, token: string): Promise<Socket> {
  const url = new URL(streamUrl(api, researchId, { token }));
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}
