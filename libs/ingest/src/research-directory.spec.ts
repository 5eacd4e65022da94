import { ResearchDirectory } from './research-directory';

const WINDOW = { startAt: new Date(0), endAt: new Date(1) };

describe('ResearchDirectory', () => {
  it('looks an id up once, answers from the cache, and refreshes a known research in the background', async () => {
    let now = 0;
    const find = jest.fn(async (id: string) => (id === 'a' ? WINDOW : null));
    const directory = new ResearchDirectory(find, { knownTtlMs: 100, unknownTtlMs: 10, now: () => now });
    expect(await directory.status('a')).toEqual({ kind: 'known', window: WINDOW });
    expect(directory.status('a')).toEqual({ kind: 'known', window: WINDOW });
    now = 200;
    expect(directory.status('a')).toEqual({ kind: 'known', window: WINDOW }); // stale but answered
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('asks again about an unknown id after a short while (a research created just before its DAQ starts)', async () => {
    let now = 0;
    let exists = false;
    const directory = new ResearchDirectory(async () => (exists ? WINDOW : null), { unknownTtlMs: 10, now: () => now });
    expect(await directory.status('b')).toEqual({ kind: 'unknown' });
    exists = true;
    expect(directory.status('b')).toEqual({ kind: 'unknown' });
    now = 11;
    expect(await directory.status('b')).toEqual({ kind: 'known', window: WINDOW });
  });

  it('answers unverified when the database cannot, and shares one lookup between concurrent callers', async () => {
    const find = jest.fn(async () => {
      throw new Error('down');
    });
    const directory = new ResearchDirectory(find);
    const [x, y] = await Promise.all([directory.status('c'), directory.status('c')]);
    expect([x, y]).toEqual([{ kind: 'unverified' }, { kind: 'unverified' }]);
    expect(find).toHaveBeenCalledTimes(1);
  });
});
