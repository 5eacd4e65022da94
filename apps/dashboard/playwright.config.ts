import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_MISSING, CHROMIUM_PATH, CHROMIUM_REASON } from './e2e/support/chromium';

/*
 * End-to-end: the system started as a user starts it (`npm start`: build what is stale, then the
 * embedded database, broker and API serving this dashboard) on a free port with its own data
 * directory, driven through Debian's Chromium. Without /usr/bin/chromium every test skips (with the
 * reason) and no server is started.
 */
const hasChromium = !CHROMIUM_MISSING;
if (!hasChromium && process.env.TEST_WORKER_INDEX === undefined)
  console.warn(`Skipping the end-to-end suite. ${CHROMIUM_REASON}`);

function freePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ['-e', script]).toString().trim();
}

// Chosen once in the runner process; the workers inherit them through the environment.
process.env.E2E_PORT ??= freePort();
process.env.E2E_MQTT_PORT ??= freePort();
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), 'furnace-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  // The runner removes the data directory it made once everything (the server too) has stopped.
  if (process.env.E2E_KEEP_DATA !== '1') process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');

export default defineConfig({
  testDir: './e2e',
  // The browser tier's own suffix: `*.spec.ts` is the small tier's (docs/architecture.md "Tests").
  testMatch: '**/*.browser-spec.ts',
  outputDir: './test-results/playwright',
  fullyParallel: false,
  workers: 1, // One server, shared accounts; and a small machine.
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'pl-PL',
    timezoneId: 'Europe/Warsaw',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: hasChromium
    ? {
        command: 'npm start',
        cwd: repoRoot,
        url: `${baseURL}/api/v1/health`,
        timeout: 600_000,
        // E2E_REUSE=1 with E2E_PORT and E2E_DATA_DIR of a running system: iterate without restarting it.
        reuseExistingServer: process.env.E2E_REUSE === '1',
        stdout: 'ignore',
        stderr: 'pipe',
        env: {
          PORT: port,
          DATA_DIR: process.env.E2E_DATA_DIR,
          MQTT_PORT: process.env.E2E_MQTT_PORT,
          FRONTEND_HOST: baseURL,
          LOGIN_RATE_LIMIT: '1000',
          SIGNUP_RATE_LIMIT: '1000',
          // Not the default: that would make the first sign-in a forced password change (accounts-security.browser-spec.ts tests it on a server of its own).
          FIRST_SUPERUSER_PASSWORD: 'e2e-admin-password-1',
          INTERNAL_CLIENT_EMAIL: 'lab@furnace.test',
        },
      }
    : undefined,
});
