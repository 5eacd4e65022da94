import { Registry } from 'prom-client';
import { type DaqPayload, parseBusMessage } from '@furnace/contracts';
import type { Ack } from './ack-gate';
import { type FrameStore, IngestService, type IngestOptions } from './ingest.service';
import { IngestMetrics } from './metrics';
import type { FurnaceRoute } from './furnace-directory';
import {
  type DeadLetterRow,
  type FrameRow,
  frameKey,
  type StoredFrames,
  unassignedKey,
  type UnassignedRow,
} from './readings.repository';
import { ResearchDirectory } from './research-directory';

const RESEARCH = '0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f';
const OTHER = '1c0e3c5f-6b9d-4e4f-8a21-3b4c5d6e7f80';
const topic = (id = RESEARCH) => `furnace/${id}/data`;
const payload = (time: number, extra: Partial<DaqPayload> = {}) =>
  Buffer.from(JSON.stringify({ time, pk: 100, ...extra }));

/** A table in memory that can be made unreachable, or to refuse a value. */
class FakeStore implements FrameStore {
  rows = new Map<string, FrameRow>();
  deadLetters: DeadLetterRow[] = [];
  down = false;
  /** Refuses (like a data error, SQLSTATE 22…) any batch containing this time. */
  poison: number | null = null;
  writes: number[] = [];
  /** The research approved as this revision: its frames are not written. */
  approvedRevision: number | null = null;

  async insertFrames(frames: readonly FrameRow[]): Promise<StoredFrames> {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    if (this.poison !== null && frames.some((f) => f.payload.time === this.poison)) {
      const { DatabaseError } = await import('pg');
      throw new DatabaseError('date/time field value out of range', 0, 'error');
    }
    this.writes.push(frames.length);
    const inserted = new Set<string>();
    const approved = new Map<string, number>();
    for (const frame of frames) {
      const key = frameKey(frame.researchId, frame.payload.time);
      if (frame.researchId === RESEARCH && this.approvedRevision !== null) {
        approved.set(RESEARCH, this.approvedRevision);
        continue;
      }
      if (frame.researchId !== RESEARCH || this.rows.has(key)) continue;
      this.rows.set(key, frame);
      inserted.add(key);
    }
    return { inserted, approved };
  }
  async insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void> {
    if (this.down) throw new Error('down');
    this.deadLetters.push(...rows);
  }
  async pruneDeadLetters(): Promise<void> {}
  get times(): number[] {
    return [...this.rows.values()].map((r) => r.payload.time).sort((a, b) => a - b);
  }
}

class FakeAck implements Ack {
  released = 0;
  release(): void {
    this.released++;
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`never: ${what}`);
}

function setUp(options: IngestOptions = {}) {
  const store = new FakeStore();
  const published: number[] = [];
  const bus = {
    publish: async (_channel: string, message: string) => {
      const parsed = parseBusMessage(message);
      if (parsed.ok && parsed.value.type === 'frame') published.push(parsed.value.payload.time);
    },
  };
  const directory = new ResearchDirectory(async (id) =>
    id === RESEARCH ? { startAt: new Date(0), endAt: new Date(8.64e15) } : null,
  );
  const metrics = new IngestMetrics(new Registry());
  const logs: string[] = [];
  const logger = {
    log: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    error: (m: string) => logs.push(m),
  };
  const service = new IngestService(store, bus, directory, metrics, logger, {
    flushIntervalMs: 5,
    retryMinMs: 2,
    retryMaxMs: 10,
    ...options,
  });
  const receive = async (time: number, id = RESEARCH, extra: Partial<DaqPayload> = {}) => {
    const ack = new FakeAck();
    await service.receive(topic(id), payload(time, extra), ack);
    return ack;
  };
  const count = async (name: string, labels: Record<string, string> = {}) =>
    (await metrics.registry.getSingleMetric(name)!.get()).values.find((v) =>
      Object.entries(labels).every(([k, l]) => v.labels[k] === l),
    )?.value ?? 0;
  return { store, published, service, receive, count, logs };
}

describe('IngestService', () => {
  it('writes frames in batches, publishes each after its write, and acknowledges it only then', async () => {
    const { store, published, receive } = setUp({ flushFrames: 4, flushIntervalMs: 1000 });
    const acks = [await receive(1), await receive(2), await receive(3)];
    // Below the size threshold and before the interval: nothing written, nothing published, nothing acknowledged.
    expect(store.writes).toEqual([]);
    expect(published).toEqual([]);
    expect(acks.map((a) => a.released)).toEqual([0, 0, 0]);
    acks.push(await receive(4));
    await until('the batch written', () => published.length === 4);
    expect(store.writes).toEqual([4]);
    expect(published).toEqual([1, 2, 3, 4]);
    expect(acks.map((a) => a.released)).toEqual([1, 1, 1, 1]);
  });

  it('flushes a partial batch after the interval', async () => {
    const { store, published, receive } = setUp({ flushFrames: 100, flushIntervalMs: 5 });
    await receive(1);
    await until('the frame written', () => published.length === 1);
    expect(store.writes).toEqual([1]);
  });

  it('stores and publishes a repeated frame once, and acknowledges both copies', async () => {
    const { store, published, receive, count } = setUp();
    const acks = [await receive(1), await receive(1), await receive(2)];
    await until('written', () => acks.every((a) => a.released === 1));
    await receive(1);
    await until('the late copy counted', () => store.writes.length === 2);
    expect(store.times).toEqual([1, 2]);
    expect(published).toEqual([1, 2]);
    expect(await count('furnace_ingest_frames_duplicate_total')).toBe(2);
  });

  it('refuses, counts and dead-letters what is not a frame of a known research, acknowledging it at once', async () => {
    const { store, service, receive, count, logs } = setUp();
    const unknown = await receive(1, OTHER);
    const bad = new FakeAck();
    await service.receive(topic(), Buffer.from('{"time": NaN}'), bad);
    const badTopic = new FakeAck();
    await service.receive('furnace/nope/data', payload(1), badTopic);
    expect([unknown.released, bad.released, badTopic.released]).toEqual([1, 1, 1]);
    await until('dead letters written', () => store.deadLetters.length === 3);
    expect(store.deadLetters.map((d) => d.reason)).toEqual(['unknown_research', 'malformed_json', 'bad_topic']);
    expect(store.deadLetters[1]!.payload.toString()).toBe('{"time": NaN}');
    expect(await count('furnace_ingest_frames_refused_total', { reason: 'unknown_research' })).toBe(1);
    // Each reason logged once (then summarised at most once a minute), never per message.
    for (let i = 0; i < 50; i++) await service.receive(topic(), Buffer.from('x'), new FakeAck());
    expect(logs.filter((l) => l.includes('malformed_json'))).toHaveLength(1);
  });

  it('refuses the frames of an approved research to the dead letters, acknowledges them, and keeps taking the others', async () => {
    const { store, published, receive, count } = setUp();
    await receive(1);
    await until('first frame written', () => store.times.length === 1);
    store.approvedRevision = 2;
    const acks = [await receive(2), await receive(3)];
    await until('both settled', () => acks.every((a) => a.released === 1));
    expect(store.times).toEqual([1]);
    expect(published).toEqual([1]);
    expect(await count('furnace_ingest_frames_refused_total', { reason: 'research_approved' })).toBe(2);
    expect(await count('furnace_ingest_frames_duplicate_total')).toBe(0);
    await until('dead letters written', () => store.deadLetters.length === 2);
    expect(store.deadLetters[0]).toMatchObject({ reason: 'research_approved', researchId: RESEARCH });
    expect(store.deadLetters[0]!.detail).toContain('is approved (revision 2)');
    expect(JSON.parse(store.deadLetters[1]!.payload.toString())).toMatchObject({ time: 3 });
    // Reopened: its frames are written again.
    store.approvedRevision = null;
    await receive(4);
    await until('written after the reopening', () => store.times.length === 2);
    expect(published).toEqual([1, 4]);
  });

  it('while the database is unreachable: publishes at once, acknowledges, buffers, and writes everything when it returns', async () => {
    const { store, published, receive, service, count } = setUp();
    await receive(1);
    await until('first frame written', () => store.times.length === 1);
    store.down = true;
    const acks = [await receive(2), await receive(3)];
    await until('outage detected', () => !service.databaseReachable);
    const more = [await receive(4), await receive(5)];
    // Viewers keep getting frames, and the broker is not held back.
    expect(published).toEqual([1, 2, 3, 4, 5]);
    expect([...acks, ...more].map((a) => a.released)).toEqual([1, 1, 1, 1]);
    expect(service.buffered).toBe(4);
    expect(await count('furnace_ingest_database_up')).toBe(0);
    store.down = false;
    await until('buffer written', () => service.databaseReachable);
    expect(store.times).toEqual([1, 2, 3, 4, 5]);
    expect(published).toEqual([1, 2, 3, 4, 5]);
    expect(service.buffered).toBe(0);
  });

  it('past the buffer bound drops the oldest frames and counts them', async () => {
    const { store, receive, service, count, logs } = setUp({ maxBufferedFrames: 3 });
    store.down = true;
    await receive(1);
    await until('outage detected', () => !service.databaseReachable);
    for (const t of [2, 3, 4, 5]) await receive(t);
    expect(service.buffered).toBe(3);
    expect(await count('furnace_ingest_frames_dropped_total')).toBe(2);
    expect(logs.some((l) => l.includes('Outage buffer full'))).toBe(true);
    store.down = false;
    await until('buffer written', () => service.databaseReachable);
    expect(store.times).toEqual([3, 4, 5]);
  });

  it('writes a batch the database refuses one frame at a time and dead-letters only the bad frame', async () => {
    const { store, published, receive, count } = setUp({ flushFrames: 3 });
    store.poison = 2;
    const acks = [await receive(1), await receive(2), await receive(3)];
    await until('all settled', () => acks.every((a) => a.released === 1));
    expect(store.times).toEqual([1, 3]);
    expect(published).toEqual([1, 3]);
    expect(await count('furnace_ingest_frames_refused_total', { reason: 'store_failed' })).toBe(1);
    await until('dead letter written', () => store.deadLetters.length === 1);
    expect(JSON.parse(store.deadLetters[0]!.payload.toString())).toMatchObject({ time: 2 });
  });

  it('on stop writes what it holds, and leaves later messages unacknowledged for redelivery', async () => {
    const { store, receive, service } = setUp({ flushFrames: 100, flushIntervalMs: 60_000 });
    const held = await receive(1);
    expect(await service.stop()).toBe(0);
    expect(store.times).toEqual([1]);
    expect(held.released).toBe(1);
    const late = await receive(2);
    expect(late.released).toBe(0);
    expect(store.times).toEqual([1]);
  });

  it('on stop with the database unreachable reports the frames it could not write', async () => {
    const { store, receive, service } = setUp();
    store.down = true;
    await receive(1);
    await until('outage detected', () => !service.databaseReachable);
    expect(await service.stop(50)).toBe(1);
  });
});

describe('IngestService: a furnace topic', () => {
  /** A store whose writes wait until `open()`; the research RESEARCH is approved while `approved` is set. */
  function furnaceSetUp() {
    const research: FrameRow[] = [];
    const unassigned: UnassignedRow[] = [];
    let gate: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (gate = resolve));
    const state = { approved: false };
    const store: FrameStore = {
      async insertFrames(frames, rows = []) {
        await opened;
        const stored: StoredFrames = { inserted: new Set(), approved: new Map(), unassigned: new Set() };
        for (const f of frames) {
          if (state.approved) stored.approved.set(f.researchId, 1);
          else {
            research.push(f);
            stored.inserted.add(frameKey(f.researchId, f.payload.time));
          }
        }
        for (const r of rows) {
          unassigned.push(r);
          stored.unassigned!.add(unassignedKey(r.furnaceCode, r.at.getTime()));
        }
        return stored;
      },
      async insertDeadLetters() {},
      async pruneDeadLetters() {},
    };
    const published: string[] = [];
    const bus = { publish: async (channel: string) => void published.push(channel) };
    const router = {
      route: (code: string, at: number): FurnaceRoute =>
        code !== 'p1'
          ? { kind: 'unknown' }
          : at < 1000
            ? { kind: 'research', researchId: RESEARCH }
            : { kind: 'unassigned' },
    };
    const directory = new ResearchDirectory(async () => null);
    const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
    const service = new IngestService(store, bus, directory, new IngestMetrics(new Registry()), quiet, {}, router);
    const receive = (code: string, time: number, at: number) => {
      const ack = new FakeAck();
      void service.receive(`lab/${code}/data`, payload(time, { ts: new Date(at).toISOString() }), ack);
      return ack;
    };
    return {
      research,
      unassigned,
      published,
      state,
      receive,
      open: () => gate(),
    };
  }

  it('acknowledges an unassigned frame only once it is stored, and publishes it nowhere', async () => {
    const s = furnaceSetUp();
    const ack = s.receive('p1', 5, 5000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ack.released).toBe(0);
    s.open();
    await until('acknowledged', () => ack.released === 1);
    expect(s.unassigned.map((r) => [r.furnaceCode, r.at.getTime(), r.payload.time])).toEqual([['p1', 5000, 5]]);
    expect(s.published).toEqual([]);
  });

  it("sends a frame of a test's time to the test, and keeps it as unassigned when the test was approved meanwhile", async () => {
    const s = furnaceSetUp();
    s.open();
    const first = s.receive('p1', 1, 500);
    await until('stored', () => first.released === 1);
    expect(s.research.map((f) => [f.researchId, f.payload.time])).toEqual([[RESEARCH, 1]]);
    expect(s.published).toEqual([`research:${RESEARCH}`]);
    s.state.approved = true;
    const second = s.receive('p1', 2, 600);
    await until('stored', () => second.released === 1);
    expect(s.unassigned.map((r) => r.payload.time)).toEqual([2]);
    expect(s.published).toHaveLength(1);
  });

  it('refuses a frame of a code no furnace has', async () => {
    const s = furnaceSetUp();
    s.open();
    const ack = s.receive('p9', 1, 500);
    expect(ack.released).toBe(1);
    expect([...s.research, ...s.unassigned]).toEqual([]);
  });
});
