import { batched } from './batched';

describe('batched', () => {
  it('answers the calls made in one turn with one load, each its own value, and reads again on the next', async () => {
    const loads: number[][] = [];
    const double = batched(async (keys: readonly number[]) => {
      loads.push([...keys]);
      return keys.map((k) => k * 2);
    });
    expect(await Promise.all([double(1), double(2), double(2), double(3)])).toEqual([2, 4, 4, 6]);
    expect(await double(2)).toBe(4);
    expect(loads).toEqual([[1, 2, 2, 3], [2]]);
  });

  it('fails the calls of a failed load only', async () => {
    let fail = true;
    const echo = batched(async (keys: readonly string[]) => {
      if (fail) throw new Error('database down');
      return [...keys];
    });
    await expect(Promise.all([echo('a'), echo('b')])).rejects.toThrow('database down');
    fail = false;
    expect(await echo('c')).toBe('c');
  });
});
