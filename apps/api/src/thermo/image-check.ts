import { imageSize } from 'image-size';

export type ImageCheck =
  | { ok: true; mime: 'image/png' | 'image/jpeg'; width: number; height: number }
  | { ok: false; message: string };

export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
/** Larger photos gain nothing on a screen and cost viewers' memory (a canvas holds every pixel). */
export const MAX_IMAGE_SIDE = 12_000;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const startsWith = (b: Uint8Array, sig: number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);

/** Identifies a photo by its bytes (PNG or JPEG signature and readable dimensions), never by its name or declared type. */
export function checkImage(bytes: Uint8Array): ImageCheck {
  const mime = startsWith(bytes, PNG) ? 'image/png' : startsWith(bytes, JPEG) ? 'image/jpeg' : null;
  if (!mime) return { ok: false, message: 'image_file is not a PNG or JPEG image' };
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return { ok: false, message: `image_file is not a readable ${mime === 'image/png' ? 'PNG' : 'JPEG'} image` };
  }
  const { width, height } = size;
  if (!width || !height) return { ok: false, message: 'image_file has no readable dimensions' };
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    return { ok: false, message: `image_file is ${width}×${height} px; at most ${MAX_IMAGE_SIDE} px a side` };
  }
  return { ok: true, mime, width, height };
}
