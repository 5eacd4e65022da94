import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { Readable } from 'node:stream';

/** One file of a zip held in memory: where its bytes are and how they are packed. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  size: number;
  start: number;
  compressedSize: number;
}

/** A zip that cannot be read: the import answers 422 with the message. */
export class BadZip extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of a zip by its central directory (what zip-stream writes: stored or deflated entries, sizes in the
 * central directory, no zip64 — an archive of more than 4 GiB is over the upload's limit long before).
 */
export function zipEntries(zip: Buffer): Map<string, ZipEntry> {
  // The end record is the last 22 bytes but for a comment of at most 64 KiB.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i -= 1) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new BadZip('the file is not a zip archive');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL)
      throw new BadZip('the zip archive is damaged (its central directory)');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (method !== 0 && method !== 8)
      throw new BadZip(`${name}: packed in a way this server does not read (method ${method})`);
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL)
      throw new BadZip(`${name}: the zip archive is damaged`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressedSize > zip.length) throw new BadZip(`${name}: the zip archive is truncated`);
    entries.set(name, { name, method, size, start, compressedSize });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's bytes; never more than the size its directory states (a deflate bomb stops there). */
export function entryBytes(zip: Buffer, entry: ZipEntry): Buffer {
  const packed = zip.subarray(entry.start, entry.start + entry.compressedSize);
  if (entry.method === 0) return packed;
  try {
    return inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.size) });
  } catch {
    throw new BadZip(`${entry.name}: its compressed bytes are damaged or larger than stated`);
  }
}

/** An entry's bytes as a stream, for one too large to unpack at once (the readings). */
export function entryStream(zip: Buffer, entry: ZipEntry): Readable {
  const packed = Readable.from([zip.subarray(entry.start, entry.start + entry.compressedSize)]);
  return entry.method === 0 ? packed : packed.pipe(createInflateRaw());
}
