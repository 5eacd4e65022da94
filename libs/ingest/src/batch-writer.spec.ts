import { BatchWriter } from './batch-writer';

/** A write the test completes by hand, to see what arrives while it runs. */
function setUp(options: Partial<ConstructorParameters<typeof BatchWriter>[0]> = {}) {
  const writes: number[][] = [];
  const finish: (() => void)[] = [];
  let paused = false;
  const writer = new BatchWriter<number>(
    { flushFrames: 16, flushIntervalMs: 0, maxBatch: 500, ...options },
    (batch) => {
      writes.push([...batch]);
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    () => paused,
  );
  return { writer, writes, finish, pause: (p: boolean) => (paused = p) };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchWriter', () => {
  it('writes a frame at once when no write runs, and the frames that arrive meanwhile together next', async () => {
    const { writer, writes, finish } = setUp();
    writer.add(1);
    await tick();
    expect(writes).toEqual([[1]]);
    writer.add(2);
    writer.add(3);
    await tick();
    expect(writes).toHaveLength(1); // one write at a time
    finish.shift()!();
    await tick();
    expect(writes).toEqual([[1], [2, 3]]);
    finish.shift()!();
  });

  it('writes at most maxBatch frames at once and the rest in the following writes', async () => {
    const { writer, writes, finish } = setUp({ maxBatch: 2 });
    writer.add(1);
    writer.add(2);
    writer.add(3);
    await tick();
    expect(writes).toEqual([[1, 2]]);
    finish.shift()!();
    await tick();
    expect(writes).toEqual([[1, 2], [3]]);
    finish.shift()!();
  });

  it('waits for the interval before writing a partial batch when one is set', async () => {
    const { writer, writes, finish } = setUp({ flushIntervalMs: 50 });
    writer.add(1);
    await tick(10);
    expect(writes).toEqual([]);
    await tick(80);
    expect(writes).toEqual([[1]]);
    finish.shift()!();
  });

  it('holds the frames while paused and gives them up with takeAll', async () => {
    const { writer, writes, pause } = setUp();
    pause(true);
    writer.add(1);
    writer.add(2);
    await tick();
    expect(writes).toEqual([]);
    expect(writer.takeAll()).toEqual([1, 2]);
    expect(writer.length).toBe(0);
  });
});

describe('BatchWriter after stop', () => {
  it('writes nothing by itself, and one batch when flushed', async () => {
    const { writer, writes, finish } = setUp({ maxBatch: 2 });
    writer.stop();
    writer.add(1);
    writer.add(2);
    writer.add(3);
    await tick();
    expect(writes).toEqual([]);
    const flushed = writer.flush();
    finish.shift()!();
    await flushed;
    await tick();
    expect(writes).toEqual([[1, 2]]);
    expect(writer.length).toBe(1);
  });
});
