/*
 * Live view benchmark (a measurement, not a test: it prints numbers and never fails on them).
 *
 *   npm run bench -w @furnace/dashboard-app
 *
 * 1. Starts the system as a user does (`npm start`, own port, MQTT port and data directory; or
 *    BENCH_URL + BENCH_MQTT_PORT of a running one), creates a research with one photo and 300
 *    thermocouples and an invitation code, and opens the public live view in Debian's Chromium.
 * 2. JavaScript the public live view loads before a chart is needed (gzip), on a phone-sized screen
 *    where the curves are below the fold; then what scrolling to the curves adds (the chart chunks).
 * 3. Publishes DATA frames with 300 thermocouples to the broker (furnace/{id}/data); each crosses the
 *    ingest, the bus and the WebSocket like a real one. With 'tryb termopar' on (every label's text
 *    changes), the page records the time of the canvas update function (applyFrame, performance.now()
 *    around it) and of every layer draw that follows. Baseline, measured in the same run on the same
 *    page: a full redraw of the stage (photo, 300 markers, 300 labels).
 *
 * Goals (issue 6): update + label-layer draw under 4 ms per frame on average; ≤ 350 kB gzip of
 * JavaScript before a chart is needed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { connectAsync } from 'mqtt';
import { CHROMIUM_MISSING, CHROMIUM_PATH, CHROMIUM_REASON } from '../e2e/support/chromium';
import { makePng } from '../e2e/support/png';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const THERMOCOUPLES = Number(process.env.BENCH_THERMOCOUPLES ?? 300);
const FRAMES = Number(process.env.BENCH_FRAMES ?? 200);
// 4 frames a second: a DAQ sends about one; faster keeps the server (on the same machine) busier than a test does.
const FRAME_INTERVAL_MS = Number(process.env.BENCH_FRAME_INTERVAL_MS ?? 250);
const GOAL_UPDATE_MS = 4;
const GOAL_JS_KB = 350;
const ADMIN = {
  email: process.env.BENCH_ADMIN ?? 'admin@example.com',
  password: process.env.BENCH_PASSWORD ?? 'changethis',
};

// --- The system --------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface System {
  baseURL: string;
  mqttPort: number;
  stop(): Promise<void>;
}

async function waitForHealth(baseURL: string, child: ChildProcess | null, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`npm start exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseURL}/api/v1/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${baseURL} did not become healthy in ${timeoutMs / 1000} s`);
}

async function startSystem(): Promise<System> {
  if (process.env.BENCH_URL) {
    const mqttPort = Number(process.env.BENCH_MQTT_PORT);
    if (!mqttPort) throw new Error('BENCH_URL needs BENCH_MQTT_PORT (the broker the system listens on)');
    await waitForHealth(process.env.BENCH_URL, null, 10_000);
    return { baseURL: process.env.BENCH_URL, mqttPort, stop: async () => undefined };
  }
  const [port, mqttPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'furnace-bench-'));
  const baseURL = `http://127.0.0.1:${port}`;
  console.log(`Starting the system (npm start) on ${baseURL}, broker on ${mqttPort}…`);
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true, // Its own process group: stopped with everything it started.
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      FRONTEND_HOST: baseURL,
      DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseURL, child, 600_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, mqttPort, stop };
}

// --- Test data ---------------------------------------------------------------------------------

const TYPES = ['Tśr i Tmax', 'Tmax', 'TDin', 'Tmax ościeżnicy', 'T'] as const;
const COLORS = ['#E53935', '#1E88E5', '#43A047', '#8E24AA', '#FB8C00'] as const;
const PHOTO = { width: 1600, height: 1000 };

/** 300 thermocouples on a 20 × 15 grid, each with a label box beside its marker. */
function configText(count: number): string {
  const columns = 20;
  const rows = Math.ceil(count / columns);
  const lines = ['thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height'];
  for (let i = 0; i < count; i++) {
    const x = 20 + (i % columns) * ((PHOTO.width - 60) / columns);
    const y = 30 + Math.floor(i / columns) * ((PHOTO.height - 60) / rows);
    const type = i % TYPES.length;
    lines.push([i + 1, `T${i + 1}`, TYPES[type], COLORS[type], x, y + 8, 10, x + 12, y, 58, 22].join(';'));
  }
  return `${lines.join('\n')}\n`;
}

async function api<T>(baseURL: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`);
  if (typeof init.body === 'string') headers.set('Content-Type', 'application/json');
  const response = await fetch(`${baseURL}/api/v1${path}`, { ...init, headers });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function createResearch(baseURL: string): Promise<{ id: string; code: string }> {
  const login = await fetch(`${baseURL}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const now = Date.now();
  const research = await api<{ id: string }>(baseURL, '/research', {
    method: 'POST',
    token,
    body: JSON.stringify({
      name: `Benchmark: ${THERMOCOUPLES} termopar`,
      start_at: new Date(now - 60_000).toISOString(),
      end_at: new Date(now + 3 * 3600_000).toISOString(),
      is_radiance: true,
      is_furnance: true,
      is_pressure: true,
    }),
  });
  const form = new FormData();
  form.append('research_id', research.id);
  form.append(
    'image_file',
    new Blob([new Uint8Array(makePng(PHOTO.width, PHOTO.height))], { type: 'image/png' }),
    'bench.png',
  );
  form.append('config_file', new Blob([configText(THERMOCOUPLES)], { type: 'text/plain' }), 'bench.txt');
  await api(baseURL, '/research/thermo', { method: 'POST', token, body: form });
  const email = await api<{ id: string }>(baseURL, '/research/emails', {
    method: 'POST',
    token,
    body: JSON.stringify({ research_id: research.id, email: 'bench-client@example.com' }),
  });
  return { id: research.id, code: email.id };
}

// --- Measurements ------------------------------------------------------------------------------

interface Script {
  url: string;
  bytes: number;
  gzip: number;
}

function trackScripts(page: Page): Script[] {
  const scripts: Script[] = [];
  page.on('response', async (response) => {
    const url = response.url();
    if (!/\.m?js(\?|$)/.test(url) || response.status() !== 200) return;
    try {
      const body = await response.body();
      scripts.push({ url: new URL(url).pathname, bytes: body.length, gzip: gzipSync(body).length });
    } catch {
      // A response whose body is gone (navigation): not counted.
    }
  });
  return scripts;
}

const kB = (bytes: number) => bytes / 1024;
const sum = (scripts: readonly Script[], key: 'bytes' | 'gzip') => scripts.reduce((total, s) => total + s[key], 0);

function stats(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
  return { count: values.length, mean, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? Number.NaN };
}

/** The probe thermo-canvas.ts fills with the duration of every applyFrame (ms), and the scene it hands over. */
type Probe = {
  __furnaceCanvasBench?: number[];
  __furnaceCanvasBenchScene?: {
    scene: { labelLayer: { draw(): unknown } };
    applyFrame(scene: unknown, values: number[], mode: 'temperature'): number;
  };
};

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function main(): Promise<void> {
  if (CHROMIUM_MISSING) {
    console.log(`Benchmark skipped. ${CHROMIUM_REASON}`);
    return;
  }
  const system = await startSystem();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    // The end-to-end suite's flags: software rendering, so the numbers hold on a machine without a GPU.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const { id, code } = await createResearch(system.baseURL);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: 'pl-PL' });
    await page.addInitScript(() => {
      (globalThis as Probe).__furnaceCanvasBench = [];
    });
    const scripts = trackScripts(page);

    // JavaScript before a chart is needed: a phone, the curves below the fold.
    await page.goto(`${system.baseURL}/view/${id}?code=${code}`);
    await page.locator('[data-testid="thermo-canvas"][data-photo="loaded"]').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    const initial = [...scripts];
    await page.getByTestId('live-curves-slot').scrollIntoViewIfNeeded();
    await page.waitForTimeout(1500);
    await page.waitForLoadState('networkidle');
    const charts = scripts.slice(initial.length);

    // The canvas: a wide screen, 'tryb termopar' on (every frame changes every label's text).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'tryb termopar' }).click();
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      type Layer = { draw(): unknown };
      const w = window as unknown as {
        Konva: { stages: { getLayers(): Layer[] }[] };
        __benchDraws: { layer: string; ms: number }[];
      };
      w.__benchDraws = [];
      const stage = w.Konva.stages.at(-1);
      if (!stage) throw new Error('no Konva stage on the page');
      const [staticLayer, labelLayer] = stage.getLayers();
      for (const [name, layer] of [
        ['static', staticLayer],
        ['label', labelLayer],
      ] as const) {
        if (!layer) continue;
        const draw = layer.draw.bind(layer);
        layer.draw = () => {
          const started = performance.now();
          const result = draw();
          w.__benchDraws.push({ layer: name, ms: performance.now() - started });
          return result;
        };
      }
      (globalThis as Probe).__furnaceCanvasBench = [];
    });

    const mqtt = await connectAsync(`mqtt://127.0.0.1:${system.mqttPort}`, {
      clientId: `bench-daq-${Date.now().toString(36)}`,
    });
    const values = Array.from({ length: THERMOCOUPLES }, (_, i) => 20 + ((i * 37) % 300));
    console.log(`Publishing ${FRAMES} frames of ${THERMOCOUPLES} thermocouples, one every ${FRAME_INTERVAL_MS} ms…`);
    for (let frame = 1; frame <= FRAMES; frame++) {
      for (let i = 0; i < values.length; i++)
        values[i] = Math.round((values[i]! + 0.3 + Math.random() * 1.5) * 10) / 10;
      const payload = { time: 60 + frame, radiance: 1.8, pressure: 15.2, pk: 820.4, thermocouples_out: values };
      await mqtt.publishAsync(`furnace/${id}/data`, JSON.stringify(payload), { qos: 1 });
      await new Promise((r) => setTimeout(r, FRAME_INTERVAL_MS));
    }
    await page
      .waitForFunction(
        (n) => ((globalThis as Probe).__furnaceCanvasBench?.length ?? 0) >= n,
        Math.floor(FRAMES * 0.95),
        { timeout: 30_000 },
      )
      .catch(() => undefined);
    await page.waitForTimeout(500);
    await mqtt.endAsync();

    const measured = await page.evaluate(() => {
      const w = window as unknown as {
        __benchDraws: { layer: string; ms: number }[];
        Konva: { stages: { draw(): unknown }[] };
      };
      const updates = [...((globalThis as Probe).__furnaceCanvasBench ?? [])];
      const draws = [...w.__benchDraws];
      // Baseline: a full redraw of the stage (both layers: photo, markers, labels).
      const stage = w.Konva.stages.at(-1)!;
      const full: number[] = [];
      for (let i = 0; i < 40; i++) {
        const started = performance.now();
        stage.draw();
        full.push(performance.now() - started);
      }
      // The same scene without the stream: synthetic frames, each update followed by a synchronous
      // draw of the label layer; no socket, ingest or database working on the same machine meanwhile.
      const hook = (globalThis as Probe).__furnaceCanvasBenchScene!;
      const values = Array.from({ length: 1024 }, (_, i) => 20 + ((i * 37) % 300));
      const quiet = { update: [] as number[], draw: [] as number[] };
      for (let frame = 0; frame < 220; frame++) {
        for (let i = 0; i < values.length; i++)
          values[i] = Math.round((values[i]! + 0.3 + Math.random() * 1.5) * 10) / 10;
        const t0 = performance.now();
        hook.applyFrame(hook.scene, values, 'temperature');
        const t1 = performance.now();
        hook.scene.labelLayer.draw();
        const t2 = performance.now();
        if (frame >= 20) {
          quiet.update.push(t1 - t0);
          quiet.draw.push(t2 - t1);
        }
      }
      return { updates, draws, full, quiet };
    });

    const update = stats(measured.updates);
    const labelDraw = stats(measured.draws.filter((d) => d.layer === 'label').map((d) => d.ms));
    const staticDraws = measured.draws.filter((d) => d.layer === 'static').length;
    const full = stats(measured.full.slice(5)); // The first draws warm the caches.
    const perFrame = update.mean + labelDraw.mean;
    const initialGzip = kB(sum(initial, 'gzip'));

    console.log('\nJavaScript of the public live view (gzip, as served by a compressing proxy)');
    for (const s of [...initial].sort((a, b) => b.gzip - a.gzip).slice(0, 8))
      console.log(`  ${kB(s.gzip).toFixed(1).padStart(7)} kB  ${s.url}`);
    console.log(
      `  before a chart is needed: ${initialGzip.toFixed(1)} kB gzip (${kB(sum(initial, 'bytes')).toFixed(1)} kB raw) in ${initial.length} files — goal ≤ ${GOAL_JS_KB} kB: ${initialGzip <= GOAL_JS_KB ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  the curves add: ${kB(sum(charts, 'gzip')).toFixed(1)} kB gzip in ${charts.length} files (${charts.map((s) => s.url.split('/').pop()).join(', ') || 'none'})`,
    );
    if (initial.some((s) => /LiveCurves/.test(s.url)))
      console.log('  (the curves were loaded before they were scrolled to: the figure above includes them)');

    console.log(
      `\nCanvas, ${THERMOCOUPLES} thermocouples, ${update.count} DATA frames received ('tryb termopar': every label changes)`,
    );
    console.log(
      `  update (applyFrame: texts + fills)   mean ${fmt(update.mean)}  p50 ${fmt(update.p50)}  p95 ${fmt(update.p95)}  max ${fmt(update.max)}`,
    );
    console.log(
      `  label layer draw (batchDraw)         mean ${fmt(labelDraw.mean)}  p50 ${fmt(labelDraw.p50)}  p95 ${fmt(labelDraw.p95)}  (${labelDraw.count} draws)`,
    );
    console.log(`  static layer draws during the frames: ${staticDraws}`);
    console.log(
      `  per frame (update + label draw)      mean ${fmt(perFrame)} — goal < ${GOAL_UPDATE_MS} ms: ${perFrame < GOAL_UPDATE_MS ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  baseline: full stage redraw          mean ${fmt(full.mean)}  → a frame costs ${((perFrame / full.mean) * 100).toFixed(0)} % of a full redraw`,
    );
    const quietUpdate = stats(measured.quiet.update);
    const quietDraw = stats(measured.quiet.draw);
    console.log(
      `\nThe same scene without the stream (${quietUpdate.count} synthetic frames, nothing else running in the page)`,
    );
    console.log(
      `  update mean ${fmt(quietUpdate.mean)} (p95 ${fmt(quietUpdate.p95)}), label layer draw mean ${fmt(quietDraw.mean)} (p95 ${fmt(quietDraw.p95)})`,
    );
    console.log(
      `  per frame mean ${fmt(quietUpdate.mean + quietDraw.mean)} — goal < ${GOAL_UPDATE_MS} ms: ${quietUpdate.mean + quietDraw.mean < GOAL_UPDATE_MS ? 'met' : 'NOT met'}`,
    );
    console.log(
      `\n${JSON.stringify({
        thermocouples: THERMOCOUPLES,
        frames: update.count,
        update_ms: +update.mean.toFixed(3),
        label_draw_ms: +labelDraw.mean.toFixed(3),
        per_frame_ms: +perFrame.toFixed(3),
        full_redraw_ms: +full.mean.toFixed(3),
        quiet_per_frame_ms: +(stats(measured.quiet.update).mean + stats(measured.quiet.draw).mean).toFixed(3),
        static_draws: staticDraws,
        initial_js_gzip_kb: +initialGzip.toFixed(1),
        charts_js_gzip_kb: +kB(sum(charts, 'gzip')).toFixed(1),
      })}`,
    );
  } finally {
    await browser.close();
    await system.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
