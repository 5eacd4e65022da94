import { imageSize } from 'image-size';
import sharp from 'sharp';

export type ImageCheck =
  { ok: true; mime: 'image/png' | 'image/jpeg'; width: number; height: number } | { ok: false; message: string };

export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
/** Larger photos gain nothing on a screen and cost viewers' memory (a canvas holds every pixel). */
const MAX_IMAGE_SIDE = 12_000;
/** 40 megapixels: a decoded photo takes 4 bytes a pixel on the server while re-encoded, and in every viewer's canvas. */
const MAX_IMAGE_PIXELS = 40_000_000;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (b: Uint8Array, sig: number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);

/**
 * Identifies a photo by its bytes (PNG or JPEG signature and readable dimensions), never by its name or
 * declared type. `subject` names the file in the messages (the form field, or the file's own name).
 */
export function checkImage(bytes: Uint8Array, subject = 'image_file'): ImageCheck {
  const mime = startsWith(bytes, PNG) ? 'image/png' : startsWith(bytes, JPEG) ? 'image/jpeg' : null;
  if (!mime) return { ok: false, message: `${subject} is not a PNG or JPEG image` };
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, message: `${subject} is not a readable ${mime === 'image/png' ? 'PNG' : 'JPEG'} image` };
  }
  const { width, height } = size;
  if (!width || !height) return { ok: false, message: `${subject} has no readable dimensions` };
  if (width * height > MAX_IMAGE_PIXELS) {
    const mp = Math.round((width * height) / 100_000) / 10;
    return {
      ok: false,
      message: `${subject} is ${width}×${height} px (${mp} megapixels); at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`,
    };
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return { ok: false, message: `${subject} is ${width}×${height} px; at most ${MAX_IMAGE_SIDE} px a side` };
  }
  return { ok: true, mime, width, height };
}

export type ReencodedImage =
  | { ok: true; mime: 'image/png' | 'image/jpeg'; width: number; height: number; data: Buffer }
  | { ok: false; message: string };

/**
 * Decodes the photo and encodes its pixels again in the same format (sharp): whatever the file
 * carried besides the picture — EXIF/GPS metadata, comments, bytes appended after the image (an
 * HTML or script payload of a polyglot) — is gone. EXIF orientation is applied to the pixels
 * first, so the stored photo looks as browsers showed the original. Call after checkImage.
 */
export async function reencodeImage(
  bytes: Uint8Array,
  mime: 'image/png' | 'image/jpeg',
  subject = 'image_file',
): Promise<ReencodedImage> {
  try {
    const pipeline = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate();
    const encoded =
      mime === 'image/png'
        ? pipeline.png({ compressionLevel: 9, adaptiveFiltering: true })
        : pipeline.jpeg({ quality: 90, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { ok: true, mime, width: info.width, height: info.height, data };
  } catch (e) {
    return {
      ok: false,
      message: `${subject} is not a readable ${mime === 'image/png' ? 'PNG' : 'JPEG'} image (${(e as Error).message.split('\n')[0]})`,
    };
  }
}
