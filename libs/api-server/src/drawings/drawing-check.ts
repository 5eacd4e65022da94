import { extname } from 'node:path';
import { checkImage, reencodeImage } from '../thermo/image-check';

/** Largest drawing accepted, bytes: a scanned A1 sheet as a PDF fits, the database keeps it whole. */
export const MAX_DRAWING_BYTES = 20 * 1024 * 1024;

type DrawingMime = 'application/pdf' | 'image/png' | 'image/jpeg';

/** What a file's name says it is: the kinds a drawing may be, by extension. */
const BY_EXTENSION: Readonly<Record<string, DrawingMime>> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};
const KIND_NAMES: Record<DrawingMime, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
};

const PDF_HEADER = /^%PDF-[12]\.\d/;
/** A PDF ends with "%%EOF" (then at most a line end); a few writers leave some bytes after it. */
const PDF_TAIL_BYTES = 1024;

export type CheckedDrawing = { ok: true; mime: DrawingMime; data: Buffer } | { ok: false; message: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** What the bytes say they are, whatever the name says: a PDF, a PNG, a JPEG, or null. */
function sniff(bytes: Buffer): DrawingMime | null {
  if (PDF_HEADER.test(bytes.subarray(0, 8).toString('latin1'))) return 'application/pdf';
  if (bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/**
 * Checks a drawing by its bytes and its name together: a ".pdf" must be a PDF (its header, and the
 * "%%EOF" that ends a whole one), a ".png" or ".jpg" an image of that format that decodes; anything
 * else, or a name and content that disagree (a PNG renamed .pdf, a script renamed .pdf), is refused with
 * a message naming the file. An image is decoded and encoded again (metadata and anything appended
 * are gone, as with the thermocouple photos); a PDF is kept as it came, and is only ever served as an
 * attachment. `name` is the file's name already made printable (safeFileName).
 */
export async function checkDrawing(name: string, bytes: Buffer): Promise<CheckedDrawing> {
  const quoted = `"${name}"`;
  const declared = BY_EXTENSION[extname(name).toLowerCase()];
  if (!declared)
    return {
      ok: false,
      message: `${quoted} is not a drawing: a PDF (.pdf) or a PNG or JPEG image (.png, .jpg, .jpeg) is expected`,
    };
  if (bytes.length === 0) return { ok: false, message: `${quoted} is empty` };
  const actual = sniff(bytes);
  if (actual !== declared) {
    const what = actual ? `its content is a ${KIND_NAMES[actual]}` : 'its content is none of PDF, PNG or JPEG';
    return { ok: false, message: `${quoted} is not a ${KIND_NAMES[declared]}: ${what}` };
  }
  if (declared === 'application/pdf') {
    const tail = bytes.subarray(Math.max(0, bytes.length - PDF_TAIL_BYTES)).toString('latin1');
    if (!tail.includes('%%EOF'))
      return { ok: false, message: `${quoted} is not a whole PDF: it has no %%EOF at its end` };
    return { ok: true, mime: declared, data: bytes };
  }
  const image = checkImage(bytes, quoted);
  if (!image.ok) return image;
  const encoded = await reencodeImage(bytes, image.mime, quoted);
  if (!encoded.ok) return encoded;
  return { ok: true, mime: encoded.mime, data: encoded.data };
}
