import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The text of each page of a PDF, extracted by pdf.js (in a child process: pdf.js is an ES module). */
export function pdfPages(pdf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [join(__dirname, 'pdf-text.mjs')],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`pdf text extraction failed: ${stderr || error.message}`));
        else resolve((JSON.parse(stdout) as { pages: string[] }).pages);
      },
    );
    child.stdin!.end(pdf);
  });
}

/**
 * The text of a PDF being written (a pdfkit document, read to its end) as pdf.js reads it: its pages
 * joined, each run of white space (a cell's text wraps) one space.
 */
export async function documentText(doc: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return (await pdfPages(Buffer.concat(chunks))).join('\n').replace(/\s+/g, ' ');
}
