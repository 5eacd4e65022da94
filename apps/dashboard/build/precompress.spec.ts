/** @jest-environment node */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from './precompress';

describe('precompress (the build step)', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'furnace-precompress-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a brotli and a gzip copy beside each compressible file of the output, and leaves tiny and binary files alone', async () => {
    mkdirSync(join(dir, 'assets'));
    const script = Buffer.from(Array.from({ length: 500 }, (_, i) => `export const value${i} = ${i};`).join('\n'));
    const css = Buffer.from('.a { color: red; }\n'.repeat(200));
    const png = Buffer.alloc(4096, 7);
    writeFileSync(join(dir, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dir, 'assets', 'index-abc.css'), css);
    writeFileSync(join(dir, 'assets', 'photo.png'), png);
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const plugin = precompress() as unknown as { configResolved(config: unknown): void; closeBundle(): Promise<void> };
    plugin.configResolved({ root: dir, build: { outDir: '.' } });
    await plugin.closeBundle();

    const br = readFileSync(join(dir, 'assets', 'index-abc.js.br'));
    expect(br.length).toBeLessThan(script.length / 4);
    expect(brotliDecompressSync(br).equals(script)).toBe(true);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'index-abc.js.gz'))).equals(script)).toBe(true);
    expect(gunzipSync(readFileSync(join(dir, 'assets', 'index-abc.css.gz'))).equals(css)).toBe(true);
    for (const missing of ['assets/photo.png.br', 'assets/photo.png.gz', 'favicon.svg.br', 'favicon.svg.gz']) {
      expect(() => readFileSync(join(dir, missing))).toThrow(/ENOENT/);
    }
  });
});
