// Reads a V8 CPU profile (node --cpu-prof, or `npm run bench -- --cpu-prof=…`) and prints where the
// time went: the functions with the most self time, and the same grouped by package or file.
// Usage: node -r @swc-node/register bench/profile-summary.ts <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ROOT } from '@furnace/testing';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function summarise(profile: Profile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const where = new Map<string, number>();
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const file = url ? relative(ROOT, url.replace(/^file:\/\//, '')) : '';
    const name = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + micros);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
      (file.startsWith('node:') ? 'node core' : file ? file.split('/').slice(0, 3).join('/') : functionName);
    where.set(pkg, (where.get(pkg) ?? 0) + micros);
  }
  const list = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`)
      .join('\n');
  return `total sampled ${(total / 1000).toFixed(0)} ms\n\nself time by function:\n${list(fn)}\n\nby package / file:\n${list(where)}`;
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 25)));
}
