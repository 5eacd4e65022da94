import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { encodeBusMessage, researchChannel } from '@furnace/contracts';
import { frame, insertResearch, login, streamUrl, SUPERUSER, waitFor } from '@furnace/testing';
import { startTestApi, type TestApi } from './harness';

/*
 * What the live stream puts on the wire: frames uncompressed (a viewer offering permessage-deflate
 * is not given it: 1.6 kB frames at 10 Hz to thousands of viewers cost far more CPU deflated than
 * they save), each sent as it arrives from the bus, whatever its time.
 */
describe('live stream on the wire', () => {
  let api: TestApi;
  let ws: WebSocket | undefined;

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    ws?.terminate();
    await api?.close();
  });

  it('refuses permessage-deflate and sends each frame as it arrives, a late one too, without holding it', async () => {
    const researchId = await insertResearch(api.db.url);
    const token = await login(api, SUPERUSER.email, SUPERUSER.password);
    ws = new WebSocket(streamUrl(api, researchId, { token }), { perMessageDeflate: true });
    const times: number[] = [];
    const errors: string[] = [];
    let upgrade: IncomingMessage | undefined;
    ws.on('upgrade', (res) => (upgrade = res));
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { event: string; data: { time: number } };
      if (message.event === 'DATA') times.push(message.data.time);
    });
    // The client would fail the connection on a compressed frame it did not negotiate.
    ws.on('error', (error) => errors.push(error.message));
    await new Promise((resolve, reject) => {
      ws!.once('open', resolve);
      ws!.once('error', reject);
    });
    expect(upgrade?.headers['sec-websocket-extensions']).toBeUndefined();
    expect(ws.extensions).toBe('');

    // Two ingests' frames crossing on the bus: 3 arrives before 2.
    const publish = (time: number, source: string) =>
      api.bus.publish(
        researchChannel(researchId),
        encodeBusMessage({ type: 'frame', research_id: researchId, payload: frame(time), source }),
      );
    for (const [time, source] of [
      [1, 'a'],
      [3, 'b'],
      [2, 'a'],
      [4, 'b'],
    ] as const)
      await publish(time, source);
    await waitFor('four frames', () => times.length === 4, 5_000);
    expect(times).toEqual([1, 3, 2, 4]);
    expect(errors).toEqual([]);
  });
});
