import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Precompressed } from './precompressed';

describe('Precompressed', () => {
  const body = Buffer.from(JSON.stringify({ series: Array.from({ length: 2000 }, (_, i) => i / 7) }));

  it('compresses once per encoding, however many callers ask, and decodes to the body', async () => {
    const shared = new Precompressed(body);
    const asked = Array.from({ length: 5 }, () => shared.encode('br'));
    expect(new Set(asked).size).toBe(1);
    expect(shared.encode('gzip')).toBe(shared.encode('gzip'));
    expect(brotliDecompressSync(await asked[0]!).equals(body)).toBe(true);
    expect(gunzipSync(await shared.encode('gzip')).equals(body)).toBe(true);
  });
});
