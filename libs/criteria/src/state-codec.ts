/*
 * How the engine's kept state is written (docs/architecture.md, "The criteria: computed once, kept,
 * pushed"): plain JSON, with the typed arrays as base64 of their bytes so that NaN, ±Infinity and
 * every float's exact bits survive the trip (JSON would turn NaN into null). Works in Node and in
 * the browser (btoa / atob).
 */

type Numeric = Float64Array | Int32Array | Uint32Array | Uint8Array;

const CHUNK = 0x8000;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A typed array as base64 of its bytes (little-endian, as every platform this runs on). */
export function packArray(array: Numeric): string {
  return bytesToBase64(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
}

/** A number[] of floats as base64 of its Float64 bytes. */
export function packFloats(values: readonly number[]): string {
  return packArray(Float64Array.from(values));
}

export function unpackFloats(text: string): Float64Array {
  const bytes = base64ToBytes(text);
  if (bytes.length % 8 !== 0) throw new Error('criteria state: a float array has a length that is not a multiple of 8');
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
}

/** Copies a packed array of the same kind and length into `target`; throws on a length mismatch. */
export function unpackInto(text: string, target: Numeric): void {
  const bytes = base64ToBytes(text);
  if (bytes.length !== target.byteLength)
    throw new Error(`criteria state: an array of ${bytes.length} bytes where ${target.byteLength} were expected`);
  new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(bytes);
}
