import { commit, HISTORY_LIMIT, redo, startHistory, undo } from './history';

describe('undo and redo', () => {
  it('goes back and forth through the changes', () => {
    let h = startHistory('a');
    h = commit(commit(h, 'b'), 'c');
    h = undo(h);
    expect(h.present).toBe('b');
    h = undo(h);
    expect(h.present).toBe('a');
    expect(undo(h)).toBe(h);
    h = redo(redo(h));
    expect(h.present).toBe('c');
    expect(redo(h)).toBe(h);
  });

  it('forgets what was undone once something new is done', () => {
    const h = commit(undo(commit(startHistory(1), 2)), 3);
    expect(h.present).toBe(3);
    expect(h.future).toEqual([]);
    expect(undo(h).present).toBe(1);
  });

  it('records nothing for the same state, and keeps at most the limit of steps', () => {
    const h = startHistory('x');
    expect(commit(h, 'x')).toBe(h);
    let long = startHistory(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) long = commit(long, i);
    expect(long.past).toHaveLength(HISTORY_LIMIT);
    expect(long.past[0]).toBe(20);
  });
});
