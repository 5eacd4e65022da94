import { keysetPages } from './keyset-pages';

/** A table of keys 1..n read `size` at a time; a page "reaches the database" a turn of the event loop after it is asked for, as with TypeORM. */
function table(n: number) {
  const asked: (number | null)[] = [];
  const sent: (number | null)[] = [];
  const read = (after: number | null): Promise<number[]> => {
    asked.push(after);
    setImmediate(() => sent.push(after));
    const from = (after ?? 0) + 1;
    return new Promise((resolve) =>
      setImmediate(() => resolve(Array.from({ length: Math.max(0, Math.min(3, n - from + 1)) }, (_, i) => from + i))),
    );
  };
  return { read, asked, sent };
}

describe('keysetPages', () => {
  it('reads every row once in key order, each page after the last key of the one before', async () => {
    const t = table(7);
    const pages: number[][] = [];
    for await (const rows of keysetPages(t.read, { size: 3, keyOf: (r) => r })) pages.push(rows);
    expect(pages).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(t.asked).toEqual([null, 3, 6]);
  });

  it('hands a page over only once the next one has been sent, so the caller may work through it without yielding', async () => {
    const t = table(9);
    const sentWhenHandedOver: (number | null)[][] = [];
    for await (const rows of keysetPages(t.read, { size: 3, keyOf: (r) => r })) {
      sentWhenHandedOver.push([...t.sent]);
      void rows;
    }
    // Page [1,2,3] arrives with the read after 3 already sent, [4,5,6] with the read after 6 sent, [7,8,9]
    // with the read after 9; that page, empty (9 rows are three full pages), asks for nothing more.
    expect(sentWhenHandedOver).toEqual([
      [null, 3],
      [null, 3, 6],
      [null, 3, 6, 9],
      [null, 3, 6, 9],
    ]);
  });

  it('stops reading when the signal fires, with its reason', async () => {
    const t = table(30);
    const controller = new AbortController();
    const seen: number[][] = [];
    await expect(
      (async () => {
        for await (const rows of keysetPages(t.read, { size: 3, keyOf: (r) => r, signal: controller.signal })) {
          seen.push(rows);
          if (seen.length === 2) controller.abort(new Error('client gone'));
        }
      })(),
    ).rejects.toThrow('client gone');
    expect(seen).toHaveLength(2);
    expect(t.asked).toEqual([null, 3, 6]);
  });
});
