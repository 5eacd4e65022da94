import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import WebSocket from 'ws';
import { type LabTile, parseLabMessage, silenceSeconds } from '@furnace/contracts';
import { createDataSource } from '@furnace/db';
import { connectViewer, insertMarkers, login, researchBody, streamUrl, SUPERUSER } from '@furnace/testing';
import { type RunningSimulator, startSimulator } from '@furnace/simulator';
import { type Usage, UsageMonitor } from './lib/process-stats';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, percentile, ratio, sleep, sortedCopy, table } from './lib/stats';
import { watchLive } from './lib/watcher';

/*
 * The lab overview's cost and the alarms' speed (docs/behaviour.md §17, §18), as a lab runs it: `furnaces` furnaces,
 * each with a test running on it and its DAQ publishing `rate` frames a second of `channels` thermocouples on its
 * furnace topic lab/{code}/data from before the first measurement to after the last (the ingest routes each frame by
 * its time to the test, the API keeps each test's criteria and raises its alarms).
 *
 * CPU per second of the API process (the standalone one, with the ingest and broker inside, on the embedded layout)
 * in windows of `seconds`, each phase between two quiet windows (nothing open), whose mean is its baseline:
 *   - the overview open (1 socket, then 10): what the overview costs on top of what the API does anyway;
 *   - one staff viewer on one test's live stream: the live fan-out of one test, the yardstick.
 * Then the DAQs of the last `silences` furnaces stop, one at a time: from the moment the DAQ counts as silent (the last
 * frame's publish + 3 scan periods, at least 2 s) to the overview's tile counting the alarm, the staff stream's ALARM,
 * and the webhook.
 */

export interface LabOptions {
  furnaces: number;
  /** Frames per second of each furnace's DAQ. */
  rate: number;
  channels: number;
  /** Length of each measured window, s. */
  seconds: number;
  /** Furnaces whose DAQ goes silent at the end, one after another. */
  silences: number;
  /** How many overview sockets, then how many live viewers of one test, are measured (one phase each). */
  sockets: number[];
}

interface Phase {
  label: string;
  /** Sockets open: overview sockets, or viewers of the one test's live stream. */
  sockets: number;
  usage: Usage;
  /** The API's CPU per second beyond the mean of the quiet windows either side, ms. */
  extraMsPerS: number;
  /** Overview messages and their bytes per second on one socket (overview phases). */
  messagesPerS?: number;
  bytesPerS?: number;
  /** The live viewer's frame latency (live phase), ms. */
  latency?: { p50: number; p99: number };
}

interface Silence {
  code: string;
  /** From the moment the DAQ counts as silent, ms; null: not seen within 30 s. */
  tileMs: number | null;
  streamMs: number | null;
  webhookMs: number | null;
}

export interface LabResult {
  options: LabOptions;
  framesPerS: number;
  quiet: Usage[];
  phases: Phase[];
  silences: Silence[];
  /** Tiles of the overview showing a running test, a frame in the last 3 s, the hottest category's rise. */
  live: { running: number; fresh: number; criteria: number };
  /** Alarms raised by the running tests before any DAQ was stopped (none expected), by kind. */
  unexpected: Record<string, number>;
  streamed: number;
}

const SCAN_S_OF = (rate: number) => Math.round((1000 / rate) * 100) / 100_000;

export async function runLab(
  services: BenchServices,
  options: LabOptions,
  log: (line: string) => void,
): Promise<LabResult> {
  const scanS = SCAN_S_OF(options.rate);
  const hooks: { researchId: string; kind: string; at: number }[] = [];
  const hookServer: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        alarm: { kind: string };
        research: { id: string };
      };
      hooks.push({ researchId: body.research.id, kind: body.alarm.kind, at });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}/alarms`;

  const system = await startFurnace(services);
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  const sims: RunningSimulator[] = [];
  const sockets: WebSocket[] = [];
  try {
    const http = request(system.api.url);
    const token = await login({ http }, SUPERUSER.email, SUPERUSER.password);
    const bearer = { Authorization: `Bearer ${token}` };

    // The furnaces, a test running on each (on its thermocouples' categories, as the criteria count them).
    const run = randomBytes(3).toString('hex');
    const furnaces: { id: string; code: string; researchId: string }[] = [];
    const markers: Record<number, string> = {};
    const mean = Math.round((options.channels * 2) / 3);
    for (let id = 1; id <= options.channels; id++)
      markers[id] = id <= mean ? 'Tśr i Tmax' : id <= options.channels - 20 ? 'Tmax' : 'Tmax ościeżnicy';
    for (let i = 1; i <= options.furnaces; i++) {
      const code = `b${run}-${i}`;
      const furnace = await http
        .post('/api/v1/furnaces')
        .set(bearer)
        .send({
          name: `Piec ${i}`,
          code,
          scan_period_s: scanS,
          webhook_url: hookUrl,
          webhook_secret: 'a-webhook-secret-of-the-bench',
        });
      if (!furnace.ok) throw new Error(`POST /furnaces: ${furnace.status} ${JSON.stringify(furnace.body)}`);
      const research = await http
        .post('/api/v1/research')
        .set(bearer)
        .send(
          researchBody({
            furnace_id: furnace.body.id,
            start_at: new Date(Date.now() - 60_000).toISOString(),
            end_at: new Date(Date.now() + 4 * 3600_000).toISOString(),
          }),
        );
      if (!research.ok) throw new Error(`POST /research: ${research.status} ${JSON.stringify(research.body)}`);
      await insertMarkers(dataSource, research.body.id, markers);
      furnaces.push({ id: furnace.body.id, code: furnace.body.code, researchId: research.body.id });
    }

    // Every DAQ streams from here to the end; the first furnace's frames are timed for the live viewer.
    const published = new Map<number, number>();
    const lastFrameAt = new Map<string, number>();
    for (const [i, f] of furnaces.entries())
      sims.push(
        startSimulator({
          url: services.broker.url,
          furnaceCode: f.code,
          channels: options.channels,
          rate: options.rate,
          seed: 11 + i,
          onFrame(time) {
            const at = performance.now();
            lastFrameAt.set(f.code, at);
            if (i === 0) published.set(time, at);
          },
          onError: (error) => log(`  DAQ ${f.code}: ${error.message}`),
        }),
      );
    log(
      `  ${options.furnaces} furnaces × ${options.rate} frames/s × ${options.channels} thermocouples streaming; warming up 15 s`,
    );
    await sleep(15_000);

    const monitor = () => {
      const m = new UsageMonitor(system.api.pid);
      m.start();
      return m;
    };
    const measure = async (): Promise<Usage> => {
      const m = monitor();
      await sleep(options.seconds * 1000);
      return m.stop();
    };
    // Only a socket that reads its tiles parses them: a crowd of them would spend the benchmark's CPU, not the API's.
    const openOverview = (read = true) =>
      new Promise<{
        ws: WebSocket;
        messages: number;
        bytes: number;
        tiles: Map<string, LabTile>;
        at: Map<string, number>;
      }>((resolve, reject) => {
        const url = new URL('/api/v1/lab/stream', system.api.url.replace(/^http/, 'ws'));
        url.searchParams.set('token', token);
        const ws = new WebSocket(url);
        const state = { ws, messages: 0, bytes: 0, tiles: new Map<string, LabTile>(), at: new Map<string, number>() };
        ws.on('message', (data: Buffer) => {
          state.messages++;
          state.bytes += data.length;
          if (!read) return;
          const parsed = parseLabMessage(data.toString());
          if (!parsed.ok) return;
          const at = performance.now();
          const tiles = parsed.value.event === 'LAB' ? parsed.value.data.tiles : [parsed.value.data.tile];
          for (const tile of tiles) {
            state.tiles.set(tile.furnace.id, tile);
            state.at.set(tile.furnace.id, at);
          }
        });
        ws.once('open', () => resolve(state));
        ws.once('error', reject);
        sockets.push(ws);
      });
    const quiet: Usage[] = [await measure()];
    const phases: Phase[] = [];
    const cpuMsPerS = (u: Usage) => (1000 * u.cpuSeconds) / u.wallSeconds;
    const between = async (
      label: string,
      sockets: number,
      usage: Usage,
      extra: Omit<Phase, 'label' | 'sockets' | 'usage' | 'extraMsPerS'>,
    ) => {
      const after = await measure();
      const base = (cpuMsPerS(quiet.at(-1)!) + cpuMsPerS(after)) / 2;
      quiet.push(after);
      const phase: Phase = { label, sockets, usage, extraMsPerS: cpuMsPerS(usage) - base, ...extra };
      phases.push(phase);
      log(
        `  ${label}: API ${fmt(cpuMsPerS(usage))} CPU-ms/s, ${fmt(phase.extraMsPerS)} beyond quiet (${fmt(base)})` +
          (phase.messagesPerS !== undefined
            ? `; ${fmt(phase.messagesPerS, 1)} messages/s, ${fmt(phase.bytesPerS! / 1024, 1)} KiB/s a socket`
            : '') +
          (phase.latency ? `; frames p50 ${fmt(phase.latency.p50)} ms, p99 ${fmt(phase.latency.p99)} ms` : ''),
      );
    };

    for (const count of options.sockets) {
      const opened = await Promise.all(Array.from({ length: count }, (_, i) => openOverview(i === 0)));
      await sleep(2_000);
      const first = opened[0]!;
      const [m0, b0] = [first.messages, first.bytes];
      const usage = await measure();
      const messagesPerS = (first.messages - m0) / usage.wallSeconds;
      const bytesPerS = (first.bytes - b0) / usage.wallSeconds;
      await closeAll(opened.map((o) => o.ws));
      await between(`the overview, ${count} socket${count === 1 ? '' : 's'}`, count, usage, {
        messagesPerS,
        bytesPerS,
      });
    }
    for (const count of options.sockets) {
      // One staff viewer timed (its frames' latency), the others as many more browsers on the same test.
      const watcher = await watchLive(system.api, furnaces[0]!.researchId, token, published);
      const others = await Promise.all(
        Array.from({ length: count - 1 }, () =>
          connectViewer(streamUrl(system.api, furnaces[0]!.researchId, { token }), { timesOnly: true }),
        ),
      );
      await sleep(2_000);
      const usage = await watcher.phase('quiet', measure);
      const { quiet: latency } = watcher.holds('quiet');
      await Promise.all([watcher.close(), ...others.map((o) => o.close())]);
      await between(`one test’s live stream, ${count} viewer${count === 1 ? '' : 's'}`, count, usage, {
        latency: { p50: latency.p50, p99: latency.p99 },
      });
    }

    // Nothing was silent until now: any alarm so far was raised by the load itself.
    const unexpected: Record<string, number> = {};
    for (const f of furnaces) {
      const res = await http.get(`/api/v1/research/${f.researchId}/alarms`).set(bearer);
      for (const alarm of (res.body.data ?? []) as { kind: string }[])
        unexpected[alarm.kind] = (unexpected[alarm.kind] ?? 0) + 1;
    }

    // Silence: the DAQs of the last furnaces stop, one at a time, watched by the overview and a staff stream.
    const overview = await openOverview();
    await sleep(2_000);
    // What the overview shows of the running tests (all of them, or the figures measured nothing).
    const shown = furnaces.map((f) => overview.tiles.get(f.id));
    const live = {
      running: shown.filter((t) => t?.running).length,
      fresh: shown.filter((t) => t?.last_frame_at && Date.now() - Date.parse(t.last_frame_at) < 3_000).length,
      criteria: shown.filter((t) => t?.hottest?.rise_k !== null && t?.hottest?.rise_k !== undefined).length,
    };
    log(
      `  the overview shows ${live.running} running tests, ${live.fresh} with a frame in the last 3 s, ${live.criteria} with the hottest category's rise`,
    );
    const silences: Silence[] = [];
    for (const [i, f] of furnaces.slice(-options.silences).entries()) {
      const index = furnaces.length - options.silences + i;
      const stream = await connectViewer(streamUrl(system.api, f.researchId, { token }));
      await sleep(2_000);
      const openBefore = overview.tiles.get(f.id)?.alarms.open ?? 0;
      const messagesBefore = stream.messages.length;
      await sims[index]!.stop();
      const stoppedAt = performance.now();
      const silentFrom = lastFrameAt.get(f.code)! + silenceSeconds(scanS) * 1000;
      const deadline = performance.now() + 30_000;
      let tileAt: number | null = null;
      let streamAt: number | null = null;
      let hookAt: number | null = null;
      while (performance.now() < deadline && (tileAt === null || streamAt === null || hookAt === null)) {
        const tileSeenAt = overview.at.get(f.id) ?? 0;
        if (tileAt === null && tileSeenAt > stoppedAt && (overview.tiles.get(f.id)?.alarms.open ?? 0) > openBefore)
          tileAt = tileSeenAt;
        if (
          streamAt === null &&
          stream.messages.slice(messagesBefore).some((m) => m.event === 'ALARM' && m.data.kind === 'silence')
        )
          streamAt = performance.now();
        hookAt ??=
          hooks.find((h) => h.at > stoppedAt && h.researchId === f.researchId && h.kind === 'silence')?.at ?? null;
        await sleep(20);
      }
      await stream.close();
      const since = (at: number | null) => (at === null ? null : at - silentFrom);
      const s: Silence = { code: f.code, tileMs: since(tileAt), streamMs: since(streamAt), webhookMs: since(hookAt) };
      silences.push(s);
      const show = (ms: number | null) => (ms === null ? 'not seen in 30 s' : `${fmt(ms)} ms`);
      log(
        `  ${f.code} silent: the overview's tile ${show(s.tileMs)}, the staff stream's ALARM ${show(s.streamMs)}, the webhook ${show(s.webhookMs)} after the DAQ counts as silent`,
      );
    }
    await closeAll([overview.ws]);
    const streamed = sims.reduce((n, s) => n + s.published, 0);
    return {
      options,
      framesPerS: options.furnaces * options.rate,
      quiet,
      phases,
      silences,
      live,
      unexpected,
      streamed,
    };
  } finally {
    await closeAll(sockets);
    await Promise.all(sims.map((s) => s.stop()));
    await system.stop();
    await dataSource.destroy();
    await new Promise((resolve) => hookServer.close(resolve));
  }
}

async function closeAll(list: WebSocket[]): Promise<void> {
  await Promise.all(
    list.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close();
        }),
    ),
  );
}

export function labReport(result: LabResult): string {
  const { options } = result;
  const cpu = (u: Usage) => (1000 * u.cpuSeconds) / u.wallSeconds;
  const quiet = sortedCopy(result.quiet.map(cpu));
  const spread = percentile(quiet, 100) - percentile(quiet, 0);
  // A phase's extra CPU counts only beyond the quiet windows' spread; below it, it is noise.
  const measured = (p: Phase) => p.extraMsPerS > spread;
  const perSocket = (p: Phase) => (measured(p) ? `${fmt(p.extraMsPerS / p.sockets, 2)}` : 'within noise');
  const rows = result.phases.map((p) => {
    const live = result.phases.find((l) => l.latency && l.sockets === p.sockets);
    return [
      p.label,
      fmt(cpu(p.usage)),
      fmt(p.extraMsPerS),
      perSocket(p),
      !p.latency && live && measured(live)
        ? measured(p)
          ? ratio(p.extraMsPerS, live.extraMsPerS)
          : '< noise ÷ it'
        : '–',
      p.messagesPerS !== undefined
        ? `${fmt(p.messagesPerS, 1)} msg/s, ${fmt(p.bytesPerS! / 1024, 1)} KiB/s`
        : p.latency
          ? `frames p50 ${fmt(p.latency.p50)}, p99 ${fmt(p.latency.p99)} ms`
          : '',
    ];
  });
  const ms = (v: number | null) => (v === null ? 'not seen' : fmt(v));
  const silenceRows = result.silences.map((s) => [s.code, ms(s.tileMs), ms(s.streamMs), ms(s.webhookMs)]);
  const worst = Math.max(...result.silences.flatMap((s) => [s.tileMs ?? Infinity, s.webhookMs ?? Infinity]));
  const unexpected = Object.entries(result.unexpected);
  return [
    `Lab overview and alarms: ${options.furnaces} furnaces, a test running on each, each DAQ at ${options.rate} frames/s × ` +
      `${options.channels} thermocouples on its furnace topic (${fmt(result.framesPerS)} frames/s, ${fmt(result.streamed)} published); ` +
      `the API's CPU in ${options.seconds} s windows, each phase against the mean of the quiet windows either side ` +
      `(quiet: ${fmt(percentile(quiet, 0))}–${fmt(percentile(quiet, 100))} CPU-ms/s: a difference within that spread is noise). ` +
      `The overview showed ${result.live.running} running tests, ${result.live.fresh} with a frame in the last 3 s, ` +
      `${result.live.criteria} with the hottest category's rise.`,
    '',
    table(
      ['open', 'API CPU-ms/s', 'beyond quiet', 'a socket', '÷ the live stream, as many sockets', 'on one socket'],
      rows,
    ),
    '',
    `A DAQ going silent (scan period ${SCAN_S_OF(options.rate)} s: silent after ${silenceSeconds(SCAN_S_OF(options.rate))} s, 3 scans and at least 2 s), ` +
      `from then, ms (goal ≤ 5 000 to the screen and the webhook; ` +
      `worst ${Number.isFinite(worst) ? fmt(worst) : 'not seen'}):`,
    '',
    table(['furnace', 'overview tile', 'staff stream ALARM', 'webhook'], silenceRows),
    '',
    unexpected.length
      ? `Alarms raised while every DAQ streamed (none was caused): ${unexpected.map(([k, n]) => `${k} ${n}`).join(', ')}`
      : 'No alarm was raised while every DAQ streamed.',
  ].join('\n');
}
