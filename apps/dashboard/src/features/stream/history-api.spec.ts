import { filenameFromDisposition, historyKeys } from './history-api';

describe('filenameFromDisposition', () => {
  it("prefers the UTF-8 name (the research's own), then the ASCII one, then the fallback", () => {
    const header = `attachment; filename="Sciana-laczona-EI-60-0b9f2b4e.csv"; filename*=UTF-8''${encodeURIComponent('Ściana łączona EI60.csv')}`;
    expect(filenameFromDisposition(header, 'x.csv')).toBe('Ściana łączona EI60.csv');
    expect(filenameFromDisposition('attachment; filename="a b.csv"', 'x.csv')).toBe('a b.csv');
    expect(filenameFromDisposition('attachment; filename=plain.csv', 'x.csv')).toBe('plain.csv');
    expect(filenameFromDisposition(null, 'x.csv')).toBe('x.csv');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''..%2F..%2Fetc.csv", 'x.csv')).toBe('.._.._etc.csv');
  });
});

describe('historyKeys', () => {
  it("keeps a viewer's and the staff's reads apart, and each range apart", () => {
    const staff = historyKeys.series({ kind: 'staff' }, 'r1', { points: 1000 });
    const viewer = historyKeys.series({ kind: 'viewer', researchId: 'r1', token: 't' }, 'r1', { points: 1000 });
    expect(staff).not.toEqual(viewer);
    expect(historyKeys.series({ kind: 'staff' }, 'r1', { points: 800, from: 1, to: 2 })).not.toEqual(
      historyKeys.series({ kind: 'staff' }, 'r1', { points: 800, from: 1, to: 3 }),
    );
    expect(staff.slice(0, 3)).toEqual(historyKeys.research({ kind: 'staff' }, 'r1'));
  });
});
