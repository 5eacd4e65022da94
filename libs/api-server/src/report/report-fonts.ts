import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

/** The fonts, with the Polish letters and °, ≤, –: libs/api-server/assets/fonts (beside src/ and dist/, so both resolve it). */
const FONT_DIR = join(__dirname, '..', '..', 'assets', 'fonts');
const FONT_FILES = { regular: join(FONT_DIR, 'DejaVuSans.ttf'), bold: join(FONT_DIR, 'DejaVuSans-Bold.ttf') } as const;
export const REGULAR = 'DejaVu Sans';
export const BOLD = 'DejaVu Sans Bold';

let parsed: { regular: fontkit.Font; bold: fontkit.Font } | null = null;

/**
 * Registers the report's two fonts on a document. They are parsed once (fontkit) and shared: given a
 * file, pdfkit would parse its 700 kB again for every report, most of a report's CPU time.
 */
export function withFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  parsed ??= {
    regular: fontkit.create(readFileSync(FONT_FILES.regular)) as fontkit.Font,
    bold: fontkit.create(readFileSync(FONT_FILES.bold)) as fontkit.Font,
  };
  // pdfkit takes a fontkit font as it takes a file (anything with layout()); its types know only files and buffers.
  doc.registerFont(REGULAR, parsed.regular as never);
  doc.registerFont(BOLD, parsed.bold as never);
  return doc;
}

let measurer: PDFKit.PDFDocument | null = null;

/**
 * The width of a text in the font the PDF draws it with, for ECharts' layout (its own guess is for
 * narrower fonts: legends and labels would overlap once drawn in DejaVu Sans). `font` is a CSS font
 * ("bold 8px DejaVu Sans").
 */
export function measureText(text: string, font = ''): { width: number } {
  measurer ??= withFonts(new PDFDocument({ autoFirstPage: false }));
  const size = Number(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? 12);
  return {
    width: measurer
      .font(/\bbold\b/.test(font) ? BOLD : REGULAR)
      .fontSize(size)
      .widthOfString(text),
  };
}
