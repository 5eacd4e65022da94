import { RecentTimes } from './live-order';

describe('RecentTimes', () => {
  it('recognises a time seen among the last `capacity` ones', () => {
    const recent = new RecentTimes(3);
    expect([1, 2, 3].map((t) => recent.add(t))).toEqual([true, true, true]);
    expect(recent.add(2)).toBe(false);
    recent.add(4); // 1 leaves
    expect([recent.has(1), recent.has(2), recent.has(4)]).toEqual([false, true, true]);
  });
});
