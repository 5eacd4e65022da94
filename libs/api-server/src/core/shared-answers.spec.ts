import { SharedAnswers } from './shared-answers';

describe('SharedAnswers', () => {
  afterEach(() => jest.useRealTimers());

  it('makes one answer for the requests within its time, then a new one', async () => {
    jest.useFakeTimers({ now: 0 });
    const shared = new SharedAnswers<number>(1_000, 10);
    let made = 0;
    const make = () => Promise.resolve(++made);
    expect(await Promise.all([shared.get('r|a', make), shared.get('r|a', make)])).toEqual([1, 1]);
    jest.setSystemTime(999);
    expect(await shared.get('r|a', make)).toBe(1);
    jest.setSystemTime(1_000);
    expect(await shared.get('r|a', make)).toBe(2);
    expect(await shared.get('r|b', make)).toBe(3);
  });

  it("forgets a research's answers, and a failed answer at once", async () => {
    const shared = new SharedAnswers<number>(60_000, 10);
    let made = 0;
    const make = () => Promise.resolve(++made);
    await shared.get('r1|x', make);
    await shared.get('r2|x', make);
    shared.forget('r1');
    expect(await shared.get('r1|x', make)).toBe(3);
    expect(await shared.get('r2|x', make)).toBe(2);
    await expect(shared.get('r3|x', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await shared.get('r3|x', make)).toBe(4);
  });

  it('keeps at most its number of answers, the oldest go first', async () => {
    const shared = new SharedAnswers<string>(60_000, 2);
    for (const key of ['a|1', 'b|1', 'c|1']) await shared.get(key, () => Promise.resolve(key));
    let made = 0;
    await shared.get('a|1', () => Promise.resolve(`again ${++made}`));
    await shared.get('c|1', () => Promise.resolve(`again ${++made}`));
    expect(made).toBe(1);
  });
});
