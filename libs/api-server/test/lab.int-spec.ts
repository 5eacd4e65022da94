// The lab overview's stream (docs/behaviour.md §18): staff only, refused before the handshake otherwise; one
// tile per furnace on open, and a tile that follows the running test's frames, criteria and viewers.
import { WebSocket } from 'ws';
import { encodeBusMessage, researchChannel } from '@furnace/contracts';
import { frame, labUrl, login, openLab, streamUrl, SUPERUSER, waitFor } from '@furnace/testing';
import { addClient, createResearch, viewerToken } from './factories';
import { auth, startTestApi, type TestApi } from './harness';

const FURNACES = '/api/v1/furnaces';

/** The status an upgrade is answered with: 101 when the socket opens, else the HTTP refusal's. */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined);
  });
}

describe('the lab overview stream', () => {
  let api: TestApi;
  let admin: string;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await api?.close();
  });

  it('is for staff only: no credential 401, a client code or viewer token 403, a used ticket 401', async () => {
    const research = await createResearch(api, admin);
    const client = await addClient(api, admin, research.id, 'klient-lab@example.com');
    expect(await upgradeStatus(labUrl(api))).toBe(401);
    expect(await upgradeStatus(labUrl(api, { code: client.id }))).toBe(403);
    const viewer = await viewerToken(api, research.id, client.id);
    expect(await upgradeStatus(labUrl(api, { token: viewer }))).toBe(403);
    // A client cannot buy an overview ticket either.
    expect((await api.http.post('/api/v1/lab/stream-ticket').set(auth(viewer))).status).toBe(403);
    // A research's ticket does not open the overview, nor the overview's a research's stream.
    const researchTicket = (await api.http.post(`/api/v1/research/${research.id}/stream-ticket`).set(auth(admin))).body
      .ticket as string;
    expect(await upgradeStatus(labUrl(api, { ticket: researchTicket }))).toBe(401);
    const labTicket = (await api.http.post('/api/v1/lab/stream-ticket').set(auth(admin))).body.ticket as string;
    expect(await upgradeStatus(streamUrl(api, research.id, { ticket: labTicket }))).toBe(401);

    const ticket = (await api.http.post('/api/v1/lab/stream-ticket').set(auth(admin))).body.ticket as string;
    expect(await upgradeStatus(labUrl(api, { ticket }))).toBe(101);
    expect(await upgradeStatus(labUrl(api, { ticket }))).toBe(401);
    expect(await upgradeStatus(labUrl(api), auth(admin))).toBe(101);
  });

  it('sends a tile per furnace on open; a frame of the running test updates its tile, a viewer is counted', async () => {
    const hot = (await api.http.post(FURNACES).set(auth(admin)).send({ name: 'Piec poziomy', code: 'lab-hot' })).body;
    const idle = (await api.http.post(FURNACES).set(auth(admin)).send({ name: 'Piec pionowy', code: 'lab-idle' })).body;
    const running = await createResearch(api, admin, { name: 'Ściana EI 60 na żywo', furnace_id: hot.id });
    const nextStart = new Date(Date.now() + 24 * 3600_000);
    await createResearch(api, admin, {
      name: 'Drzwi EI2 30 jutro',
      furnace_id: idle.id,
      start_at: nextStart.toISOString(),
      end_at: new Date(nextStart.getTime() + 3600_000).toISOString(),
    });

    const ticket = (await api.http.post('/api/v1/lab/stream-ticket').set(auth(admin))).body.ticket as string;
    const lab = await openLab(labUrl(api, { ticket }));
    sockets.push(lab.ws);
    const first = await waitFor('the LAB message', () => lab.messages.find((m) => m.event === 'LAB'), 10_000);
    expect(first.event).toBe('LAB');
    const busy = await waitFor(
      'the running tile',
      () => lab.tiles.get('lab-hot')?.running && lab.tiles.get('lab-hot'),
      10_000,
    );
    expect(busy).toMatchObject({
      furnace: { name: 'Piec poziomy', code: 'lab-hot', scan_period_s: 1 },
      running: { research_id: running.id, name: 'Ściana EI 60 na żywo' },
      last_frame_at: null,
      alarms: { open: 0 },
      viewers: 0,
    });
    expect(lab.tiles.get('lab-idle')).toMatchObject({
      running: null,
      next: { name: 'Drzwi EI2 30 jutro', start_at: nextStart.toISOString() },
    });

    // A frame on the running test's channel: its tile tells when it came, within a second or so.
    const before = Date.now();
    await api.bus.publish(
      researchChannel(running.id),
      encodeBusMessage({ type: 'frame', research_id: running.id, payload: frame(12) }),
    );
    const framed = await waitFor('the frame on the tile', () => lab.tiles.get('lab-hot')?.last_frame_at, 5_000);
    expect(Date.parse(framed)).toBeGreaterThanOrEqual(before - 1000);

    // Thirty frames in a burst (10 Hz and faster): the tile goes out at most once a second, not once a frame.
    const from = lab.messages.length;
    const burstStart = Date.now();
    for (let time = 13; time < 43; time++)
      await api.bus.publish(
        researchChannel(running.id),
        encodeBusMessage({ type: 'frame', research_id: running.id, payload: frame(time) }),
      );
    await new Promise((r) => setTimeout(r, 2500));
    const tilesSent = lab.messages
      .slice(from)
      .filter((m) => m.event === 'TILE' && m.data.tile.furnace.code === 'lab-hot').length;
    expect(tilesSent).toBeGreaterThanOrEqual(1);
    expect(tilesSent).toBeLessThanOrEqual(Math.ceil((Date.now() - burstStart) / 1000) + 1);

    // An alarm raised on the running test (docs/behaviour.md §17) is counted on its tile when its ALARM is heard.
    await api.dataSource.query(
      `INSERT INTO alarm (research_id, kind, subject, details, next_notify_at) VALUES ($1, 'pressure', '', '{}', now())`,
      [running.id],
    );
    const [alarm] = (await api.http.get(`/api/v1/research/${running.id}/alarms`).set(auth(admin)).expect(200)).body
      .data;
    await api.bus.publish(
      researchChannel(running.id),
      encodeBusMessage({ type: 'alarm', research_id: running.id, alarm }),
    );
    const open = async () =>
      Number(
        (
          await api.dataSource.query(`SELECT count(*) AS n FROM alarm WHERE research_id = $1 AND cleared_at IS NULL`, [
            running.id,
          ])
        )[0].n,
      );
    await waitFor(
      'the open alarm on the tile',
      async () => {
        const n = await open();
        return n >= 1 && lab.tiles.get('lab-hot')?.alarms.open === n;
      },
      5_000,
    );

    // A live viewer of the running test is counted on its tile.
    const viewer = new WebSocket(streamUrl(api, running.id, { token: admin }));
    sockets.push(viewer);
    await waitFor('one viewer on the tile', () => lab.tiles.get('lab-hot')?.viewers === 1, 5_000);
    viewer.terminate();
    await waitFor('no viewer on the tile', () => lab.tiles.get('lab-hot')?.viewers === 0, 5_000);

    // A furnace with nothing running is not touched by the frames of a test on no furnace.
    const sent = lab.messages.length;
    const other = await createResearch(api, admin);
    await api.bus.publish(
      researchChannel(other.id),
      encodeBusMessage({ type: 'frame', research_id: other.id, payload: frame(1) }),
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      lab.messages.slice(sent).filter((m) => m.event === 'TILE' && m.data.tile.furnace.code === 'lab-idle'),
    ).toEqual([]);
  });
});
