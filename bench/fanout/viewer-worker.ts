// Viewers in a process of their own, so the server under test has its CPU to itself and is measured
// alone. Driven over IPC by bench/fanout/fanout.ts (protocol.ts).
import { io } from 'socket.io-client';
import { connectViewer } from '@furnace/testing';
import type { ViewerKind, ViewerResult, WorkerCommand, WorkerReply } from './protocol';

/** What a viewer records: each DATA frame's time in arrival order, and its arrival (performance.now()). */
interface Recorder {
  times: number[];
  arrivals: Map<number, number>;
  close(): Promise<void>;
}

/** A socket.io client as its docs recommend for a server that speaks WebSocket only. */
function connectSocketIo(url: string): Promise<Recorder> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, timeout: 30_000 });
  const recorder: Recorder = {
    times: [],
    arrivals: new Map(),
    close: async () => {
      socket.disconnect();
    },
  };
  socket.on('DATA', (data: { time: number }) => {
    const at = performance.now();
    recorder.times.push(data.time);
    recorder.arrivals.set(data.time, at);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(recorder));
    socket.once('connect_error', (error) => reject(error));
  });
}

const viewers: Recorder[] = [];

async function connect(kind: ViewerKind, urls: string[], concurrency: number): Promise<WorkerReply> {
  let next = 0;
  let failed = 0;
  let error: string | undefined;
  const one = (url: string): Promise<Recorder> =>
    kind === 'ws' ? connectViewer(url, { timesOnly: true }) : connectSocketIo(url);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, urls.length) }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        try {
          viewers.push(await one(url));
        } catch (e) {
          failed++;
          error ??= e instanceof Error ? e.message : String(e);
        }
      }
    }),
  );
  return { type: 'connect', connected: viewers.length, failed, error };
}

function collect(sent: [number, number][]): ViewerResult {
  const sentAt = new Map(sent);
  const latencies: number[] = [];
  let received = 0;
  let duplicates = 0;
  let outOfOrder = 0;
  let lastArrival = 0;
  for (const viewer of viewers) {
    const seen = new Set<number>();
    let last = -Infinity;
    for (const time of viewer.times) {
      if (!sentAt.has(time)) continue;
      if (seen.has(time)) duplicates++;
      seen.add(time);
      if (time < last) outOfOrder++;
      last = Math.max(last, time);
    }
    received += seen.size;
    for (const [time, published] of sent) {
      const at = viewer.arrivals.get(time);
      if (at === undefined) continue;
      latencies.push(performance.timeOrigin + at - published);
      lastArrival = Math.max(lastArrival, performance.timeOrigin + at);
    }
  }
  return {
    viewers: viewers.length,
    received,
    duplicates,
    outOfOrder,
    latencies: Float64Array.from(latencies),
    lastArrival,
  };
}

process.on('message', (command: WorkerCommand) => {
  const reply = (message: WorkerReply) => process.send!(message);
  switch (command.type) {
    case 'connect':
      void connect(command.kind, command.urls, command.concurrency).then(reply);
      return;
    case 'reset':
      for (const viewer of viewers) {
        viewer.times.length = 0;
        viewer.arrivals.clear();
      }
      return reply({ type: 'reset' });
    case 'count':
      return reply({
        type: 'count',
        deliveries: viewers.reduce(
          (n, v) => n + v.times.reduce((k, t) => (t >= command.from && t <= command.to ? k + 1 : k), 0),
          0,
        ),
      });
    case 'collect':
      return reply({ type: 'collect', result: collect(command.sent) });
    case 'close':
      void Promise.all(viewers.map((v) => v.close().catch(() => undefined))).then(() => {
        reply({ type: 'close' });
        setTimeout(() => process.exit(0), 100);
      });
      return;
  }
});
process.on('disconnect', () => process.exit(0));
