import { encodeBusMessage } from '@furnace/contracts';
import type { LiveRepository } from './live.repository';
import { liveMetrics } from './live.metrics';
import { LiveService, type ViewerSocket } from './live.service';

const RESEARCH = '0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f';

class FakeRepository {
  handlers = new Map<string, (message: string) => void>();
  subscriptions = 0;
  stored: number | null = null;
  async subscribe(researchId: string, handler: (message: string) => void) {
    this.subscriptions++;
    this.handlers.set(researchId, handler);
    return async () => {
      this.handlers.delete(researchId);
    };
  }
  /** Frames in the database (for the read-back after a bus outage). */
  frames: { time: number; pk: number }[] = [];
  reconnectListeners: (() => void)[] = [];
  reads: (number | null)[] = [];
  async lastTime() {
    return this.stored;
  }
  async framesSince(_researchId: string, since: number | null, limit: number) {
    this.reads.push(since);
    return this.frames.filter((f) => since === null || f.time > since).slice(0, limit);
  }
  onBusReconnect(listener: () => void) {
    this.reconnectListeners.push(listener);
  }
  deliver(message: string) {
    this.handlers.get(RESEARCH)?.(message);
  }
}

class FakeSocket implements ViewerSocket {
  bufferedAmount = 0;
  sent: Buffer[] = [];
  terminated = false;
  terminations = 0;
  send(data: Buffer) {
    this.sent.push(data);
  }
  terminate() {
    this.terminated = true;
    this.terminations++;
  }
  get texts() {
    return this.sent.map((b) => b.toString());
  }
}

const frame = (time: number, source?: string) =>
  encodeBusMessage({ type: 'frame', research_id: RESEARCH, payload: { time, pk: 1 }, source });
const dataTimes = (socket: FakeSocket) =>
  socket.texts
    .map((t) => JSON.parse(t) as { event: string; data: { time: number } })
    .filter((m) => m.event === 'DATA')
    .map((m) => m.data.time);

function setUp() {
  const repository = new FakeRepository();
  const live = new LiveService(repository as unknown as LiveRepository, {
    slowViewerBytes: 100,
    maxConsecutiveDrops: 3,
    backfillOverlapSeconds: 2,
  });
  return { repository, live };
}

describe('LiveService', () => {
  it('subscribes for the first viewer, sends every viewer the same bytes, and unsubscribes after the last', async () => {
    const { repository, live } = setUp();
    const [a, b] = [await live.open(RESEARCH), await live.open(RESEARCH)];
    const [sa, sb] = [new FakeSocket(), new FakeSocket()];
    a.attach(sa);
    b.attach(sb);
    expect(repository.subscriptions).toBe(1);
    repository.deliver(frame(1));
    expect(sa.sent[0]).toBe(sb.sent[0]); // one Buffer, encoded once
    expect(sa.texts).toEqual(['{"event":"DATA","data":{"time":1,"pk":1}}']);
    a.release();
    expect(repository.handlers.size).toBe(1);
    b.release();
    b.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(repository.handlers.size).toBe(0);
  });

  it('forwards every frame as it arrives, a late one too (the dashboard orders by time), drops a redelivered one, and forwards updates', async () => {
    const { repository, live } = setUp();
    repository.stored = 10;
    const lease = await live.open(RESEARCH);
    const socket = new FakeSocket();
    const viewer = lease.attach(socket);
    for (const t of [11, 13, 12, 13, 11]) repository.deliver(frame(t));
    repository.deliver(encodeBusMessage({ type: 'update', research_id: RESEARCH, kind: 'RESEARCH' }));
    repository.deliver('not json');
    expect(socket.texts.map((t) => JSON.parse(t))).toEqual([
      { event: 'DATA', data: { time: 11, pk: 1 } },
      { event: 'DATA', data: { time: 13, pk: 1 } },
      { event: 'DATA', data: { time: 12, pk: 1 } },
      { event: 'UPDATE', data: 'RESEARCH' },
    ]);
    live.onClientMessage(viewer, ' STATUS\n');
    live.onClientMessage(viewer, 'HELLO');
    const status = JSON.parse(socket.texts[4]!);
    expect(status).toMatchObject({ event: 'STATUS', data: { research_id: RESEARCH, last_time: 13 } });
    expect(socket.sent).toHaveLength(5);
  });

  it('skips messages for a backed-up viewer, counts them, and disconnects it when it stays blocked', async () => {
    const { repository, live } = setUp();
    const [fast, slow] = [new FakeSocket(), new FakeSocket()];
    (await live.open(RESEARCH)).attach(fast);
    const slowViewer = (await live.open(RESEARCH)).attach(slow);
    slow.bufferedAmount = 500;
    for (const t of [1, 2]) repository.deliver(frame(t));
    expect(slowViewer.dropped).toBe(2);
    slow.bufferedAmount = 0; // drained: receives again, and the count of drops in a row restarts
    repository.deliver(frame(3));
    expect(slow.texts).toHaveLength(1);
    slow.bufferedAmount = 500;
    for (const t of [4, 5]) repository.deliver(frame(t));
    expect(slow.terminated).toBe(false);
    repository.deliver(frame(6));
    expect(slow.terminated).toBe(true);
    expect(fast.texts).toHaveLength(6);
  });

  it("counts a slow viewer's disconnection once, however many frames come before its socket reports the close", async () => {
    const { repository, live } = setUp();
    const slow = new FakeSocket();
    const viewer = (await live.open(RESEARCH)).attach(slow);
    const count = async (
      metric: { get(): Promise<{ values: { value: number; labels: object }[] }> },
      labels: object = {},
    ) =>
      (await metric.get()).values
        .filter((v) => Object.entries(labels).every(([k, value]) => (v.labels as Record<string, unknown>)[k] === value))
        .reduce((sum, v) => sum + v.value, 0);
    const [closedBefore, droppedBefore] = [
      await count(liveMetrics.slowViewersClosed),
      await count(liveMetrics.messagesDropped, { reason: 'slow_viewer' }),
    ];
    slow.bufferedAmount = 500;
    // A terminated socket keeps its backlog until it closes, and a read-back after a bus outage sends thousands of frames in one go.
    for (let t = 1; t <= 3000; t++) repository.deliver(frame(t));
    expect(slow.terminations).toBe(1);
    expect(viewer.dropped).toBe(3);
    expect(await count(liveMetrics.slowViewersClosed)).toBe(closedBefore + 1);
    expect(await count(liveMetrics.messagesDropped, { reason: 'slow_viewer' })).toBe(droppedBefore + 3);
    slow.bufferedAmount = 0;
    repository.deliver(frame(3001));
    expect(slow.sent).toHaveLength(0);
  });

  it('sends every frame before returning, at any rate and from any number of ingests: no frame waits on a timer', async () => {
    jest.useFakeTimers();
    try {
      for (const rate of [1, 4, 10, 25, 100]) {
        for (const ingests of [1, 2, 3, 5]) {
          const { repository, live } = setUp();
          const socket = new FakeSocket();
          const lease = await live.open(RESEARCH);
          lease.attach(socket);
          const sent: number[] = [];
          for (let i = 0; i < 200; i++) {
            // Each ingest publishes its share; their commits cross, so neighbours swap places now and then.
            const n = i % 7 === 3 ? i + 1 : i % 7 === 4 ? i - 1 : i;
            const time = Math.round((n / rate) * 1000) / 1000;
            repository.deliver(frame(time, `ingest-${n % ingests}`));
            sent.push(time);
            // Sent before deliver() returned, with no timer pending.
            expect(socket.sent).toHaveLength(sent.length);
            expect(jest.getTimerCount()).toBe(0);
            jest.advanceTimersByTime(1000 / rate);
          }
          expect(dataTimes(socket)).toEqual(sent);
          lease.release();
        }
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('after a bus outage, sends each viewer the frames it missed, read from the database, once', async () => {
    const { repository, live } = setUp();
    const [a, b] = [new FakeSocket(), new FakeSocket()];
    (await live.open(RESEARCH)).attach(a);
    (await live.open(RESEARCH)).attach(b);
    repository.frames = [1, 2, 3, 4, 5, 6].map((time) => ({ time, pk: 1 }));
    for (const t of [1, 2, 3]) repository.deliver(frame(t));
    // The bus is down while 4, 5 and 6 are stored; it comes back.
    for (const listener of repository.reconnectListeners) listener();
    await new Promise((resolve) => setImmediate(resolve));
    // Read from 2 s before the newest frame sent (a late frame of another ingest), the ones sent skipped.
    expect(repository.reads).toEqual([1]);
    expect(dataTimes(a)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dataTimes(b)).toEqual([1, 2, 3, 4, 5, 6]);
    // One of them also arrives over the bus after all: not sent twice.
    repository.deliver(frame(6));
    repository.deliver(frame(7));
    expect(dataTimes(a)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('gives up the reservation when the bus cannot subscribe', async () => {
    const repository = new FakeRepository();
    repository.subscribe = async () => {
      throw new Error('bus down');
    };
    const live = new LiveService(repository as unknown as LiveRepository);
    await expect(live.open(RESEARCH)).rejects.toThrow('bus down');
    expect(live.viewerCount).toBe(0);
  });
});
