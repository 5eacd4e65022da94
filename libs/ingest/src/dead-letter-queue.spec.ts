import { DeadLetterQueue, type DeadLetterStore } from './dead-letter-queue';
import type { DeadLetterRow } from './readings.repository';

class FakeDeadLetterStore implements DeadLetterStore {
  rows: DeadLetterRow[] = [];
  prunes: number[] = [];
  down = false;
  async insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void> {
    if (this.down) throw new Error('connect ECONNREFUSED');
    this.rows.push(...rows);
  }
  async pruneDeadLetters(keep: number): Promise<void> {
    this.prunes.push(keep);
  }
}

const row = (n: number): DeadLetterRow => ({
  topic: 'furnace/x/data',
  researchId: null,
  reason: 'bad_topic',
  detail: `message ${n}`,
  payload: Buffer.from(String(n)),
  payloadBytes: 1,
});

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never: ${what}`);
}

describe('DeadLetterQueue', () => {
  it('writes queued rows in the background, in order', async () => {
    const store = new FakeDeadLetterStore();
    const queue = new DeadLetterQueue(store, { maxQueued: 100, keep: 10 }, () => undefined);
    for (let n = 1; n <= 3; n++) queue.add(row(n));
    await until('rows written', () => store.rows.length === 3);
    expect(store.rows.map((r) => r.detail)).toEqual(['message 1', 'message 2', 'message 3']);
    expect(queue.length).toBe(0);
    await queue.stop();
  });

  it('keeps rows while the database is down, within its bound, and writes them when it is back', async () => {
    const store = new FakeDeadLetterStore();
    store.down = true;
    let dropped = 0;
    const queue = new DeadLetterQueue(
      store,
      { maxQueued: 3, keep: 10 },
      (n) => (dropped += n),
      () => 5,
    );
    for (let n = 1; n <= 5; n++) queue.add(row(n));
    expect(dropped).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.rows).toEqual([]);
    store.down = false;
    await until('rows written', () => store.rows.length === 3);
    expect(store.rows.map((r) => r.detail)).toEqual(['message 3', 'message 4', 'message 5']);
    await queue.stop();
  });

  it('prunes the table to its last rows every 500 written', async () => {
    const store = new FakeDeadLetterStore();
    const queue = new DeadLetterQueue(store, { maxQueued: 1000, keep: 42 }, () => undefined);
    for (let n = 1; n <= 600; n++) queue.add(row(n));
    await until('rows written', () => store.rows.length === 600);
    expect(store.prunes).toEqual([42]);
    await queue.stop();
  });

  it('on stop writes what is queued at once', async () => {
    const store = new FakeDeadLetterStore();
    const queue = new DeadLetterQueue(store, { maxQueued: 100, keep: 10 }, () => undefined);
    queue.add(row(1));
    await queue.stop();
    expect(store.rows).toHaveLength(1);
  });
});
