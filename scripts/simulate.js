#!/usr/bin/env node
// `npm run simulate -- --research <id> [--channels 60] [--rate 1] [--speed 10] [--mqtt URL]`:
// builds the simulator library when needed (tsc's incremental build does nothing when it is up to date),
// then runs the DAQ simulator (libs/simulator/src/cli.ts). It signs in as MQTT_USERNAME/MQTT_PASSWORD when
// set (or as the --mqtt URL's user), else as the installation DAQ account `npm start` keeps in the data
// directory (`daq`, its password in {DATA_DIR}/daq-password; docs/behaviour.md, "DAQ credentials").
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const root = join(__dirname, '..');
const build = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'libs/simulator'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
const env = { ...process.env };
const passwordFile = join(resolve(root, process.env.DATA_DIR || 'data'), 'daq-password');
if (!env.MQTT_USERNAME && existsSync(passwordFile)) {
  // Handed to the simulator in its environment, never on its command line (which `ps` shows).
  env.MQTT_USERNAME = 'daq';
  env.MQTT_PASSWORD = readFileSync(passwordFile, 'utf8').trim();
} else if (!env.MQTT_USERNAME && !process.argv.some((a) => /^mqtts?:\/\/[^/]*@/.test(a))) {
  console.error(
    `No DAQ credentials: ${passwordFile} does not exist (set DATA_DIR as for npm start), MQTT_USERNAME/MQTT_PASSWORD are unset and --mqtt has no user:password@. The broker refuses anonymous clients.`,
  );
}
const run = spawnSync(process.execPath, [join(root, 'libs/simulator/dist/cli.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
