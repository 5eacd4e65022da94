#!/usr/bin/env node
// `npm run simulate -- --research <id> [--channels 60] [--rate 1] [--speed 10] [--mqtt URL]`:
// builds the simulator library when needed (tsc's incremental build does nothing when it is up to date),
// then runs the DAQ simulator (libs/simulator/src/cli.ts).
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'libs/simulator'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(process.execPath, [join(root, 'libs/simulator/dist/cli.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
