import PDFDocument from 'pdfkit';
import { formatWarsawDateTime } from '@furnace/contracts';
import { BOLD, REGULAR, withFonts } from './report-fonts';
import { fill } from '@furnace/text';
import type { ReportLang, ReportTexts } from './report-text';

/*
 * What the lab's PDF documents share (the test report, the classification report): A4 pages, the fonts
 * and colours, headings, label–value rows, tables that carry their header onto the next page, and the
 * footer "Strona n z N" on every page.
 */

export type Doc = PDFKit.PDFDocument;

export const MARGIN = 40;
const FOOTER_GAP = 24;
/** Room for an issued document's two more footer lines (its revision and the raw data's hash). */
const ISSUED_GAP = 20;
const FOOTER_LINE = 9.5;

/**
 * What an issued document states on every page (docs/behaviour.md, "The permanent record"): its revision, who
 * reviewed and approved the test and when, and the SHA-256 of the test's raw data as it was approved.
 */
export interface IssuedStamp {
  revision: number;
  reviewedBy: string;
  reviewedAt: Date;
  approvedBy: string;
  approvedAt: Date;
  dataSha256: string;
}
export const INK = '#212529';
export const MUTED = '#6c757d';
const RULE = '#dee2e6';
export const BRAND = '#009688';

/**
 * A new A4 document with the fonts registered, its pages buffered (the footers' "n of N" are written at the end);
 * `issued`: with room at the foot of each page for the issued document's stamp.
 */
export function newDocument({
  lang,
  title,
  author,
  createdAt,
  issued = false,
}: {
  lang: ReportLang;
  title: string;
  author: string;
  createdAt: Date;
  issued?: boolean;
}): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_GAP + (issued ? ISSUED_GAP : 0) },
    bufferPages: true,
    autoFirstPage: true,
    lang,
    info: { Title: title, Author: author, CreationDate: createdAt },
  });
  withFonts(doc);
  doc.font(REGULAR).fillColor(INK);
  return doc;
}

export const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
export const bottom = (doc: Doc) => doc.page.height - doc.page.margins.bottom;

/** A new page unless `height` more points fit on this one. */
export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

export function heading(doc: Doc, text: string): void {
  ensureSpace(doc, 60);
  doc.moveDown(0.6);
  doc
    .font(BOLD)
    .fontSize(12)
    .fillColor(BRAND)
    .text(text, MARGIN, doc.y, { width: contentWidth(doc) });
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y = y + 6;
  doc.font(REGULAR).fontSize(9).fillColor(INK);
}

/** A value taller than this (points, about a dozen lines) is written under its label, across the page (textBlock). */
const LONG_VALUE_PT = 120;

/** Label–value rows in two columns; a long value under its label instead, running onto the next pages. */
export function fields(doc: Doc, rows: [string, string][]): void {
  const labelWidth = 150;
  const width = contentWidth(doc);
  for (const [label, value] of rows) {
    doc.font(REGULAR).fontSize(9);
    const valueHeight = doc.heightOfString(value, { width: width - labelWidth });
    if (valueHeight > LONG_VALUE_PT) {
      textBlock(doc, label, value);
      continue;
    }
    const h = Math.max(doc.heightOfString(label, { width: labelWidth - 8 }), valueHeight);
    ensureSpace(doc, h + 3);
    const y = doc.y;
    doc
      .font(REGULAR)
      .fillColor(MUTED)
      .text(label, MARGIN, y, { width: labelWidth - 8 });
    doc
      .font(REGULAR)
      .fillColor(INK)
      .text(value, MARGIN + labelWidth, y, { width: width - labelWidth });
    doc.y = y + h + 3;
  }
}

export interface Column {
  title: string;
  /** Share of the content width. */
  width: number;
}

/** A table with a header row repeated on each page it runs onto. */
export function table(doc: Doc, columns: Column[], rows: string[][]): void {
  const width = contentWidth(doc);
  const widths = columns.map((c) => c.width * width);
  const pad = 3;
  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(8);
    return Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: widths[i]! - 2 * pad }))) + 2 * pad;
  };
  const drawRow = (cells: string[], font: string, fill: string | null) => {
    const h = rowHeight(cells, font);
    const y = doc.y;
    if (fill) doc.rect(MARGIN, y, width, h).fillColor(fill).fill();
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc
        .font(font)
        .fontSize(8)
        .fillColor(INK)
        .text(cell, x + pad, y + pad, { width: widths[i]! - 2 * pad });
      x += widths[i]!;
    });
    doc
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + h;
  };
  const head = columns.map((c) => c.title);
  ensureSpace(doc, rowHeight(head, BOLD) + rowHeight(rows[0] ?? head, REGULAR));
  drawRow(head, BOLD, '#f1f3f5');
  for (const row of rows) {
    if (doc.y + rowHeight(row, REGULAR) > bottom(doc)) {
      doc.addPage();
      drawRow(head, BOLD, '#f1f3f5');
    }
    drawRow(row, REGULAR, null);
  }
  doc.x = MARGIN;
  doc.moveDown(0.4);
  doc.font(REGULAR).fontSize(9);
}

/** The rows as a table, or `empty` in grey when there are none. */
export function listOf(doc: Doc, columns: Column[], rows: string[][], empty: string): void {
  if (rows.length === 0) note(doc, empty);
  else table(doc, columns, rows);
}

export function note(doc: Doc, text: string): void {
  ensureSpace(doc, 14);
  doc
    .font(REGULAR)
    .fontSize(9)
    .fillColor(MUTED)
    .text(text, MARGIN, doc.y, { width: contentWidth(doc) })
    .fillColor(INK);
}

export function subheading(doc: Doc, text: string): void {
  // With room for a table's header and first row below it.
  ensureSpace(doc, 50);
  doc.font(BOLD).fontSize(10).fillColor(INK).text(text, MARGIN, doc.y);
  doc.font(REGULAR).fontSize(9);
}

/** The text cut with "…" to fit `width` at the current font. */
function fitWidth(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * "Strona n z N · Wygenerowano …" at the foot of every page, once the page count is known; an issued document's
 * stamp (its revision, the review and approval, the raw data's SHA-256) above it.
 */
export function footers(
  doc: Doc,
  data: { lab: string; name: string; generatedAt: Date; issued?: IssuedStamp | null },
  t: Pick<ReportTexts, 'generated' | 'page' | 'issuedRevision' | 'issuedData'>,
): void {
  const range = doc.bufferedPageRange();
  const generated = fill(t.generated, { at: formatWarsawDateTime(data.generatedAt) });
  const issued = data.issued ?? null;
  const stamp = issued && [
    fill(t.issuedRevision, {
      revision: issued.revision,
      reviewer: issued.reviewedBy,
      reviewedAt: formatWarsawDateTime(issued.reviewedAt),
      approver: issued.approvedBy,
      approvedAt: formatWarsawDateTime(issued.approvedAt),
    }),
    fill(t.issuedData, { sha256: issued.dataSha256 }),
  ];
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN - 10;
    const width = contentWidth(doc);
    // Writing in the bottom margin would start a new page: the margin is lifted while the footer is written.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const top = stamp ? y - stamp.length * FOOTER_LINE : y;
    doc
      .moveTo(MARGIN, top - 4)
      .lineTo(MARGIN + width, top - 4)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc.font(REGULAR).fontSize(7.5).fillColor(MUTED);
    // The stamp is never cut (it names people and a hash): a line too long for the page is written smaller.
    stamp?.forEach((line, n) => {
      const size = Math.min(7.5, (7.5 * width) / doc.fontSize(7.5).widthOfString(line));
      doc.fontSize(size).text(line, MARGIN, top + n * FOOTER_LINE, { lineBreak: false });
    });
    doc.fontSize(7.5);
    doc.text(fitWidth(doc, `${data.lab} · ${data.name}`, width * 0.45), MARGIN, y, { lineBreak: false });
    doc.text(generated, MARGIN + width * 0.45, y, { width: width * 0.33, align: 'center', lineBreak: false });
    doc.text(fill(t.page, { n: i - range.start + 1, total: range.count }), MARGIN + width * 0.78, y, {
      width: width * 0.22,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = margin;
  }
  doc.fillColor(INK);
}

/**
 * A label on its own line and a text under it across the page, which runs onto the next pages when it
 * is long (a specimen's description): a label–value row (`fields`) keeps to one page.
 */
function textBlock(doc: Doc, label: string, value: string): void {
  ensureSpace(doc, 28);
  const width = contentWidth(doc);
  doc.font(REGULAR).fontSize(9).fillColor(MUTED).text(label, MARGIN, doc.y, { width });
  doc.fillColor(INK).text(value, MARGIN, doc.y, { width });
  doc.x = MARGIN;
  doc.y += 3;
}
