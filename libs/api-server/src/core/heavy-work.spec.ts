import { EventEmitter } from 'node:events';
import { HttpException } from '@nestjs/common';
import { ClientGone, HeavyWork, type WatchedResponse } from './heavy-work';

/** A response whose client can leave (close before finished) or be served to the end. */
class FakeResponse extends EventEmitter implements WatchedResponse {
  writableFinished = false;
  destroyed = false;
  readonly headers = new Map<string, string>();
  setHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  leave() {
    this.destroyed = true;
    this.emit('close');
  }
}

/** A work that runs until released, and records the signal it was given. */
function pending() {
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const seen: { signal?: AbortSignal } = {};
  return {
    seen,
    done,
    work: async (signal: AbortSignal) => {
      seen.signal = signal;
      await finished;
      return 'made';
    },
  };
}

async function refusal(run: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof HttpException)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.getStatus(), detail: (error.getResponse() as { detail: string }).detail };
}

describe('HeavyWork: exports and reports capped per instance and per caller', () => {
  it('refuses a second work of the same caller at once with 429 and Retry-After, and takes it once the first is done', async () => {
    const heavy = new HeavyWork({ heavyWorkConcurrency: 2 });
    const first = pending();
    const running = heavy.run('csv', 'user:1', new FakeResponse(), first.work);
    const res = new FakeResponse();
    const refused = await refusal(heavy.run('xlsx', 'user:1', res, async () => 'never'));
    expect(refused.status).toBe(429);
    expect(refused.detail).toMatch(/one at a time/);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    first.done();
    expect(await running).toBe('made');
    expect(heavy.running).toBe(0);
    expect(await heavy.run('xlsx', 'user:1', new FakeResponse(), async () => 'again')).toBe('again');
  });

  it('refuses any caller once the instance runs its most, naming the cap', async () => {
    const heavy = new HeavyWork({ heavyWorkConcurrency: 2 });
    const [a, b] = [pending(), pending()];
    const runs = [
      heavy.run('csv', 'email:a', new FakeResponse(), a.work),
      heavy.run('report', 'user:b', new FakeResponse(), b.work),
    ];
    const res = new FakeResponse();
    const refused = await refusal(heavy.run('xlsx', 'user:c', res, async () => 'never'));
    expect(refused).toEqual({ status: 429, detail: expect.stringContaining('(2)') });
    expect(res.headers.get('Retry-After')).toBeDefined();
    a.done();
    b.done();
    await Promise.all(runs);
    expect(heavy.running).toBe(0);
  });

  it('aborts the work when its client leaves, frees the slot when the work returns, and answers nothing', async () => {
    const heavy = new HeavyWork({ heavyWorkConcurrency: 1 });
    const res = new FakeResponse();
    let reads = 0;
    const run = heavy.run('xlsx', 'user:1', res, async (signal) => {
      for (;;) {
        signal.throwIfAborted();
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.leave();
    expect(await run).toBeUndefined();
    const after = reads;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reads).toBe(after);
    expect(heavy.running).toBe(0);
  });

  it('a response closed after it finished is no abort; a work failing with its client there fails as it is', async () => {
    const heavy = new HeavyWork({ heavyWorkConcurrency: 1 });
    const res = new FakeResponse();
    const work = pending();
    const run = heavy.run('csv', 'user:1', res, work.work);
    res.writableFinished = true;
    res.emit('close');
    work.done();
    await run;
    expect(work.seen.signal?.aborted).toBe(false);
    await expect(
      heavy.run('csv', 'user:1', new FakeResponse(), () => Promise.reject(new Error('database down'))),
    ).rejects.toThrow('database down');
    expect(heavy.running).toBe(0);
  });

  it('a client already gone when the work starts aborts it at once', async () => {
    const heavy = new HeavyWork({ heavyWorkConcurrency: 1 });
    const res = new FakeResponse();
    res.destroyed = true;
    let reason: unknown;
    await heavy.run('report', 'user:1', res, async (signal) => {
      reason = signal.reason;
    });
    expect(reason).toBeInstanceOf(ClientGone);
  });
});
