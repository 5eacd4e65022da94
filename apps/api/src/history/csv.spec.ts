import { csvDialect, csvFilename, csvHeader, csvRow, formatNumber } from './csv';

const row = { time: 12.5, ts: new Date('2030-01-01T10:00:12.500Z'), daqTs: null, radiance: 1.75, pressure: null, pk: 812.4, thermocouples: [21, null, 1e-7], faults: null };

describe('CSV for Excel', () => {
  it('writes ";" and a decimal comma by default (Polish Excel), "," and a decimal point on request', () => {
    const pl = csvDialect('comma');
    expect(csvHeader(3, pl)).toBe('time_s;ts_utc;daq_ts_utc;radiance_kw_m2;pressure_pa;pk_c;thermo_1_c;thermo_2_c;thermo_3_c;faults;observations\r\n');
    expect(csvRow(row, 4, pl)).toBe('12,5;2030-01-01T10:00:12.500Z;;1,75;;812,4;21;;1e-7;;;\r\n');
    const en = csvDialect('point');
    expect(csvRow(row, 2, en)).toBe('12.5,2030-01-01T10:00:12.500Z,,1.75,,812.4,21,,,\r\n');
    expect(formatNumber(Number.NaN, pl)).toBe('');
  });

  it('ends a row with the channels flagged out of range and the observations since the previous frame', () => {
    const broken = { ...row, thermocouples: [21, null], faults: [2, 5] };
    expect(csvRow(broken, 2, csvDialect('comma'), ['cotton_pad', 'note'])).toBe('12,5;2030-01-01T10:00:12.500Z;;1,75;;812,4;21;;2 5;cotton_pad note\r\n');
  });

  it('names the file after the research, in ASCII and in UTF-8', () => {
    expect(csvFilename('0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f', 'Ściana łączona EI/60')).toEqual({
      ascii: 'Sciana-laczona-EI-60-0b9f2b4e.csv',
      utf8: 'Ściana łączona EI/60.csv',
    });
    expect(csvFilename('0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f', '  ').ascii).toBe('research-0b9f2b4e.csv');
  });
});
