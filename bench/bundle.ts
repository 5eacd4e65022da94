import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { ROOT } from '@furnace/testing';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, table } from './lib/stats';

/*
 * The public live view's JavaScript on the wire, as the server started by `npm start` sends it to a
 * browser (Accept-Encoding: br, gzip): the entry chunk, the /view route's chunk and everything they
 * import statically — what the page loads before a chart is needed — then what the curves add
 * (loaded when they scroll into view). Which chunk imports which comes from the build's manifest
 * (apps/dashboard/dist/.vite/manifest.json); the bytes are counted as they arrive.
 */

const DIST = join(ROOT, 'apps', 'dashboard', 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const VIEW_ROUTE = 'src/routes/view/$researchId.tsx?tsr-split=component';
const GOAL_KB = 350;

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

interface BundleFile {
  file: string;
  raw: number;
  wire: number;
  encoding: string;
}

export interface BundleResult {
  initial: BundleFile[];
  curves: BundleFile[];
}

function closure(manifest: Record<string, Chunk>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const next of manifest[key]!.imports ?? []) visit(next);
  };
  roots.forEach(visit);
  return seen;
}

function wireGet(url: string): Promise<{ wire: number; encoding: string; status: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
      let wire = 0;
      res.on('data', (c: Buffer) => (wire += c.length));
      res.on('end', () =>
        resolve({ wire, encoding: String(res.headers['content-encoding'] ?? 'identity'), status: res.statusCode ?? 0 }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

export async function runBundle(services: BenchServices, log: (line: string) => void): Promise<BundleResult> {
  // As `npm start` decides: rebuilt when the dashboard's sources (or the libraries it uses) are newer than its build.
  const sources = Math.max(
    ...['apps/dashboard/src', 'libs/contracts/src', 'libs/text/src', 'libs/api-client/src'].map((dir) =>
      newest(join(ROOT, dir)),
    ),
  );
  if (!existsSync(MANIFEST) || statSync(MANIFEST).mtimeMs < sources) {
    log('  building the dashboard (its build is missing or older than its sources)…');
    const build = spawnSync('npm', ['run', 'build', '-w', '@furnace/dashboard-app'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('dashboard build failed');
  }
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, Chunk>;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry || !manifest[VIEW_ROUTE]) throw new Error(`the build manifest has no entry or no ${VIEW_ROUTE}`);
  const initialKeys = closure(manifest, [entry, VIEW_ROUTE]);
  // The curves: what the initial chunks import dynamically, other than routes, and its own imports.
  const lazy = [...initialKeys].filter((k) => k !== entry).flatMap((k) => manifest[k]!.dynamicImports ?? []);
  const curveKeys = [...closure(manifest, lazy)].filter((k) => !initialKeys.has(k));

  const system = await startFurnace(services);
  try {
    const measure = async (keys: Iterable<string>) => {
      const files: BundleFile[] = [];
      for (const key of keys) {
        const file = manifest[key]!.file;
        if (!file.endsWith('.js')) continue;
        const res = await wireGet(`${system.api.url}/${file}`);
        if (res.status !== 200) throw new Error(`GET /${file}: ${res.status}`);
        files.push({ file, raw: readFileSync(join(DIST, file)).length, wire: res.wire, encoding: res.encoding });
      }
      return files.sort((a, b) => b.wire - a.wire);
    };
    const result = { initial: await measure(initialKeys), curves: await measure(curveKeys) };
    const kB = (files: BundleFile[], key: 'raw' | 'wire') => files.reduce((n, f) => n + f[key], 0) / 1000;
    log(
      `  public view before a chart: ${kB(result.initial, 'wire').toFixed(1)} kB on the wire (${kB(result.initial, 'raw').toFixed(1)} kB raw) in ${result.initial.length} files`,
    );
    log(
      `  loaded when needed (curves, camera player): ${kB(result.curves, 'wire').toFixed(1)} kB on the wire (${kB(result.curves, 'raw').toFixed(1)} kB raw)`,
    );
    return result;
  } finally {
    await system.stop();
  }
}

export function bundleReport(result: BundleResult): string {
  const kB = (files: BundleFile[], key: 'raw' | 'wire') => files.reduce((n, f) => n + f[key], 0) / 1000;
  const initial = kB(result.initial, 'wire');
  return [
    `Dashboard: the public live view's JavaScript from the server, Accept-Encoding: br, gzip. Goal: ≤ ${GOAL_KB} kB on the wire before a chart is needed: ${
      initial <= GOAL_KB ? 'met' : 'NOT met'
    }`,
    table(
      ['scripts', 'files', 'raw kB', 'on the wire kB', 'largest'],
      [
        ['before a chart is needed (entry, /view route, their static imports)', result.initial],
        ['loaded when needed (the curves, the camera player)', result.curves],
      ].map(([label, files]) => {
        const list = files as BundleFile[];
        const top = list[0];
        return [
          label as string,
          String(list.length),
          fmt(kB(list, 'raw'), 1),
          fmt(kB(list, 'wire'), 1),
          top
            ? `${top.file.replace('assets/', '')} ${fmt(top.raw / 1000, 1)} → ${fmt(top.wire / 1000, 1)} kB (${top.encoding})`
            : '',
        ];
      }),
    ),
  ].join('\n\n');
}
