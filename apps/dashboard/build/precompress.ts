import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the browser downloads; images and fonts of the build are compressed formats already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|map)$/;
/** Smaller files gain less than the bytes of a header. */
const MIN_BYTES = 1024;

/**
 * After the build, writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every
 * compressible file of the output, where compressing makes it smaller. The API serves them by the
 * request's Accept-Encoding (libs/api-server/src/core/http.ts), so nothing is compressed per request.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'furnace-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for (const file of await files(outDir)) {
        if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
        const source = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gz(source, { level: constants.Z_BEST_COMPRESSION }),
        ]);
        if (br.length < source.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
      }
    },
  };
}

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? files(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))),
  );
  return nested.flat();
}
