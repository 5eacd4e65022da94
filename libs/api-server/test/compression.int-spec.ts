import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { insertMarkers, insertResearch, login, streamUrl, SUPERUSER } from '@furnace/testing';
import { startTestApi, type TestApi } from './harness';

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  body: Buffer;
}

/** A GET that keeps the body as sent (fetch and supertest would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(res: Raw): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.body);
  if (encoding === 'gzip') return gunzipSync(res.body);
  if (encoding === undefined) return res.body;
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}

/**
 * A dashboard build in miniature, with the brotli and gzip copies the build writes beside each
 * compressible file (apps/dashboard/build/precompress.ts, tested on its own) — none for a tiny one.
 */
function buildDashboard(dir: string): { script: Buffer; index: Buffer; icon: Buffer } {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const script = Buffer.from(
    Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2; // ${'x'.repeat(i % 40)}`).join('\n'),
  );
  const index = Buffer.from(
    `<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<div></div>'.repeat(200)}</body></html>`,
  );
  const icon = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const [path, body] of [
    ['assets/index-abc123.js', script],
    ['index.html', index],
  ] as const) {
    writeFileSync(join(dir, path), body);
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(body));
    writeFileSync(join(dir, `${path}.gz`), gzipSync(body));
  }
  writeFileSync(join(dir, 'favicon.svg'), icon);
  return { script, index, icon };
}

describe('on the wire: pre-compressed dashboard assets, compressed JSON and CSV, an uncompressed WebSocket', () => {
  let api: TestApi;
  let dist: string;
  let files: { script: Buffer; index: Buffer; icon: Buffer };
  let staff: string;
  let researchId: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'furnace-dist-'));
    files = buildDashboard(dist);
    api = await startTestApi({}, { dashboardDir: dist });
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = await insertResearch(api.db.url, { name: 'Drzwi EI 30' });
    await insertMarkers(api.dataSource, researchId, { 1: 'Tmax', 2: 'Tmax' });
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, radiance, pressure, pk, thermocouples)
       SELECT $1, t, now() + t * INTERVAL '1 second', 1.5, 17, 500 + t / 10.0, ARRAY[20 + t / 100.0, 21 + t / 50.0]::real[]
       FROM generate_series(0, 1999) AS t`,
      [researchId],
    );
    for (const sql of REBUILD_ROLLUPS_SQL) await api.dataSource.query(sql, [researchId]);
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves an asset as brotli, gzip or as it is, by Accept-Encoding, with its own Content-Type and Vary', async () => {
    const url = `${api.url}/assets/index-abc123.js`;
    const cases: [string | undefined, string | undefined][] = [
      ['br, gzip', 'br'],
      ['gzip, deflate, br;q=0', 'gzip'],
      ['gzip;q=0.5, br;q=1', 'br'],
      [undefined, undefined],
      ['identity', undefined],
    ];
    for (const [accept, encoding] of cases) {
      const res = await rawGet(url, accept ? { 'Accept-Encoding': accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(decoded(res).equals(files.script)).toBe(true);
    }
    const br = await rawGet(url, { 'Accept-Encoding': 'br' });
    expect(br.body.length).toBeLessThan(files.script.length / 3);
    // A file without compressed copies goes as it is, whatever the client accepts.
    const icon = await rawGet(`${api.url}/favicon.svg`, { 'Accept-Encoding': 'br, gzip' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.body.equals(files.icon)).toBe(true);
  });

  it('serves index.html compressed at / and at every dashboard route, always fresh', async () => {
    for (const path of ['/', '/research/123/history']) {
      const res = await rawGet(`${api.url}${path}`, { 'Accept-Encoding': 'gzip, br' });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res).equals(files.index)).toBe(true);
    }
  });

  it('compresses JSON and CSV responses for clients that take it, and not small ones', async () => {
    const headers = { Authorization: `Bearer ${staff}` };
    const path = `${api.url}/api/v1/research/${researchId}/history?points=2000&thermo_ids=1,2`;
    const plain = await rawGet(path, headers);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body.toString());
    expect(json.frames).toBe(2000);
    for (const accept of ['gzip', 'br']) {
      const res = await rawGet(path, { ...headers, 'Accept-Encoding': accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(accept);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decoded(res).toString())).toEqual(json);
    }
    const csvPath = `${api.url}/api/v1/research/${researchId}/history.csv`;
    const csv = await rawGet(csvPath, headers);
    const gz = await rawGet(csvPath, { ...headers, 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/^text\/csv/);
    expect(decoded(gz).equals(csv.body)).toBe(true);
    expect(csv.body.toString().split('\r\n')).toHaveLength(2002);
    // Below 1 kB the header costs more than it saves.
    const small = await rawGet(`${api.url}/api/v1/users/me`, { ...headers, 'Accept-Encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('keeps the live WebSocket uncompressed even when the browser offers permessage-deflate', async () => {
    const ws = new WebSocket(streamUrl(api, researchId, { token: staff }), {
      perMessageDeflate: true,
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    const upgrade = new Promise<IncomingHttpHeaders>((resolve) => ws.once('upgrade', (res) => resolve(res.headers)));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const headers = await upgrade;
    expect(headers['sec-websocket-extensions']).toBeUndefined();
    expect(headers['content-encoding']).toBeUndefined();
    expect(ws.extensions).toBe('');
    ws.close();
  });
});
