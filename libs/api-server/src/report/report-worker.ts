import { parentPort, threadId } from 'node:worker_threads';
import { type ClassificationData, renderClassification } from './classification-pdf';
import { type ReportData, renderReport } from './report-pdf';

/*
 * The report's worker thread (started by ReportRenderer): lays out each document it is sent (the test
 * report, the classification report) and sends the PDF's bytes back, one at a time. pdfkit, fontkit
 * and ECharts are loaded here, in the worker only: the API's event loop, which serves the live
 * streams, never runs the layout.
 */

/** A document to lay out, with its data as ReportService gathered it. */
export type RenderDocument =
  { kind: 'report'; data: ReportData } | { kind: 'classification'; data: ClassificationData };

/** A document to render, structured-cloned. */
export interface RenderRequest {
  id: number;
  document: RenderDocument;
}

/** The PDF (its own ArrayBuffer, transferred), or the error that stopped it; `threadId` says which thread rendered it. */
export type RenderReply = { id: number; threadId: number } & (
  { pdf: ArrayBuffer } | { error: { message: string; stack?: string } }
);

/** The data as renderReport reads it: a Buffer arrives as a plain Uint8Array, which pdfkit would take for a file name. */
function revived(data: ReportData): ReportData {
  return {
    ...data,
    photos: data.photos.map((p) => ({
      ...p,
      image: Buffer.from(p.image.buffer, p.image.byteOffset, p.image.byteLength),
    })),
  };
}

function render(document: RenderDocument): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const doc = document.kind === 'report' ? renderReport(revived(document.data)) : renderClassification(document.data);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('error', reject);
    doc.on('end', () => {
      // One ArrayBuffer of its own (not a slice of Buffer's shared pool), so it can be transferred.
      const pdf = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let offset = 0;
      for (const chunk of chunks) {
        pdf.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(pdf.buffer);
    });
  });
}

const port = parentPort;
if (port) {
  port.on('message', ({ id, document }: RenderRequest) => {
    render(document).then(
      (pdf) => port.postMessage({ id, threadId, pdf } satisfies RenderReply, [pdf]),
      (error: unknown) => {
        const e = error instanceof Error ? error : new Error(String(error));
        port.postMessage({ id, threadId, error: { message: e.message, stack: e.stack } } satisfies RenderReply);
      },
    );
  });
}
