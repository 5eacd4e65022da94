import type { CsvRow } from './history.repository';

/**
 * CSV for Excel users. Default (`comma`): ";" between fields and "," as the decimal mark — what
 * Excel with Polish regional settings (the lab's) opens by double-click into columns of numbers;
 * with "," separators and decimal points it would put each row in one cell, or read 21.4 as a
 * date. `point`: "," and "." for English settings and scripts. UTF-8 with a BOM (so Excel reads
 * it as UTF-8), CRLF line ends (RFC 4180), one header row, one row per frame. Only numbers,
 * timestamps and fixed identifiers are written (the last two columns: the thermo_ids the ingest
 * flagged out of range, and the kinds of the observations recorded since the previous frame, each
 * list space-separated; observation notes are not), so no cell can be read as a formula.
 */
export interface CsvDialect {
  separator: ';' | ',';
  decimal: ',' | '.';
}

export function csvDialect(decimal: 'comma' | 'point'): CsvDialect {
  return decimal === 'comma' ? { separator: ';', decimal: ',' } : { separator: ',', decimal: '.' };
}

export const CSV_BOM = '\uFEFF';
const EOL = '\r\n';

export function csvHeader(channels: number, dialect: CsvDialect): string {
  const columns = ['time_s', 'ts_utc', 'daq_ts_utc', 'radiance_kw_m2', 'pressure_pa', 'pk_c'];
  for (let i = 1; i <= channels; i++) columns.push(`thermo_${i}_c`);
  columns.push('faults', 'observations');
  return columns.join(dialect.separator) + EOL;
}

/** `observations`: the kinds of the observations in (previous frame, this frame], in time order. */
export function csvRow(row: CsvRow, channels: number, dialect: CsvDialect, observations: readonly string[] = []): string {
  const cells = [
    formatNumber(row.time, dialect),
    row.ts.toISOString(),
    row.daqTs ? row.daqTs.toISOString() : '',
    formatNumber(row.radiance, dialect),
    formatNumber(row.pressure, dialect),
    formatNumber(row.pk, dialect),
  ];
  for (let i = 0; i < channels; i++) cells.push(formatNumber(row.thermocouples?.[i] ?? null, dialect));
  cells.push(row.faults?.join(' ') ?? '', observations.join(' '));
  return cells.join(dialect.separator) + EOL;
}

export function formatNumber(value: number | null, dialect: CsvDialect): string {
  if (value === null || !Number.isFinite(value)) return '';
  const text = String(value);
  return dialect.decimal === '.' ? text : text.replace('.', ',');
}

/** A file name for Content-Disposition: ASCII for every client, plus the research's name in UTF-8 (RFC 6266). */
export function csvFilename(researchId: string, name: string): { ascii: string; utf8: string } {
  const ascii = `${slug(name) || 'research'}-${researchId.slice(0, 8)}.csv`;
  return { ascii, utf8: `${name.trim() || 'research'}.csv` };
}

function slug(text: string): string {
  return text
    .replace(/[łŁ]/g, (c) => (c === 'ł' ? 'l' : 'L'))
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}
