import type { ChildProcess } from 'node:child_process';
import type { MqttClient } from 'mqtt';
import request from 'supertest';
import { daqTopic } from '@furnace/contracts';
import { connectPublisher, insertResearch, login, streamUrl, SUPERUSER, uniqueId } from '@furnace/testing';
import { createFrameGenerator } from '@furnace/simulator';
import { UsageMonitor, type Usage } from '../lib/process-stats';
import { join } from 'node:path';
import {
  type BenchServices,
  lineFrom,
  type ServerOptions,
  spawnCompiled,
  spawnTs,
  startFurnace,
} from '../lib/services';
import { fmt, mb, percentile, ratio, sleep, sortedCopy, table } from '../lib/stats';
import type { ViewerKind, ViewerResult, WorkerCommand, WorkerReply } from './protocol';

/*
 * Fan-out: V viewers of one research, frames of C thermocouples published over MQTT at R per second.
 * The same frames, the same viewer processes, in turn against three servers: Furnace Live's API
 * (fed through the ingest and the bus, as deployed), a bare `ws` server and a socket.io server
 * (both fed straight from the broker). Each server runs alone while measured; the viewers run in
 * worker processes, so the server's CPU (from /proc) is its own.
 */

export type ServerName = 'furnace' | 'ws' | 'socketio';
const SERVERS: readonly ServerName[] = ['ws', 'socketio', 'furnace'];

export interface FanoutOptions {
  viewerCounts: number[];
  rates: number[];
  /** Publishing time per case. */
  seconds: number;
  channels: number;
  /** Viewer processes. */
  workers: number;
  /** The servers to measure (default all three). */
  servers?: readonly ServerName[];
  /** CPU-profile these servers during each measured case (V8 profiles written to `dir`). */
  profile?: { servers: ServerName[]; dir: string };
}

export interface FanoutRow {
  server: ServerName;
  /** Viewers asked for, and connected. */
  viewers: number;
  connected: number;
  /** How long the viewers took to connect (upgrade, authorisation, subscription), 100 at a time. */
  connectSeconds: number;
  /** The server's CPU time per connection accepted, ms. */
  connectCpuMs: number;
  rate: number;
  frames: number;
  expected: number;
  received: number;
  duplicates: number;
  outOfOrder: number;
  deliveriesPerSecond: number;
  p50: number;
  p99: number;
  usage: Usage;
  /** CPU time of the server per delivered message, µs. */
  cpuMicrosPerDelivery: number;
}

interface ServerUnderTest {
  pid: number;
  topic: string;
  kind: ViewerKind;
  urls(n: number): string[];
  stop(): Promise<void>;
}

async function startServer(
  name: ServerName,
  services: BenchServices,
  options: ServerOptions,
): Promise<ServerUnderTest> {
  if (name === 'furnace') {
    const system = await startFurnace(services, options);
    const researchId = await insertResearch(services.db.url);
    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    return {
      pid: system.api.pid,
      topic: daqTopic(researchId),
      kind: 'ws',
      urls: (n) => Array.from({ length: n }, () => streamUrl(system.api, researchId, { token })),
      stop: () => system.stop(),
    };
  }
  // Outside furnace/+/data: the ingest never sees the baselines' frames.
  const topic = `bench/${uniqueId('fanout')}`;
  const child = spawnCompiled(
    `fanout/${name === 'ws' ? 'ws-server' : 'socketio-server'}.ts`,
    [services.broker.url, topic],
    options,
  );
  const port = Number(await lineFrom(child, 'ready '));
  const url = name === 'ws' ? `ws://127.0.0.1:${port}/` : `http://127.0.0.1:${port}`;
  return {
    pid: child.pid!,
    topic,
    kind: name === 'ws' ? 'ws' : 'socketio',
    urls: (n) => Array.from({ length: n }, () => url),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A viewer process, one command at a time. */
class ViewerProcess {
  private readonly child = spawnTs('fanout/viewer-worker.ts', [], { ipc: true });
  private waiting: ((reply: WorkerReply) => void) | null = null;

  constructor() {
    this.child.on('message', (reply: WorkerReply) => {
      const resolve = this.waiting;
      this.waiting = null;
      resolve?.(reply);
    });
  }

  ask<T extends WorkerReply['type']>(command: WorkerCommand & { type: T }): Promise<Extract<WorkerReply, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`viewer process exited with ${code}`));
      this.child.once('exit', onExit);
      this.waiting = (reply) => {
        this.child.off('exit', onExit);
        resolve(reply as Extract<WorkerReply, { type: T }>);
      };
      this.child.send(command);
    });
  }

  async close(): Promise<void> {
    await this.ask({ type: 'close' }).catch(() => undefined);
    await stopChild(this.child);
  }
}

/**
 * The DAQ: publishes frames at a steady rate, without a pause, from before the first viewer
 * connects until after the last leaves (a lab's furnace does not wait for its viewers). The rate
 * can change between cases without stopping; every frame's time and publish instant are recorded.
 */
class DaqStream {
  private readonly generate;
  private time = 0;
  private rate: number;
  private stopped = false;
  private readonly done: Promise<void>;
  /** [frame time, publish instant (epoch ms)] of every frame published. */
  readonly sent: [number, number][] = [];

  constructor(
    private readonly publisher: MqttClient,
    private readonly topic: string,
    channels: number,
    rate: number,
  ) {
    this.generate = createFrameGenerator({ channels, seed: 300 });
    this.rate = rate;
    this.done = this.run();
  }

  /** From the next frame on: `rate` frames a second (frame times step by 1/rate s). */
  setRate(rate: number): void {
    this.rate = rate;
  }

  /** Index of the next frame to be published. */
  get count(): number {
    return this.sent.length;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }

  private async run(): Promise<void> {
    let due = performance.now();
    while (!this.stopped) {
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const payload = this.generate(this.time);
      this.time = Math.round((this.time + 1 / this.rate) * 1000) / 1000;
      this.sent.push([payload.time, performance.timeOrigin + performance.now()]);
      this.publisher.publish(this.topic, JSON.stringify(payload), { qos: 1 });
      due += 1000 / this.rate;
    }
  }
}

function merge(results: ViewerResult[]): ViewerResult {
  const latencies = new Float64Array(results.reduce((n, r) => n + r.latencies.length, 0));
  let offset = 0;
  for (const r of results) {
    latencies.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  return {
    viewers: results.reduce((n, r) => n + r.viewers, 0),
    received: results.reduce((n, r) => n + r.received, 0),
    duplicates: results.reduce((n, r) => n + r.duplicates, 0),
    outOfOrder: results.reduce((n, r) => n + r.outOfOrder, 0),
    latencies,
    lastArrival: Math.max(...results.map((r) => r.lastArrival)),
  };
}

export async function runFanout(
  services: BenchServices,
  options: FanoutOptions,
  log: (line: string) => void,
): Promise<FanoutRow[]> {
  const rows: FanoutRow[] = [];
  const publisher = await connectPublisher(services.broker.url);
  try {
    for (const viewers of options.viewerCounts) {
      for (const name of options.servers ?? SERVERS) {
        const profiled = options.profile?.servers.includes(name) ?? false;
        const server = await startServer(
          name,
          services,
          profiled
            ? {
                nodeArgs: ['-r', join(__dirname, '..', 'lib', 'profile-on-signal.js')],
                env: { BENCH_PROFILE_DIR: options.profile!.dir, BENCH_PROFILE_NAME: `${name}-${viewers}` },
              }
            : {},
        );
        // The DAQ streams from before the first viewer connects until after the last has left.
        const stream = new DaqStream(publisher, server.topic, options.channels, options.rates[0]!);
        const workers = Array.from({ length: options.workers }, () => new ViewerProcess());
        try {
          const urls = server.urls(viewers);
          const share = Math.ceil(viewers / workers.length);
          const t0 = performance.now();
          const connectMonitor = new UsageMonitor(server.pid);
          // Profiles: <server>-<viewers>-1 the connections, then one per rate.
          if (profiled) process.kill(server.pid, 'SIGWINCH');
          connectMonitor.start();
          const connects = await Promise.all(
            workers.map((w, i) =>
              w.ask({
                type: 'connect',
                kind: server.kind,
                urls: urls.slice(i * share, (i + 1) * share),
                concurrency: 50,
              }),
            ),
          );
          const connectSeconds = (performance.now() - t0) / 1000;
          const connected = connects.reduce((n, c) => n + c.connected, 0);
          const connectCpuMs = (connectMonitor.stop().cpuSeconds * 1000) / Math.max(1, connected);
          if (profiled) process.kill(server.pid, 'SIGWINCH');
          const failed = connects.find((c) => c.failed > 0);
          log(
            `  ${name}: ${connected}/${viewers} viewers connected in ${connectSeconds.toFixed(1)} s, ${connectCpuMs.toFixed(2)} ms of server CPU each` +
              (failed ? ` (${failed.failed} failed: ${failed.error})` : ''),
          );

          // Settling (JIT, the ingest's first lookup of the research, the bus subscription) while the
          // DAQ keeps streaming: not measured, but nothing pauses before the measured window either.
          stream.setRate(options.rates[0]!);
          await sleep(2000);

          for (const rate of options.rates) {
            stream.setRate(rate);
            // The new rate applies from the next frame; the window starts after it.
            await sleep(2000 / rate);
            await Promise.all(workers.map((w) => w.ask({ type: 'reset' })));
            const monitor = new UsageMonitor(server.pid);
            if (profiled) process.kill(server.pid, 'SIGWINCH');
            monitor.start();
            const first = stream.count;
            await sleep(options.seconds * 1000);
            const sent = stream.sent.slice(first);
            const publishSeconds = (sent.at(-1)![1] - sent[0]![1]) / 1000 + 1 / rate;
            const window = { from: sent[0]![0], to: sent.at(-1)![0] };
            // Until every viewer has every frame of the window, or 10 s after its last (a saturated server never catches up).
            const expected = sent.length * connected;
            const deadline = performance.now() + 10_000;
            for (;;) {
              const counts = await Promise.all(workers.map((w) => w.ask({ type: 'count', ...window })));
              if (counts.reduce((n, c) => n + c.deliveries, 0) >= expected || performance.now() > deadline) break;
              await sleep(100);
            }
            const usage = monitor.stop();
            if (profiled) process.kill(server.pid, 'SIGWINCH');
            const result = merge(
              await Promise.all(workers.map(async (w) => (await w.ask({ type: 'collect', sent })).result)),
            );
            const sorted = sortedCopy(result.latencies);
            const row: FanoutRow = {
              server: name,
              viewers,
              connected,
              connectSeconds,
              connectCpuMs,
              rate,
              frames: sent.length,
              expected,
              received: result.received,
              duplicates: result.duplicates,
              outOfOrder: result.outOfOrder,
              // Over the time they took: a server that falls behind delivers after the window ended.
              deliveriesPerSecond:
                result.received / Math.max(publishSeconds, (result.lastArrival - sent[0]![1]) / 1000),
              p50: percentile(sorted, 50),
              p99: percentile(sorted, 99),
              usage,
              cpuMicrosPerDelivery: result.received > 0 ? (usage.cpuSeconds * 1e6) / result.received : Number.NaN,
            };
            rows.push(row);
            log(
              `  ${name} ${viewers} viewers × ${rate}/s: ${row.received}/${expected} delivered, ${row.deliveriesPerSecond.toFixed(0)}/s, ` +
                `p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, CPU ${usage.cpuPercent.toFixed(0)} %, ` +
                `${row.cpuMicrosPerDelivery.toFixed(1)} µs/delivery, RSS ${(usage.peakRssBytes / 2 ** 20).toFixed(0)} MB` +
                (row.duplicates || row.outOfOrder
                  ? `, ${row.duplicates} duplicates, ${row.outOfOrder} out of order`
                  : ''),
            );
          }
        } finally {
          await Promise.all(workers.map((w) => w.close()));
          await stream.stop();
          await server.stop();
        }
      }
    }
  } finally {
    await publisher.endAsync();
  }
  return rows;
}

const SERVER_LABEL: Record<ServerName, string> = { furnace: 'Furnace Live API', ws: 'bare ws', socketio: 'socket.io' };

/** The fan-out tables: every case as measured, then Furnace Live's figures as ratios of the baselines'. */
export function fanoutReport(rows: FanoutRow[], layout: 'embedded' | 'services', note?: string): string {
  const detail = table(
    [
      'viewers × frames/s',
      'server',
      'deliveries/s',
      'delivered',
      'p50 ms',
      'p99 ms',
      'CPU % of a core',
      'CPU µs/delivery',
      'peak RSS MB',
    ],
    rows.map((r) => [
      `${fmt(r.viewers)} × ${r.rate}`,
      SERVER_LABEL[r.server],
      fmt(r.deliveriesPerSecond),
      `${fmt((100 * r.received) / r.expected, 1)} %${r.duplicates || r.outOfOrder ? ` (${r.duplicates} dup, ${r.outOfOrder} disordered)` : ''}`,
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      fmt(r.usage.cpuPercent),
      fmt(r.cpuMicrosPerDelivery, 1),
      mb(r.usage.peakRssBytes),
    ]),
  );
  const find = (server: ServerName, viewers: number, rate: number) =>
    rows.find((r) => r.server === server && r.viewers === viewers && r.rate === rate);
  const summary = table(
    [
      'viewers × frames/s',
      'throughput ÷ ws (goal ≥ 0.80)',
      'throughput ÷ socket.io (goal > 1)',
      'CPU/delivery ÷ ws',
      'CPU/delivery ÷ socket.io',
      'p50 ÷ ws',
      'p99 ÷ ws',
      'p99 ÷ socket.io',
      'RSS ÷ ws',
    ],
    rows
      .filter((r) => r.server === 'furnace')
      .map((f) => {
        const ws = find('ws', f.viewers, f.rate);
        const sio = find('socketio', f.viewers, f.rate);
        const vsWs = ws ? f.deliveriesPerSecond / ws.deliveriesPerSecond : Number.NaN;
        const vsSio = sio ? f.deliveriesPerSecond / sio.deliveriesPerSecond : Number.NaN;
        // Equal throughput (both delivered everything) is a win when it costs less CPU.
        const beatsSio = sio
          ? vsSio > 1.005 || (vsSio > 0.995 && f.cpuMicrosPerDelivery < sio.cpuMicrosPerDelivery)
          : false;
        return [
          `${fmt(f.viewers)} × ${f.rate}`,
          `${ratio(f.deliveriesPerSecond, ws?.deliveriesPerSecond ?? Number.NaN)} ${vsWs >= 0.8 ? 'met' : 'SHORT'}`,
          `${ratio(f.deliveriesPerSecond, sio?.deliveriesPerSecond ?? Number.NaN)} ${beatsSio ? 'met' : 'SHORT'}`,
          ratio(f.cpuMicrosPerDelivery, ws?.cpuMicrosPerDelivery ?? Number.NaN),
          ratio(f.cpuMicrosPerDelivery, sio?.cpuMicrosPerDelivery ?? Number.NaN),
          ratio(f.p50, ws?.p50 ?? Number.NaN),
          ratio(f.p99, ws?.p99 ?? Number.NaN),
          ratio(f.p99, sio?.p99 ?? Number.NaN),
          ratio(f.usage.peakRssBytes, ws?.usage.peakRssBytes ?? Number.NaN),
        ];
      }),
  );
  // The live goals: a lone viewer's frames within 20 ms (p99) of their publishing on the embedded
  // layout (`npm start`); with 1 000 viewers, p99 within 1.5× the bare `ws` server's, every frame delivered.
  const goals = rows
    .filter((r) => r.server === 'furnace')
    .flatMap((f) => {
      const delivered = f.received === f.expected && f.duplicates === 0;
      if (f.viewers === 1) {
        const ws = find('ws', f.viewers, f.rate);
        const line = `- 1 viewer × ${f.rate}/s: p99 ${fmt(f.p99, 1)} ms (bare ws ${fmt(ws?.p99 ?? Number.NaN, 1)} ms), ${fmt((100 * f.received) / f.expected, 1)} % delivered`;
        // The goal is set for `npm start` at the DAQ's usual top rate.
        if (layout !== 'embedded' || f.rate !== 10) return [line];
        return [`${line}; goal p99 ≤ 20 ms: ${f.p99 <= 20 && delivered ? 'met' : 'SHORT'}`];
      }
      const ws = find('ws', f.viewers, f.rate);
      if (!ws || f.viewers < 1000) return [];
      const met = f.p99 <= 1.5 * ws.p99 && delivered;
      return [
        `- ${fmt(f.viewers)} viewers × ${f.rate}/s: p99 ${fmt(f.p99, 1)} ms against bare ws ${fmt(ws.p99, 1)} ms = ${ratio(f.p99, ws.p99)} (goal ≤ 1.5×), ` +
          `${fmt((100 * f.received) / f.expected, 1)} % delivered (goal 100 %): ${met ? 'met' : 'SHORT'}`,
      ];
    });
  return [
    'Fan-out: one research, 300 thermocouples a frame, published over MQTT without a pause from before the first viewer connects ' +
      'until after the last leaves; viewers in 2 separate processes. ' +
      'Furnace Live is measured end to end (MQTT → ingest → database → bus → API → WebSocket); the baselines read the broker directly. ' +
      'CPU and RSS are the serving process only' +
      (note ? `; ${note}` : '') +
      '.',
    detail,
    'Furnace Live as ratios of the baselines (throughput: higher is better; CPU, latency, memory: lower is better; ' +
      '"beat socket.io" = more deliveries/s, or as many for less CPU):',
    summary,
    ...(goals.length
      ? [
          `Live goals (${layout === 'embedded' ? 'embedded layout, as `npm start`' : 'services layout'}):\n${goals.join('\n')}`,
        ]
      : []),
  ].join('\n\n');
}
