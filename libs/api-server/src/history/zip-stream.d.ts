// What the workbook uses of zip-stream (archiver's zip writer, which ships no types of its own).
declare module 'zip-stream' {
  import type { Readable, Transform } from 'node:stream';
  import type { ZlibOptions } from 'node:zlib';

  interface ZipStreamOptions {
    /** For each entry's DeflateRaw stream (`level`, `chunkSize`). */
    zlib?: ZlibOptions;
  }

  /** The archive's bytes are its readable side (a readable-stream Transform). One entry at a time. */
  class ZipStream extends Transform {
    constructor(options?: ZipStreamOptions);
    /** Adds an entry from a Buffer, a string or a stream read to its end; `callback` when it is all in. */
    entry(
      source: Buffer | string | Readable,
      data: { name: string; date?: Date },
      callback: (error: Error | null) => void,
    ): this;
    /** After the last entry: the central directory, then the end of the stream. */
    finalize(): void;
  }

  export = ZipStream;
}
