#!/usr/bin/env node
// `npm run bench [-- --only=fanout,ingest,history …]`: builds the apps (tsc's incremental build does
// nothing when they are up to date), raises the open-file limit (5 000 viewers need 5 000 sockets in
// the server) as far as the hard limit allows, then runs bench/main.ts through @swc-node/register.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const limit = (flag) => {
  const value = execFileSync('/bin/sh', ['-c', `ulimit ${flag}`])
    .toString()
    .trim();
  return value === 'unlimited' ? Infinity : Number(value);
};
const WANTED = 10_240;
const soft = limit('-Sn');
const target = Math.min(limit('-Hn'), Math.max(soft, WANTED));
if (target < WANTED)
  console.warn(
    `Open-file limit: ${soft}, hard limit ${target}: fewer viewers than asked will connect (the benchmark says how many)`,
  );

const node = [process.execPath, '-r', '@swc-node/register', join(__dirname, 'main.ts'), ...process.argv.slice(2)];
const child = spawn(
  '/bin/sh',
  ['-c', `ulimit -n ${target === Infinity ? 'unlimited' : target} 2>/dev/null; exec "$0" "$@"`, ...node],
  {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.spec.json') },
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
