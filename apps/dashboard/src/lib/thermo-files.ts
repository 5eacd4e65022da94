import { parseThermoConfig } from '@furnace/contracts';
import type { ConfigCheck } from './validation';

/** The photo's size in pixels, or null where the browser cannot decode it. */
async function imageSize(file: File): Promise<{ width: number; height: number } | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

async function fileBytes(file: File): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return new Uint8Array(await file.arrayBuffer());
  // jsdom's File has no arrayBuffer(): read it the old way.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}

/**
 * Reads a chosen config file with the same parser the server uses, checking marker positions
 * against the photo when its size is known: errors show before anything is uploaded.
 */
export async function checkThermoConfig(config: File, image: File | null): Promise<ConfigCheck> {
  const size = image ? await imageSize(image) : null;
  const result = parseThermoConfig(
    await fileBytes(config),
    size ? { imageWidth: size.width, imageHeight: size.height } : {},
  );
  return result.ok ? { ok: true, markers: result.markers.length } : { ok: false, errors: result.errors };
}
