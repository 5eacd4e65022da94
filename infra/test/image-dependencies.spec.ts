// What each image installs (docs/architecture.md, "Dependencies and images"). Every workspace declares
// in its own package.json the packages its code imports; an image's `npm ci --omit=dev -w …` names the
// workspaces its app runs, so that its node_modules hold their production dependencies and nothing of
// another process's. Checked from the manifests, the sources and the lock file, without Docker.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { repoFile, ROOT } from './support';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

interface Workspace {
  /** Its folder, e.g. libs/ingest. */
  dir: string;
  manifest: Manifest;
}

interface LockEntry {
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const root = JSON.parse(repoFile('package.json')) as Manifest & { workspaces: string[] };
const lock = JSON.parse(repoFile('package-lock.json')) as { packages: Record<string, LockEntry> };

const workspaces: Workspace[] = ['apps', 'libs'].flatMap((parent) =>
  readdirSync(join(ROOT, parent))
    .filter((name) => existsSync(join(ROOT, parent, name, 'package.json')))
    .map((name) => ({
      dir: `${parent}/${name}`,
      manifest: JSON.parse(repoFile(`${parent}/${name}/package.json`)) as Manifest,
    })),
);
const workspaceNamed = new Map(workspaces.map((w) => [w.manifest.name, w]));

/** A workspace's production code: its src/ folder without tests, test support and `testing` entries. */
function productionFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) {
        if (!['test', 'testing', 'generated'].includes(entry.name)) walk(child);
      } else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) && !/\.([a-z]+-)?spec\.tsx?$/.test(entry.name)) {
        files.push(child);
      }
    }
  };
  if (existsSync(join(ROOT, dir, 'src'))) walk(join(ROOT, dir, 'src'));
  return files;
}

/** The package an import specifier names (`pg`, `@nestjs/common` for `@nestjs/common/x`); none for a path or a Node module. */
function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|node:)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/** The packages a workspace's production code imports (static, dynamic, require and side-effect imports). */
function importedPackages(dir: string): Set<string> {
  const found = new Set<string>();
  for (const file of productionFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([\w@./][^'"\s]*)['"]/gm,
    )) {
      const name = packageOf(m[1]!);
      if (name !== undefined) found.add(name);
    }
  }
  return found;
}

/** The workspaces an app runs: itself and the @furnace/* libraries its code imports, and theirs in turn. */
function workspacesRunBy(appDir: string): string[] {
  const app = workspaces.find((w) => w.dir === appDir)!;
  const found = new Set<string>([app.manifest.name]);
  const visit = (w: Workspace) => {
    for (const name of importedPackages(w.dir)) {
      const lib = workspaceNamed.get(name);
      if (lib && !found.has(name)) {
        found.add(name);
        visit(lib);
      }
    }
  };
  visit(app);
  return [...found].sort();
}

/** Where Node finds package `name` from the lock entry at `from`: its own node_modules, then each parent's. */
function resolve(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === '') return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at < 0 ? '' : base.slice(0, at);
  }
}

/**
 * The packages `npm ci --omit=dev -w …` installs for these workspaces, from the lock file: their
 * dependencies, and those of each package in turn, with its peers; an optional dependency or an
 * optional peer is installed when the lock file holds it (as npm does: class-validator, an optional
 * peer of @nestjs/common, comes with it), for every platform: on one machine npm skips the optional
 * builds for the others (sharp's), so this is what any image may hold. Workspace links are followed, not counted.
 */
function productionPackages(names: string[]): Set<string> {
  const installed = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const entry = lock.packages[path];
    if (!entry) throw new Error(`package-lock.json has no ${path}: run npm install`);
    if (entry.link) return visit(entry.resolved!);
    if (path.includes('node_modules/')) installed.add(path.replace(/^.*node_modules\//, ''));
    const peers = Object.keys(entry.peerDependencies ?? {});
    const optional = (dep: string) =>
      entry.optionalDependencies?.[dep] !== undefined || entry.peerDependenciesMeta?.[dep]?.optional === true;
    for (const dep of [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ]) {
      const at = resolve(path, dep);
      if (at) visit(at);
      else if (!optional(dep)) throw new Error(`package-lock.json: ${dep}, a dependency of ${path}, is not locked`);
    }
  };
  for (const name of names) visit(workspaceNamed.get(name)!.dir);
  return installed;
}

/** The workspaces the production install of a Dockerfile names (the `npm ci --omit=dev` of its deps stage). */
function installedWorkspaces(dockerfile: string): { command: string; workspaces: string[] } {
  const runs = repoFile(dockerfile)
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => /^RUN .*\bnpm ci\b.*--omit=dev/.test(line.trim()));
  if (runs.length !== 1)
    throw new Error(`${dockerfile}: ${runs.length} production installs (npm ci --omit=dev), not one`);
  const command = runs[0]!.replace(/\s+/g, ' ');
  const named = [...command.matchAll(/(?:-w|--workspace)[= ](\S+)/g)].map((m) => m[1]!);
  return { command, workspaces: named.sort() };
}

describe('the workspaces’ dependencies', () => {
  it('the root declares tooling only (devDependencies), no package a process runs', () => {
    expect(root.dependencies).toBeUndefined();
    expect(root.workspaces).toEqual(['apps/*', 'libs/*']);
  });

  it.each(workspaces.map((w) => w.dir))(
    '%s declares in its dependencies every package its production code imports',
    (dir) => {
      const manifest = workspaces.find((w) => w.dir === dir)!.manifest;
      const undeclared = [...importedPackages(dir)]
        .filter((name) => !workspaceNamed.has(name))
        .filter((name) => manifest.dependencies?.[name] === undefined);
      expect(undeclared).toEqual([]);
    },
  );

  it('finds the imports it checks (the API library imports sharp and pdfkit, the ingest library mqtt and pg)', () => {
    expect([...importedPackages('libs/api-server')]).toEqual(expect.arrayContaining(['sharp', 'pdfkit', 'typeorm']));
    expect([...importedPackages('libs/ingest')]).toEqual(expect.arrayContaining(['mqtt', 'pg', '@furnace/db']));
  });
});

describe.each([
  {
    app: 'api',
    has: ['sharp', 'pdfkit', 'argon2', '@nestjs/core', 'typeorm', 'pg', 'ioredis'],
    // The dashboard's (only its built files are served), the embedded broker's, the tooling's.
    lacks: ['react', '@mantine/core', 'vite', 'aedes', 'nx', 'jest', 'typescript', 'exceljs'],
  },
  {
    app: 'ingest',
    has: ['mqtt', 'pg', 'typeorm', 'ioredis', 'prom-client', 'pino'],
    // The API's packages (images, PDF and spreadsheet reports, the HTTP server, password hashing), the tooling's.
    lacks: [
      'sharp',
      'pdfkit',
      'exceljs',
      'fontkit',
      'echarts',
      '@nestjs/core',
      '@nestjs/platform-express',
      'argon2',
      'nx',
      'jest',
      'typescript',
    ],
  },
])('the $app image', ({ app, has, lacks }) => {
  const { command, workspaces: named } = installedWorkspaces(`apps/${app}/Dockerfile`);

  it('installs the workspaces the app runs, and only those: the app and every library it imports, directly or not', () => {
    expect(named).toEqual(workspacesRunBy(`apps/${app}`));
  });

  it('leaves the workspace root (tooling) and every other workspace out', () => {
    expect(command).not.toMatch(/--include-workspace-root|--workspaces\b|--ws\b/);
  });

  it(`gets its packages (${has.join(', ')}), not others' (${lacks.join(', ')})`, () => {
    const packages = productionPackages(named);
    expect(has.filter((name) => !packages.has(name))).toEqual([]);
    expect(lacks.filter((name) => packages.has(name))).toEqual([]);
  });
});
