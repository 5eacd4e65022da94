import { Elapsed, type ExportCell, hms } from './export-format';

/*
 * SpreadsheetML (Office Open XML, ECMA-376 part 1) for the history workbook, written as bytes into one
 * reused buffer. exceljs (which wrote it before) built a cell object, a style object and their XML
 * text for every cell: a 24-hour test at 1 Hz with 300 thermocouples, 28 million cells, took 70 s on a
 * quiet machine, 77 CPU s. Here a cell is ~50 ns; the whole workbook of such a test, deflated, is
 * ~3.3 CPU s, and its export 10 CPU s with the pass through the frames (docs/performance.md, "Exports").
 *
 * - Numbers: `<c><v>…</v></c>` (t="n" is the default). The text is JavaScript's own (the shortest
 *   decimal that reads back as the same double); for a value with at most four decimals (every number
 *   of the exports but dates and durations) its digits are written straight into the buffer: the same
 *   text, where String(number) alone costs twice a whole cell. Not finite: an empty cell.
 * - Text: inline strings (`t="inlineStr"`): no shared-strings table kept until the end; the readings'
 *   text (flagged channels, observation kinds) is short and seldom repeated. &, <, >, and quotes escaped;
 *   the control characters XML 1.0 cannot hold (all below U+0020 but tab, LF and CR, and U+FFFE/U+FFFF)
 *   and DEL dropped, as exceljs did; `xml:space="preserve"` keeps leading and trailing spaces.
 * - Empty cells (null, '') are left out; the cell after one says where it is (`r`), the others follow
 *   their neighbour, which the format allows (the `r` of a cell is optional) and saves a third of the
 *   XML to compress; each row's first cell has its `r` (exceljs, reading, needs it).
 * - Dates: Excel's serial days since 1899-12-30 of the Date's UTC fields, which hold the Warsaw wall
 *   clock (warsawWallClock): the same number exceljs wrote. Elapsed times: a fraction of a day, whole
 *   seconds, shown `[hh]:mm:ss`; before ignition hh:mm:ss text (a negative time shows as #### in Excel).
 * - Styles by index (STYLE): plain, date, elapsed, and the same three bold for header rows.
 */

/** What styles.xml defines, in order: a cell's `s`; `bold` is added to any of the others in a header row. */
const STYLE = { plain: 0, date: 1, elapsed: 2, bold: 3 } as const;

const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const ELAPSED_FORMAT = '[hh]:mm:ss';

/** Days from Excel's day 0 (1899-12-30, the 1900 date system) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;
const MS_PER_DAY = 86_400_000;

/** The most decimals written digit by digit (minutes have four); more go through String(). */
const SCALES = [1, 10, 100, 1_000, 10_000];
/** Below this, k / 10^d has one integer k per double: the digits are exactly String(number)'s. */
const EXACT_BELOW = 1e15;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const ESCAPES: Readonly<Record<number, string>> = {
  0x22: '&quot;',
  0x26: '&amp;',
  0x27: '&apos;',
  0x3c: '&lt;',
  0x3e: '&gt;',
};

/** Text as XML character data or an attribute value (see above: what is escaped, what dropped). */
export function xmlText(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const dropped = (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || c === 0xfffe || c === 0xffff;
    const escape = dropped ? '' : ESCAPES[c];
    if (escape === undefined) continue;
    out += text.slice(from, i) + escape;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const ROW_OPEN = ascii('<row r="');
const ROW_PLAIN = ascii('">');
const ROW_BOLD = ascii(`" s="${STYLE.bold}" customFormat="1">`);
const ROW_CLOSE = ascii('</row>');
const CELL_OPEN = ascii('<c');
const CELL_AT = ascii(' r="');
const STYLE_AT = ascii(' s="');
const NUMBER_VALUE = ascii('><v>');
const TEXT_VALUE = ascii(' t="inlineStr"><is><t>');
const TEXT_VALUE_PRESERVED = ascii(' t="inlineStr"><is><t xml:space="preserve">');
const TEXT_CLOSE = ascii('</t></is></c>');

interface SheetLayout {
  /** Column widths, in characters, from column A. */
  widths: readonly number[];
  /** Keep the first row in view (a frozen pane below it). */
  frozenHeader: boolean;
}

/** Room a number cell may take: markup, its address, a style and String(number)'s longest text. */
const CELL_ROOM = 80;

/**
 * One worksheet's XML: its start on construction, then rows; `take()` hands over what was written
 * since the last call (bytes of their own: the buffer is reused), `end()` closes the sheet. The
 * cells go straight into the buffer as bytes (the put* functions below); no string per cell.
 */
export class SheetXml {
  private buffer = Buffer.allocUnsafe(256 * 1024);
  private at = 0;
  private rowNumber = 0;
  private readonly columns: Buffer[] = [];

  constructor(layout: SheetLayout) {
    const view = layout.frozenHeader
      ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
        '<selection pane="bottomLeft"/></sheetView></sheetViews>'
      : '<sheetViews><sheetView workbookViewId="0"/></sheetViews>';
    const cols = layout.widths
      .map((width, i) => `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`)
      .join('');
    this.text(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}">${view}<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`,
    );
  }

  /** Bytes written and not yet taken. */
  get pending(): number {
    return this.at;
  }

  /** The next row (an empty one leaves its number unused). `bold`: a header row. */
  row(cells: readonly ExportCell[], bold = false): void {
    this.rowNumber += 1;
    this.ensure(64 + cells.length * CELL_ROOM);
    let buffer = this.buffer;
    const start = this.at;
    let at = put(buffer, start, ROW_OPEN);
    // The row's number, where a cell's address copies it from.
    const number = at;
    at = putFixed(buffer, at, this.rowNumber, 0);
    const numberEnd = at;
    at = put(buffer, at, bold ? ROW_BOLD : ROW_PLAIN);
    const bolder = bold ? STYLE.bold : 0;
    let written = 0;
    let follows = false;
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      let serial: number;
      let style: number = bolder;
      if (typeof value === 'number') serial = value;
      else if (value === null || value === undefined || value === '') serial = Number.NaN;
      else if (value instanceof Date) {
        serial = EXCEL_EPOCH_DAYS + value.getTime() / MS_PER_DAY;
        style += STYLE.date;
      } else if (value instanceof Elapsed && value.seconds >= 0) {
        serial = Math.floor(value.seconds) / 86_400;
        style += STYLE.elapsed;
      } else {
        // Text: its own room (the rest of the row's is kept).
        const text = xmlText(typeof value === 'string' ? value : hms(value.seconds));
        this.at = at;
        this.ensure(text.length * 3 + 64 + (cells.length - i) * CELL_ROOM);
        buffer = this.buffer;
        at = putCellStart(buffer, this.at, follows ? null : this.columnName(i), number, numberEnd, style);
        at = put(buffer, at, /^\s|\s$/.test(text) ? TEXT_VALUE_PRESERVED : TEXT_VALUE);
        at += buffer.write(text, at, 'utf8');
        at = put(buffer, at, TEXT_CLOSE);
        follows = true;
        written++;
        continue;
      }
      if (!Number.isFinite(serial)) {
        follows = false;
        continue;
      }
      if (follows && style === 0) {
        // Most cells: `<c><v>`, stored byte by byte.
        buffer[at] = 0x3c; // <
        buffer[at + 1] = 0x63; // c
        buffer[at + 2] = 0x3e; // >
        buffer[at + 3] = 0x3c; // <
        buffer[at + 4] = 0x76; // v
        buffer[at + 5] = 0x3e; // >
        at += 6;
      } else {
        at = putCellStart(buffer, at, follows ? null : this.columnName(i), number, numberEnd, style);
        at = put(buffer, at, NUMBER_VALUE);
      }
      at = putNumber(buffer, at, serial);
      buffer[at] = 0x3c; // </v></c>
      buffer[at + 1] = 0x2f;
      buffer[at + 2] = 0x76;
      buffer[at + 3] = 0x3e;
      buffer[at + 4] = 0x3c;
      buffer[at + 5] = 0x2f;
      buffer[at + 6] = 0x63;
      buffer[at + 7] = 0x3e;
      at += 8;
      follows = true;
      written++;
    }
    this.at = written === 0 ? start : put(buffer, at, ROW_CLOSE);
  }

  /** What was written since the last call. */
  take(): Buffer {
    const taken = Buffer.from(this.buffer.subarray(0, this.at));
    this.at = 0;
    return taken;
  }

  /** The sheet's last bytes (with whatever was not yet taken); nothing may be written after. */
  end(): Buffer {
    this.text(
      '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
    );
    return this.take();
  }

  private columnName(index: number): Buffer {
    let name = this.columns[index];
    if (name === undefined) {
      let text = '';
      for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
        text = String.fromCharCode(65 + ((n - 1) % 26)) + text;
      name = this.columns[index] = ascii(text);
    }
    return name;
  }

  /** Markup in UTF-8. */
  private text(markup: string): void {
    this.ensure(markup.length * 3);
    this.at += this.buffer.write(markup, this.at, 'utf8');
  }

  private ensure(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(bigger, 0, 0, this.at);
    this.buffer = bigger;
  }
}

/*
 * The writers of a cell's bytes: each puts its bytes at `at` in `buffer` (which has the room) and
 * returns where it ended. Short copies in a loop: a call into the runtime per cell would cost more.
 */

function put(buffer: Buffer, at: number, bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) buffer[at++] = bytes[i]!;
  return at;
}

/**
 * `<c`, with ` r="…"` when `column` is given (the cell does not follow the previous one; the row's
 * number is copied from buffer[rowFrom, rowTo)) and ` s="…"` unless plain.
 */
function putCellStart(
  buffer: Buffer,
  at: number,
  column: Buffer | null,
  rowFrom: number,
  rowTo: number,
  style: number,
): number {
  at = put(buffer, at, CELL_OPEN);
  if (column !== null) {
    at = put(buffer, at, CELL_AT);
    at = put(buffer, at, column);
    for (let i = rowFrom; i < rowTo; i++) buffer[at++] = buffer[i]!;
    buffer[at++] = 0x22; // "
  }
  if (style !== 0) {
    at = put(buffer, at, STYLE_AT);
    buffer[at++] = 0x30 + style;
    buffer[at++] = 0x22; // "
  }
  return at;
}

/** A finite number as String(value) writes it. */
function putNumber(buffer: Buffer, at: number, value: number): number {
  const negative = value < 0;
  const magnitude = negative ? -value : value;
  for (let d = 0; d < SCALES.length; d++) {
    const scale = SCALES[d]!;
    const k = Math.round(magnitude * scale);
    // k / 10^d is the double `value`: the decimal k·10^-d reads back as it (and with the fewest
    // decimals, the fewest digits; below EXACT_BELOW no other k with d decimals does).
    if (k < EXACT_BELOW && k / scale === magnitude) {
      if (negative) buffer[at++] = 0x2d; // -
      return putFixed(buffer, at, k, d);
    }
  }
  const text = String(value);
  for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
  return at;
}

/** k (a non-negative integer) with its last `decimals` digits after a point. */
function putFixed(buffer: Buffer, at: number, k: number, decimals: number): number {
  let length = 1;
  for (let p = 10; p <= k; p *= 10) length++;
  if (length <= decimals) length = decimals + 1;
  const end = at + length + (decimals > 0 ? 1 : 0);
  let i = end;
  if (k <= 0x7fffffff) {
    // Integer arithmetic (a double's % is a call into the C library).
    let rest = k | 0;
    for (let d = 0; d < decimals; d++) {
      buffer[--i] = 0x30 + (rest % 10);
      rest = (rest / 10) | 0;
    }
    if (decimals > 0) buffer[--i] = 0x2e; // .
    while (i > at) {
      buffer[--i] = 0x30 + (rest % 10);
      rest = (rest / 10) | 0;
    }
    return end;
  }
  let rest = k;
  for (let d = 0; d < decimals; d++) {
    const digit = rest % 10;
    buffer[--i] = 0x30 + digit;
    rest = (rest - digit) / 10;
  }
  if (decimals > 0) buffer[--i] = 0x2e; // .
  while (i > at) {
    const digit = rest % 10;
    buffer[--i] = 0x30 + digit;
    rest = (rest - digit) / 10;
  }
  return end;
}

/* ---------- The parts around the sheets ---------- */

/** Where sheet i (from 0) is in the package. */
export function sheetPath(index: number): string {
  return `xl/worksheets/sheet${index + 1}.xml`;
}

/**
 * Every part but the sheets: content types, relationships, the workbook (its sheets by name, in
 * order), the styles, and the document properties (`creator`, `created`).
 */
export function workbookParts(
  sheets: readonly string[],
  creator: string,
  created: Date,
): { name: string; xml: string }[] {
  const stamp = `${created.toISOString().slice(0, 19)}Z`;
  const sheetTypes = sheets.map(
    (_, i) =>
      `<Override PartName="/${sheetPath(i)}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  );
  const sheetRels = sheets.map(
    (_, i) => `<Relationship Id="rId${i + 2}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  return [
    {
      name: '[Content_Types].xml',
      xml:
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheetTypes.join('') +
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
        '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
        '</Types>',
    },
    {
      name: '_rels/.rels',
      xml:
        `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
        `<Relationship Id="rId2" Type="${PACKAGE_REL_NS}/metadata/core-properties" Target="docProps/core.xml"/>` +
        `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
        '</Relationships>',
    },
    {
      name: 'docProps/app.xml',
      xml: `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${xmlText(creator)}</Application></Properties>`,
    },
    {
      name: 'docProps/core.xml',
      xml:
        `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
        'xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
        `<dc:creator>${xmlText(creator)}</dc:creator>` +
        `<dcterms:created xsi:type="dcterms:W3CDTF">${stamp}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${stamp}</dcterms:modified>` +
        '</cp:coreProperties>',
    },
    {
      name: 'xl/workbook.xml',
      xml:
        `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>` +
        sheets.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 2}"/>`).join('') +
        '</sheets></workbook>',
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      xml: `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>${sheetRels.join('')}</Relationships>`,
    },
    { name: 'xl/styles.xml', xml: STYLES },
  ];
}

/** The cell formats of STYLE, in its order: a font (plain, bold) and a number format (none, date, elapsed) each. */
const STYLES = (() => {
  const font = (bold: boolean) =>
    `<font>${bold ? '<b/>' : ''}<sz val="11"/><name val="Calibri"/><family val="2"/></font>`;
  const formats = [0, 164, 165];
  const xf = (numFmtId: number, fontId: number) =>
    `<xf numFmtId="${numFmtId}" fontId="${fontId}" fillId="0" borderId="0" xfId="0"${numFmtId ? ' applyNumberFormat="1"' : ''}${fontId ? ' applyFont="1"' : ''}/>`;
  const xfs = [...formats.map((f) => xf(f, 0)), ...formats.map((f) => xf(f, 1))];
  return (
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
    `<numFmts count="2"><numFmt numFmtId="164" formatCode="${DATE_FORMAT}"/><numFmt numFmtId="165" formatCode="${ELAPSED_FORMAT}"/></numFmts>` +
    `<fonts count="2">${font(false)}${font(true)}</fonts>` +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
})();
