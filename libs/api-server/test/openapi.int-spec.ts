// The REST contract as committed must be the one the code produces, and the committed client the one
// generated from it. Both compare against whatever is committed when the test runs.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE, renderOpenApi } from '../src/openapi';

const ROOT = join(__dirname, '..', '..', '..');
const CLIENT_DIR = join(ROOT, 'libs', 'api-client');
const GENERATED = join(CLIENT_DIR, 'src', 'generated');
const OPENAPI_TS = join(ROOT, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js');

type Doc = { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } };

/** Which operations and schemas differ, so the failure says more than "the files differ". */
function summarize(committed: Doc, rendered: Doc): string {
  const ops = (d: Doc) =>
    new Map(
      Object.entries(d.paths ?? {}).flatMap(([p, o]) =>
        Object.entries(o).map(([m, v]) => [`${m.toUpperCase()} ${p}`, JSON.stringify(v)] as const),
      ),
    );
  const schemas = (d: Doc) =>
    new Map(Object.entries(d.components?.schemas ?? {}).map(([k, v]) => [`schema ${k}`, JSON.stringify(v)] as const));
  const lines: string[] = [];
  for (const pick of [ops, schemas]) {
    const [a, b] = [pick(committed), pick(rendered)];
    for (const [k, v] of b)
      if (!a.has(k)) lines.push(`  + ${k} (in the code, not committed)`);
      else if (a.get(k) !== v) lines.push(`  ~ ${k} (changed)`);
    for (const k of a.keys()) if (!b.has(k)) lines.push(`  - ${k} (committed, no longer in the code)`);
  }
  return lines.length ? lines.join('\n') : '  (formatting or document-level fields differ)';
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the committed OpenAPI document and client', () => {
  it('libs/api-client/openapi.json is the document the code produces', async () => {
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    const rendered = await renderOpenApi();
    if (rendered !== committed) {
      throw new Error(
        `libs/api-client/openapi.json is stale: run \`npm run openapi\` and commit the document and the client.\n` +
          summarize(JSON.parse(committed) as Doc, JSON.parse(rendered) as Doc),
      );
    }
  });

  it('libs/api-client/src/generated is the client generated from the committed document', async () => {
    expect(existsSync(OPENAPI_TS)).toBe(true);
    const out = mkdtempSync(join(tmpdir(), 'furnace-client-'));
    try {
      // The project's own openapi-ts.config.ts (input ./openapi.json), only the output moved.
      await promisify(execFile)(process.execPath, [OPENAPI_TS, '--output', out, '--silent', '--no-log-file'], {
        cwd: CLIENT_DIR,
        timeout: 60_000,
      });
      const read = (dir: string) =>
        Object.fromEntries(filesUnder(dir).map((f) => [relative(dir, f), readFileSync(f, 'utf8')]));
      const [expected, committed] = [read(out), read(GENERATED)];
      expect(Object.keys(expected).length).toBeGreaterThan(0);
      const stale = [...new Set([...Object.keys(expected), ...Object.keys(committed)])]
        .filter((f) => expected[f] !== committed[f])
        .sort();
      if (stale.length) {
        throw new Error(
          `libs/api-client/src/generated is stale (${stale.join(', ')}): run \`npm run openapi\` and commit the client.`,
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
