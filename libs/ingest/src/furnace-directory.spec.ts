import { FurnaceDirectory, type FurnaceLookups, type FurnaceSchedule } from './furnace-directory';

const HOUR = 3600_000;
const A = { researchId: 'a', startAt: 10 * HOUR, endAt: 11 * HOUR };
const B = { researchId: 'b', startAt: 11 * HOUR, endAt: 13 * HOUR };
const C = { researchId: 'c', startAt: 20 * HOUR, endAt: 21 * HOUR };

function lookups(schedule: (code: string) => FurnaceSchedule | null): FurnaceLookups & {
  schedule: jest.Mock;
  testAt: jest.Mock;
} {
  return {
    schedule: jest.fn(async (code: string) => schedule(code)),
    testAt: jest.fn(async () => 'old'),
  };
}

describe('FurnaceDirectory', () => {
  it('routes by time to the test whose [start, end) holds it, from the cache, and calls the rest unassigned', async () => {
    const now = 12 * HOUR;
    const find = lookups((code) => (code === 'p1' ? { furnaceId: 'f1', tests: [A, B, C], since: 0 } : null));
    const directory = new FurnaceDirectory(find, { now: () => now });
    expect(await directory.route('p1', 10.5 * HOUR)).toEqual({ kind: 'research', researchId: 'a' });
    expect(directory.route('p1', 11 * HOUR)).toEqual({ kind: 'research', researchId: 'b' }); // a's end is b's start
    expect(directory.route('p1', 11 * HOUR - 1)).toEqual({ kind: 'research', researchId: 'a' });
    expect(directory.route('p1', 20.5 * HOUR)).toEqual({ kind: 'research', researchId: 'c' });
    expect(directory.route('p1', 15 * HOUR)).toEqual({ kind: 'unassigned' });
    expect(directory.route('p1', 9 * HOUR)).toEqual({ kind: 'unassigned' });
    expect(find.schedule).toHaveBeenCalledTimes(1);
    expect(await directory.route('nope', 10.5 * HOUR)).toEqual({ kind: 'unknown' });
    expect(directory.route('nope', 10.5 * HOUR)).toEqual({ kind: 'unknown' });
  });

  it('reads the schedule again before calling a frame unassigned once it is older than missTtlMs (a test just created)', async () => {
    let now = 0;
    let tests = [A];
    const find = lookups(() => ({ furnaceId: 'f1', tests, since: -HOUR }));
    const directory = new FurnaceDirectory(find, { missTtlMs: 1000, knownTtlMs: 10_000, now: () => now });
    expect(await directory.route('p1', 12 * HOUR)).toEqual({ kind: 'unassigned' });
    tests = [A, B];
    now = 500;
    expect(directory.route('p1', 12 * HOUR)).toEqual({ kind: 'unassigned' }); // within a second: from the cache
    now = 1500;
    expect(await directory.route('p1', 12 * HOUR)).toEqual({ kind: 'research', researchId: 'b' });
    expect(find.schedule).toHaveBeenCalledTimes(2);
    // A hit on an old schedule answers at once and reads it again in the background.
    now = 20_000;
    expect(directory.route('p1', 12 * HOUR)).toEqual({ kind: 'research', researchId: 'b' });
    expect(find.schedule).toHaveBeenCalledTimes(3);
  });

  it('asks about a frame older than the cached schedule by itself', async () => {
    const find = lookups(() => ({ furnaceId: 'f1', tests: [B], since: 11 * HOUR }));
    const directory = new FurnaceDirectory(find, { now: () => 12 * HOUR });
    await directory.route('p1', 12 * HOUR);
    expect(await directory.route('p1', 2 * HOUR)).toEqual({ kind: 'research', researchId: 'old' });
    expect(find.testAt).toHaveBeenCalledWith('f1', new Date(2 * HOUR));
  });

  it('answers unverified for a code never seen while the database cannot answer, and keeps a known schedule', async () => {
    let down = true;
    const find: FurnaceLookups = {
      schedule: jest.fn(async () => {
        if (down) throw new Error('down');
        return { furnaceId: 'f1', tests: [A], since: 0 };
      }),
      testAt: jest.fn(),
    };
    let now = 0;
    const directory = new FurnaceDirectory(find, { now: () => now });
    const [x, y] = await Promise.all([directory.route('p1', 10.5 * HOUR), directory.route('p1', 10.5 * HOUR)]);
    expect([x, y]).toEqual([{ kind: 'unverified' }, { kind: 'unverified' }]);
    expect(find.schedule).toHaveBeenCalledTimes(1);
    down = false;
    expect(await directory.route('p1', 10.5 * HOUR)).toEqual({ kind: 'research', researchId: 'a' });
    down = true;
    now = 5_000;
    expect(await directory.route('p1', 12 * HOUR)).toEqual({ kind: 'unassigned' });
    expect(await directory.route('p1', 10.5 * HOUR)).toEqual({ kind: 'research', researchId: 'a' });
  });
});
