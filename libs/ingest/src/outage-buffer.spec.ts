import { OutageBuffer } from './outage-buffer';

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const isTransient = (e: unknown) => (e as { code?: string }).code === 'ECONNREFUSED';

function setUp(options: Partial<ConstructorParameters<typeof OutageBuffer>[0]> = {}) {
  let dropped = 0;
  const buffer = new OutageBuffer<number>(
    { maxFrames: 5, maxBatch: 2, retryMinMs: 1, retryMaxMs: 4, ...options },
    () => dropped++,
  );
  return { buffer, dropped: () => dropped };
}

describe('OutageBuffer', () => {
  it('keeps the newest frames past its bound and reports each one dropped', () => {
    const { buffer, dropped } = setUp();
    for (let t = 1; t <= 8; t++) buffer.push(t);
    expect(buffer.length).toBe(5);
    expect(dropped()).toBe(3);
  });

  it('writes everything oldest first in chunks, retrying while the database is unreachable', async () => {
    const { buffer } = setUp();
    for (let t = 1; t <= 5; t++) buffer.push(t);
    const written: number[][] = [];
    let failures = 3;
    const done = await buffer.drain({
      write: async (chunk) => {
        if (failures-- > 0) throw unreachable();
        written.push([...chunk]);
      },
      written: () => undefined,
      isTransient,
      refused: async () => undefined,
    });
    expect(done).toBe(true);
    expect(written).toEqual([[1, 2], [3, 4], [5]]);
    expect(buffer.length).toBe(0);
  });

  it('hands a chunk the database refuses for its content to the caller, who may put frames back', async () => {
    const { buffer } = setUp();
    for (let t = 1; t <= 4; t++) buffer.push(t);
    const written: number[] = [];
    const refused: number[][] = [];
    await buffer.drain({
      write: async (chunk) => {
        if (chunk.includes(2)) throw new Error('value out of range');
        written.push(...chunk);
      },
      written: () => undefined,
      isTransient,
      refused: async (chunk) => {
        refused.push([...chunk]);
        // The caller keeps the good frame of the chunk for the next attempt.
        if (chunk.includes(1)) buffer.unshiftAll([1]);
      },
    });
    expect(refused).toEqual([[1, 2]]);
    expect(written).toEqual([1, 3, 4]);
  });

  it('gives up once stopped and past the deadline with the database still unreachable', async () => {
    const { buffer } = setUp({ retryMinMs: 50, retryMaxMs: 50 });
    buffer.push(1);
    const attempts: number[] = [];
    const draining = buffer.drain({
      write: async () => {
        attempts.push(Date.now());
        throw unreachable();
      },
      written: () => undefined,
      isTransient,
      refused: async () => undefined,
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    buffer.stop(Date.now() - 1);
    expect(await draining).toBe(false);
    expect(buffer.length).toBe(1);
    expect(attempts.length).toBe(2);
  });
});
