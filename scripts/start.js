#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs the whole system in one process.
const { spawnSync } = require('node:child_process');
const { existsSync, statSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const t0 = Date.now();
// Server code: tsc's incremental build does nothing when it is up to date.
run(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json']);
// Dashboard: rebuilt when its sources (or the shared libraries it uses) are newer than its build.
const dashboard = join(root, 'apps/dashboard');
const built = join(dashboard, 'dist/index.html');
if (existsSync(join(dashboard, 'vite.config.ts'))) {
  const sources = Math.max(newest(join(dashboard, 'src')), newest(join(root, 'libs/contracts/src')), newest(join(root, 'libs/api-client/src')));
  if (!existsSync(built) || statSync(built).mtimeMs < sources) run('npm', ['run', 'build', '-w', '@furnace/dashboard-app']);
}
if (Date.now() - t0 > 2000) console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const child = require('node:child_process').spawn(process.execPath, [join(root, 'apps/standalone/dist/main.js')], { cwd: root, stdio: 'inherit' });
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
child.on('exit', (code) => process.exit(code ?? 0));
