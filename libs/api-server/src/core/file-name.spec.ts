import contentDisposition from 'content-disposition';
import { attachment, safeFileName } from './file-name';

/** The file name a browser takes from the header (content-disposition's own parser: filename* first). */
const downloaded = (header: string) => contentDisposition.parse(header).parameters.filename;

describe('download file names', () => {
  it.each([
    ['U+202E (right-to-left override)', 'Raport\u202Efdp.exe.csv', 'Raportfdp.exe.csv'],
    ['U+202A–U+202D embeddings and overrides', '\u202Aa\u202Bb\u202Cc\u202Dd.pdf', 'abcd.pdf'],
    ['U+2066–U+2069 isolates', '\u2066a\u2067b\u2068c\u2069.pdf', 'abc.pdf'],
    ['U+200E/U+200F marks and U+061C', 'a\u200Eb\u200Fc\u061C.pdf', 'abc.pdf'],
    ['zero-width and byte-order marks', 'a\u200Bb\u200Dc\uFEFF.pdf', 'abc.pdf'],
    ['controls (C0, DEL, C1) and line separators', 'a\u0000b\u0007c\u007Fd\u0085e\u2028f\u2029.pdf', 'abcdef.pdf'],
    ['a lone surrogate', 'a\uD800b.pdf', 'ab.pdf'],
  ])('drops %s', (_what, name, shown) => {
    expect(downloaded(attachment(name))).toBe(shown);
    expect(downloaded(attachment(name, 'fallback.pdf'))).toBe(shown);
  });

  it('keeps letters of any script, spaces and punctuation', () => {
    const header = attachment('Rysunek 1 – przekrój "A"; عربي.pdf', 'Rysunek-1.pdf');
    expect(downloaded(header)).toBe('Rysunek 1 – przekrój "A"; عربي.pdf');
    expect(header).toMatch(/^attachment; filename="Rysunek-1\.pdf"; filename\*=UTF-8''/);
  });

  it('falls back to the ASCII name, then to "download", when nothing visible is left', () => {
    expect(downloaded(attachment('\u202E\u2066', 'research-1234abcd.csv'))).toBe('research-1234abcd.csv');
    expect(downloaded(attachment('\u202E'))).toBe('download');
  });

  it("an upload's name loses its format characters as its controls become _", () => {
    const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    expect(safeFileName(latin1('rys\u202Efdp.exe\u0001/x.pdf'), 'drawing')).toBe('rysfdp.exe__x.pdf');
    expect(safeFileName(latin1('\u2067\u200F'), 'drawing')).toBe('drawing');
  });
});
