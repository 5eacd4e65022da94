import { type ExportCell, Elapsed, hms, wallClockText } from './export-format';
import { visibleText } from '../core/file-name';

/**
 * CSV for Excel users (the columns: export-format.ts). Default (`comma`): ";" between fields and "," as the decimal mark — what
 * Excel with Polish regional settings (the lab's) opens by double-click into columns of numbers;
 * with "," separators and decimal points it would put each row in one cell, or read 21.4 as a
 * date. `point`: "," and "." for English settings and scripts. UTF-8 with a BOM (so Excel reads
 * it as UTF-8), CRLF line ends (RFC 4180), one header row (after the metadata block when asked
 * for), one row per frame. The rows hold numbers, times and fixed identifiers (the last two columns:
 * the thermo_ids the ingest flagged out of range, and the kinds of the observations recorded since
 * the previous frame, each list space-separated; observation notes are not); free text (the
 * research's and thermocouples' names, reasons) is quoted where needed and never starts a formula.
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

export function formatNumber(value: number | null, dialect: CsvDialect): string {
  if (value === null || !Number.isFinite(value)) return '';
  const text = String(value);
  return dialect.decimal === '.' ? text : text.replace('.', ',');
}

/** A free-text cell (names, reasons): never read as a formula, quoted when it needs to be (RFC 4180). */
export function csvText(text: string, dialect: CsvDialect): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return safe.includes(dialect.separator) || /["\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvCell(cell: ExportCell, dialect: CsvDialect): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return formatNumber(cell, dialect);
  if (cell instanceof Date) return wallClockText(cell);
  if (cell instanceof Elapsed) return hms(cell.seconds);
  return csvText(cell, dialect);
}

export function csvLine(cells: readonly ExportCell[], dialect: CsvDialect): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : dialect.separator) + csvCell(cells[i]!, dialect);
  return line + EOL;
}

/**
 * A file name for Content-Disposition (core/file-name.ts, `attachment`): ASCII for every client, plus the research's
 * name in UTF-8 (RFC 6266) without control and format characters (a bidi override would make it read as another type).
 */
export function exportFilename(
  researchId: string,
  name: string,
  extension: 'csv' | 'xlsx' | 'pdf' | 'zip',
): { ascii: string; utf8: string } {
  const ascii = `${slug(name) || 'research'}-${researchId.slice(0, 8)}.${extension}`;
  return { ascii, utf8: `${visibleText(name).trim() || 'research'}.${extension}` };
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
