import { nextStatementSize, STATEMENT_MS } from './statement-size';

describe('nextStatementSize', () => {
  it('moves toward a statement of STATEMENT_MS: at most doubled or halved, within its bounds', () => {
    expect(nextStatementSize(100, STATEMENT_MS, 10, 1000)).toBe(100);
    expect(nextStatementSize(100, STATEMENT_MS / 1.5, 10, 1000)).toBe(150);
    expect(nextStatementSize(100, 1, 10, 1000)).toBe(200);
    expect(nextStatementSize(100, STATEMENT_MS * 10, 10, 1000)).toBe(50);
    expect(nextStatementSize(600, 1, 10, 1000)).toBe(1000);
    expect(nextStatementSize(12, STATEMENT_MS * 10, 10, 1000)).toBe(10);
    expect(nextStatementSize(1, STATEMENT_MS * 10, 1, 6)).toBe(1);
  });
});
