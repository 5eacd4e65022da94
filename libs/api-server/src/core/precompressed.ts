import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Bodies under this many bytes go as they are (as compressResponses() does for the rest of the API). */
const THRESHOLD = 1024;

type Encoding = 'br' | 'gzip';

/**
 * A response body shared by many callers (a crowd opening one live view), compressed once per encoding
 * the callers ask for, on zlib's threads, instead of once per response by the compression middleware:
 * for the live view of a 300-thermocouple test, 270 kB of JSON, 5 ms of brotli each, 5 s for a crowd of
 * 1 000 (docs/performance.md, "Clients joining a long test").
 */
export class Precompressed {
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly identity: Buffer) {}

  /** The body in `encoding`, made the first time it is asked for (a failure is not kept). */
  encode(encoding: Encoding): Promise<Buffer> {
    let made = this.encoded.get(encoding);
    if (!made) {
      made =
        encoding === 'br'
          ? brotli(this.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipAsync(this.identity);
      this.encoded.set(encoding, made);
      made.catch(() => this.encoded.delete(encoding));
    }
    return made;
  }
}

/**
 * Sends `body` as JSON in the encoding the request accepts (brotli, gzip or none), with `Vary:
 * Accept-Encoding`. A response with its Content-Encoding set is passed over by the compression middleware.
 */
export async function sendPrecompressed(req: Request, res: Response, body: Precompressed): Promise<void> {
  res.type('application/json');
  res.vary('Accept-Encoding');
  const accepted = body.identity.length < THRESHOLD ? false : req.acceptsEncodings('br', 'gzip', 'identity');
  if (accepted === 'br' || accepted === 'gzip') {
    const bytes = await body.encode(accepted);
    res.setHeader('Content-Encoding', accepted);
    res.send(bytes);
    return;
  }
  res.send(body.identity);
}
