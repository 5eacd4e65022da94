import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The text of each page of a PDF, extracted by pdf.js (in a child process: pdf.js is an ES module). */
export function pdfPages(pdf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'pdf-text.mjs')], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pdf text extraction failed: ${stderr || error.message}`));
      else resolve((JSON.parse(stdout) as { pages: string[] }).pages);
    });
    child.stdin!.end(pdf);
  });
}
