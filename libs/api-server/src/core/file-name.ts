/**
 * An uploaded file's name made printable and short: multer hands it over as latin1 bytes of the UTF-8
 * the browser sent; control characters and path separators become "_". It is only ever shown (and
 * offered as a download's name), never used as a path. `fallback` when nothing printable is left.
 */
export const safeFileName = (name: string, fallback: string): string =>
  ([...Buffer.from(name, 'latin1').toString('utf8')].map((c) => (c < ' ' || c === '/' || c === '\\' ? '_' : c)).join('').trim() || fallback).slice(0, 255);
