import { encodeBusMessage } from '@furnace/contracts';
import type { LiveRepository } from './live.repository';
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
  async lastTime() {
    return this.stored;
  }
  deliver(message: string) {
    this.handlers.get(RESEARCH)?.(message);
  }
}

class FakeSocket implements ViewerSocket {
  bufferedAmount = 0;
  sent: Buffer[] = [];
  terminated = false;
  send(data: Buffer) {
    this.sent.push(data);
  }
  terminate() {
    this.terminated = true;
  }
  get texts() {
    return this.sent.map((b) => b.toString());
  }
}

const frame = (time: number, source?: string) => encodeBusMessage({ type: 'frame', research_id: RESEARCH, payload: { time, pk: 1 }, source });
const dataTimes = (socket: FakeSocket) => socket.texts.map((t) => JSON.parse(t) as { event: string; data: { time: number } }).filter((m) => m.event === 'DATA').map((m) => m.data.time);

function setUp(learningFrames = 0) {
  const repository = new FakeRepository();
  const live = new LiveService(repository as unknown as LiveRepository, { slowViewerBytes: 100, maxConsecutiveDrops: 3, reorderWindowMs: 250, learningFrames });
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

  it('drops frames not newer than the last (redelivered, reordered, or already stored) and forwards updates', async () => {
    const { repository, live } = setUp();
    repository.stored = 10;
    const lease = await live.open(RESEARCH);
    const socket = new FakeSocket();
    const viewer = lease.attach(socket);
    for (const t of [9, 10, 11, 11, 10.5, 12]) repository.deliver(frame(t));
    repository.deliver(encodeBusMessage({ type: 'update', research_id: RESEARCH, kind: 'RESEARCH' }));
    repository.deliver('not json');
    expect(socket.texts.map((t) => JSON.parse(t))).toEqual([
      { event: 'DATA', data: { time: 11, pk: 1 } },
      { event: 'DATA', data: { time: 12, pk: 1 } },
      { event: 'UPDATE', data: 'RESEARCH' },
    ]);
    live.onClientMessage(viewer, ' STATUS\n');
    live.onClientMessage(viewer, 'HELLO');
    const status = JSON.parse(socket.texts[3]!);
    expect(status).toMatchObject({ event: 'STATUS', data: { research_id: RESEARCH, last_time: 12 } });
    expect(socket.sent).toHaveLength(4);
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

  it('puts frames of ingests sharing the topic back in time order within the reorder window, and drops one later than it', async () => {
    jest.useFakeTimers();
    try {
      const { repository, live } = setUp();
      const socket = new FakeSocket();
      (await live.open(RESEARCH)).attach(socket);
      // Two instances share the topic: B commits 2 after A has published 3.
      repository.deliver(frame(1, 'ingest-a'));
      expect(dataTimes(socket)).toEqual([1]); // one source heard so far: no window
      repository.deliver(frame(3, 'ingest-b'));
      jest.advanceTimersByTime(100);
      repository.deliver(frame(2, 'ingest-b'));
      repository.deliver(frame(2, 'ingest-a')); // a redelivery
      expect(dataTimes(socket)).toEqual([1]);
      jest.advanceTimersByTime(150); // 3's window has passed: 2 and 3 leave, sorted
      expect(dataTimes(socket)).toEqual([1, 2, 3]);
      repository.deliver(frame(5, 'ingest-a'));
      jest.advanceTimersByTime(300);
      repository.deliver(frame(4, 'ingest-b')); // later than the window: already in the history
      jest.advanceTimersByTime(300);
      expect(dataTimes(socket)).toEqual([1, 2, 3, 5]);
      // B stops: once it has been silent for 30 s, A's frames go out at once again.
      jest.advanceTimersByTime(31_000);
      repository.deliver(frame(6, 'ingest-a'));
      expect(dataTimes(socket)).toEqual([1, 2, 3, 5, 6]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds the first frames after start-up until it knows whether one ingest publishes or several', async () => {
    jest.useFakeTimers();
    try {
      const { repository, live } = setUp(2);
      const socket = new FakeSocket();
      (await live.open(RESEARCH)).attach(socket);
      repository.deliver(frame(2, 'ingest-a'));
      repository.deliver(frame(1, 'ingest-a'));
      expect(dataTimes(socket)).toEqual([]);
      jest.advanceTimersByTime(250);
      expect(dataTimes(socket)).toEqual([1, 2]);
      repository.deliver(frame(3, 'ingest-a')); // learned: a lone source
      expect(dataTimes(socket)).toEqual([1, 2, 3]);
    } finally {
      jest.useRealTimers();
    }
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
