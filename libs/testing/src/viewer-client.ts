import WebSocket from 'ws';
import { type LiveServerMessage, parseLiveMessage } from '@furnace/contracts';

/*
 * A live-stream viewer as a client sees it: a WebSocket on /api/v1/research/dane/stream/{id} that
 * records what arrives. Depends on nothing of the server, so the scale-out test and the benchmark's
 * viewer processes (bench/fanout) use it against API processes of their own.
 */

/** The stream's URL on the API at `api.url` (http://host:port). */
export function streamUrl(api: { url: string }, researchId: string, query: Record<string, string> = {}): string {
  const url = new URL(`/api/v1/research/dane/stream/${researchId}`, api.url.replace(/^http/, 'ws'));
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

export interface TestViewer {
  ws: WebSocket;
  messages: LiveServerMessage[];
  /** DATA frames' times, in arrival order. */
  times: number[];
  /** Arrival time (performance.now()) of each DATA frame, by time. */
  arrivals: Map<number, number>;
  close(): Promise<void>;
}

/**
 * Connects a viewer; resolves once open (rejects with the HTTP status when the upgrade is refused).
 * `timesOnly`: keeps only each DATA frame's time and arrival, read with a regular expression, so
 * that 100 viewers in the test's own process add as little as possible to the latency they measure.
 */
export function connectViewer(
  url: string,
  options: { timesOnly?: boolean; headers?: Record<string, string> } = {},
): Promise<TestViewer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: options.headers });
    const viewer: TestViewer = {
      ws,
      messages: [],
      times: [],
      arrivals: new Map(),
      close: () =>
        new Promise<void>((done) => {
          if (ws.readyState === WebSocket.CLOSED) return done();
          ws.once('close', () => done());
          ws.close();
        }),
    };
    ws.on('message', (data) => {
      const at = performance.now();
      if (options.timesOnly) {
        const match = /^\{"event":"DATA","data":\{"time":([-+.\deE]+)/.exec(data.toString());
        if (match) {
          viewer.times.push(Number(match[1]));
          viewer.arrivals.set(Number(match[1]), at);
        }
        return;
      }
      const parsed = parseLiveMessage(data.toString());
      if (!parsed.ok) throw new Error(`unparseable live message: ${parsed.error}`);
      viewer.messages.push(parsed.value);
      if (parsed.value.event === 'DATA') {
        viewer.times.push(parsed.value.data.time);
        viewer.arrivals.set(parsed.value.data.time, at);
      }
    });
    ws.once('open', () => resolve(viewer));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => reject(new RefusedUpgrade(res.statusCode ?? 0, body, viewer)));
    });
    ws.once('error', (error) => reject(error));
  });
}

export class RefusedUpgrade extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly viewer: TestViewer,
  ) {
    super(`upgrade refused with ${status}: ${body}`);
  }
}

/** The HTTP status a refused upgrade got, and what the would-be viewer received (must be nothing). */
export async function refusal(
  url: string,
  headers?: Record<string, string>,
): Promise<{ status: number; detail: unknown; received: number }> {
  try {
    const viewer = await connectViewer(url, { headers });
    await viewer.close();
    return { status: 101, detail: null, received: viewer.messages.length };
  } catch (error) {
    if (!(error instanceof RefusedUpgrade)) throw error;
    return {
      status: error.status,
      detail: (JSON.parse(error.body) as { detail: unknown }).detail,
      received: error.viewer.messages.length,
    };
  }
}
