// The apps' Dockerfiles cannot be built here (no Docker engine). They are linted with
// dockerfile-utils (the Dockerfile language service's validator) and checked for what the images
// must be: multi-stage, production dependencies only, non-root, with a health check, and built
// from files the build context actually contains.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { dockerIgnored, repoFile, repoFileExists, ROOT } from './support';

interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions per stage; ARGs before the first FROM give the defaults FROM can use. */
function parseDockerfile(text: string): { args: Map<string, string>; stages: Stage[] } {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, ' ').trim() };
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(' ');
      const resolved = image.replace(/^\$\{?(\w+)\}?$/, (_m, arg: string) => args.get(arg) ?? image);
      stages.push({ from: resolved, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name = '', value = ''] = instruction.args.split('=');
      args.set(name, value);
    } else {
      stages[stages.length - 1]?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** The source paths of a COPY from the build context (not --from another stage). */
function contextSources(instruction: Instruction): string[] {
  if (instruction.keyword !== 'COPY' || /--from=/.test(instruction.args)) return [];
  const words = instruction.args.split(' ').filter((w) => !w.startsWith('--'));
  return words.slice(0, -1);
}

/** The @furnace/* libraries an app's source imports, and those they import in turn. */
function librariesImportedBy(app: string): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name) && !/\.(int-)?spec\.ts$/.test(entry.name)) {
        for (const m of readFileSync(path, 'utf8').matchAll(/from '@furnace\/([a-z-]+)'/g)) {
          if (found.has(m[1]!)) continue;
          found.add(m[1]!);
          walk(join(ROOT, 'libs', m[1]!, 'src'));
        }
      }
    }
  };
  walk(join(ROOT, 'apps', app, 'src'));
  return [...found].sort();
}

const dockerignore = repoFile('.dockerignore').split('\n');

describe.each([
  { app: 'api', health: '/api/v1/health' },
  { app: 'ingest', health: '/health' },
])('apps/$app/Dockerfile', ({ app, health }) => {
  const file = `apps/${app}/Dockerfile`;
  const text = repoFile(file);
  const { stages } = parseDockerfile(text);
  const runtime = stages[stages.length - 1]!;
  const builds = stages.slice(0, -1);
  const run = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  it('has no error by the Dockerfile validator', () => {
    const errors = validate(text).filter((d) => d.severity === 1);
    expect(errors.map((d) => `line ${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  /** The base image a stage ends up on, through the stages it is built on. */
  const baseImage = (stage: Stage): string => {
    const parent = stages.find((s) => s.name === stage.from && s !== stage);
    return parent ? baseImage(parent) : stage.from;
  };
  /** The `npm ci` that installs the runtime's node_modules: in the runtime stage, or in the stage it copies them from. */
  const productionInstall = (): string | undefined => {
    const copy = runtime.instructions.find((i) => i.keyword === 'COPY' && /node_modules/.test(i.args));
    const from = copy ? stages.find((s) => s.name === /--from=(\S+)/.exec(copy.args)?.[1]) : runtime;
    return from ? run(from).find((cmd) => /\bnpm ci\b/.test(cmd)) : undefined;
  };

  it('builds in stages from Node 20', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(baseImage(stage)).toMatch(/^node:20(\.\d+)*-(bookworm-slim|slim|alpine)/);
  });

  it('runs on the bare Node image (no compiler or build stage underneath)', () => {
    expect(runtime.from).toMatch(/^node:20/);
  });

  it('installs every dependency, from the lock file, to build', () => {
    expect(builds.some((stage) => run(stage).some((cmd) => /\bnpm ci\b/.test(cmd) && !/--omit/.test(cmd)))).toBe(true);
  });

  it('ships production dependencies only', () => {
    expect(productionInstall()).toMatch(/--omit=dev/);
    const modules = runtime.instructions.filter((i) => i.keyword === 'COPY' && /node_modules/.test(i.args));
    expect(modules.length).toBeLessThanOrEqual(1);
  });

  it('installs and copies exactly the libraries the app imports', () => {
    const libs = librariesImportedBy(app);
    const install = productionInstall() ?? '';
    // The app's own workspace too (its package.json's dependencies): infra/test/image-dependencies.spec.ts.
    const workspaces = [...install.matchAll(/-w @furnace\/([a-z-]+)/g)]
      .map((m) => m[1])
      .filter((w) => w !== `${app}-app`);
    expect(workspaces.sort()).toEqual(libs);
    const copied = runtime.instructions
      .filter((i) => i.keyword === 'COPY')
      .map((i) => /\/app\/libs\/([a-z-]+)\/dist /.exec(i.args)?.[1])
      .filter((lib) => lib !== undefined)
      .sort();
    expect(copied).toEqual(libs);
  });

  it('runs the built app as the non-root user node', () => {
    const users = runtime.instructions.filter((i) => i.keyword === 'USER');
    expect(users[users.length - 1]?.args).toBe('node');
    const lastUser = runtime.instructions.lastIndexOf(users[users.length - 1]!);
    expect(runtime.instructions.slice(lastUser).filter((i) => i.keyword === 'RUN')).toEqual([]);
    expect(runtime.instructions.find((i) => i.keyword === 'CMD')?.args).toBe(`["node", "apps/${app}/dist/main.js"]`);
    expect(repoFileExists(`apps/${app}/src/main.ts`)).toBe(true);
  });

  it('checks its health on the endpoint the app serves', () => {
    const check = runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(check).toMatch(/\bCMD\b/);
    expect(check).toContain(health);
    expect(check).toContain('infra/docker/healthcheck.js');
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    for (const stage of stages) {
      for (const source of stage.instructions.flatMap(contextSources)) {
        expect({ source, exists: repoFileExists(source), ignored: dockerIgnored(dockerignore, source) }).toEqual({
          source,
          exists: true,
          ignored: false,
        });
      }
    }
  });

  if (app === 'api') {
    it('carries the built dashboard where the API serves it from (apps/dashboard/dist)', () => {
      // DASHBOARD_DIST in libs/api-server/src/app.ts: apps/dashboard/dist from libs/api-server/dist.
      expect(repoFile('libs/api-server/src/app.ts')).toContain(
        "join(__dirname, '..', '..', '..', 'apps', 'dashboard', 'dist')",
      );
      expect(
        runtime.instructions.some(
          (i) => i.keyword === 'COPY' && /--from=\w+ \/app\/apps\/dashboard\/dist apps\/dashboard\/dist$/.test(i.args),
        ),
      ).toBe(true);
    });
  }
});

describe('.dockerignore', () => {
  it.each([
    '.env',
    '.git/HEAD',
    'node_modules/zod/package.json',
    'apps/dashboard/node_modules/vite/package.json',
    'apps/api/dist/main.js',
    'data/secret_key',
  ])('keeps %s out of the build context', (path) => expect(dockerIgnored(dockerignore, path)).toBe(true));

  it.each([
    'package-lock.json',
    'apps/api/src/main.ts',
    'libs/db/src/index.ts',
    'apps/dashboard/index.html',
    'infra/docker/healthcheck.js',
  ])('lets %s in', (path) => expect(dockerIgnored(dockerignore, path)).toBe(false));
});
