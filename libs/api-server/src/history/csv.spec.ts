import { csvDialect, csvLine, csvText, exportFilename, formatNumber } from './csv';
import { Elapsed } from './export-format';

describe('CSV for Excel', () => {
  it('writes ";" and a decimal comma by default (Polish Excel), "," and a decimal point on request', () => {
    const cells = [12.5, 0.2083, new Elapsed(12.5), new Date(Date.UTC(2030, 0, 1, 11, 0, 12)), null, 812.4, 1e-7, ''];
    expect(csvLine(cells, csvDialect('comma'))).toBe('12,5;0,2083;00:00:12;2030-01-01 11:00:12;;812,4;1e-7;\r\n');
    expect(csvLine(cells, csvDialect('point'))).toBe('12.5,0.2083,00:00:12,2030-01-01 11:00:12,,812.4,1e-7,\r\n');
    expect(formatNumber(Number.NaN, csvDialect('comma'))).toBe('');
  });

  it('quotes free text that holds the separator, a quote or a line break, and never lets it start a formula', () => {
    const pl = csvDialect('comma');
    expect(csvText('Ściana "A"; EI 60', pl)).toBe('"Ściana ""A""; EI 60"');
    expect(csvText('Ściana "A"; EI 60', csvDialect('point'))).toBe('"Ściana ""A""; EI 60"');
    expect(csvText('a, b', pl)).toBe('a, b');
    expect(csvText('a, b', csvDialect('point'))).toBe('"a, b"');
    expect(csvText('=cmd|x', pl)).toBe("'=cmd|x");
    expect(csvText('-1+1', pl)).toBe("'-1+1");
    expect(csvText('odpadła\nprzy 5 min', pl)).toBe('"odpadła\nprzy 5 min"');
  });

  it('names the file after the research, in ASCII and in UTF-8', () => {
    expect(exportFilename('0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f', 'Ściana łączona EI/60', 'csv')).toEqual({
      ascii: 'Sciana-laczona-EI-60-0b9f2b4e.csv',
      utf8: 'Ściana łączona EI/60.csv',
    });
    expect(exportFilename('0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f', '  ', 'xlsx').ascii).toBe('research-0b9f2b4e.xlsx');
  });
});
