#!/usr/bin/env node
// `npm start`: builds what changed through Nx (`nx run-many -t build` of the standalone app and the
// dashboard with their libraries; an unchanged project is a cache hit and builds nothing), then runs
// the whole system in one process.
const { spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const t0 = Date.now();
const nx = require.resolve('nx/bin/nx');
const build = spawnSync(
  process.execPath,
  [nx, 'run-many', '-t', 'build', '-p', 'standalone', 'dashboard', '--output-style=static'],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
  },
);
// Nx's output (each task's, replayed from the cache too) only when the build failed.
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  process.exit(build.status ?? 1);
}
const cache = /Cache:\s+(\d+)\/(\d+) hit/.exec(build.stdout ?? '');
const built = cache ? Number(cache[2]) - Number(cache[1]) : null;
if (built !== 0)
  console.log(
    `Built ${built ?? 'the'} project target(s) in ${((Date.now() - t0) / 1000).toFixed(1)} s (nx run-many -t build)`,
  );

const child = spawn(process.execPath, [join(root, 'apps/standalone/dist/main.js')], { cwd: root, stdio: 'inherit' });
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
child.on('exit', (code) => process.exit(code ?? 0));
