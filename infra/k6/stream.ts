// Load test of the live stream (WebSocket /api/v1/research/dane/stream/{id}): VIEWERS viewers of
// each research in RESEARCH_IDS, ramped up, held, ramped down. Each viewer behaves as the
// dashboard does (STATUS on open and every 5 s) and measures how late each DATA frame arrives
// against the frame's `ts` (the DAQ's clock).
//
//   k6 run -e BASE_URL=https://furnace.example.com -e RESEARCH_IDS=<id>[,<id>…] \
//          -e FURNACE_EMAIL=… -e FURNACE_PASSWORD=… infra/k6/stream.ts
//
// Frames must be flowing meanwhile (the DAQ, or `npm run simulate -- --speed 1 …`: with another
// speed `ts` runs ahead of the wall clock), and the publisher's clock must agree with this
// machine's (NTP), or the latency measures the difference between the clocks. README: "Load tests (k6)".
import { check, fail } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { clearInterval, setInterval, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import {
  authHeaders,
  durationSeconds,
  login,
  numberEnv,
  optionalEnv,
  requireEnv,
  researchIds,
  staffCredentials,
  wsUrl,
} from './lib/furnace.ts';

const RESEARCHES = researchIds(requireEnv('RESEARCH_IDS'));
/** Viewers of each research at the top of the ramp. */
const VIEWERS = Math.floor(numberEnv('VIEWERS', 100));
const RAMP = optionalEnv('RAMP', '1m');
const HOLD = optionalEnv('HOLD', '5m');
/** How long one viewer stays connected before it reconnects (a new iteration). */
const SESSION_MS = durationSeconds(optionalEnv('SESSION', HOLD)) * 1000;
/** The dashboard's STATUS period (the live stream contract). */
const STATUS_EVERY_MS = 5000;

export const options: Options = {
  scenarios: {
    viewers: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: RAMP, target: VIEWERS * RESEARCHES.length },
        { duration: HOLD, target: VIEWERS * RESEARCHES.length },
        { duration: optionalEnv('RAMP_DOWN', '30s'), target: 0 },
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    furnace_stream_opened: ['rate>0.99'],
    furnace_viewer_got_data: ['rate>0.99'],
    furnace_frame_latency: [`p(95)<${numberEnv('LATENCY_P95_MS', 500)}`, `p(99)<${numberEnv('LATENCY_P99_MS', 1000)}`],
    furnace_frames_out_of_order: ['count==0'],
    checks: ['rate>0.99'],
  },
};

/** DAQ `ts` → receipt on this machine, per DATA frame. */
const frameLatency = new Trend('furnace_frame_latency', true);
const framesReceived = new Counter('furnace_frames_received');
/** DATA frames without `ts`: counted, not timed (the DAQ contract makes `ts` optional). */
const framesWithoutTs = new Counter('furnace_frames_without_ts');
/** A frame whose `time` is not after the previous one on the same socket: the server must never send one. */
const framesOutOfOrder = new Counter('furnace_frames_out_of_order');
const streamOpened = new Rate('furnace_stream_opened');
/** Per finished session: did at least one DATA frame arrive? */
const viewerGotData = new Rate('furnace_viewer_got_data');

interface Auth {
  /** Staff bearer token, sent in the Authorization header so that it never appears in a metric's url tag. */
  token?: string;
  /** A client's e-mail record id (`?code=`), for a single research. */
  code?: string;
}

export function setup(): Auth {
  const code = optionalEnv('VIEWER_CODE', '');
  if (code !== '') {
    if (RESEARCHES.length !== 1) fail('VIEWER_CODE opens one research only: give a single id in RESEARCH_IDS');
    return { code };
  }
  const { email, password } = staffCredentials();
  const token = login(email, password);
  if (!token) fail('login failed: check FURNACE_EMAIL and FURNACE_PASSWORD');
  return { token };
}

export default function viewer(auth: Auth): void {
  const research = RESEARCHES[(exec.vu.idInTest - 1) % RESEARCHES.length] as string;
  const tags = { research };
  const query = auth.code ? `?code=${encodeURIComponent(auth.code)}` : '';
  const ws = new WebSocket(wsUrl(`/research/dane/stream/${research}${query}`), null, {
    headers: auth.token ? authHeaders(auth.token) : {},
    tags: { name: 'stream', research },
  });

  let opened = false;
  let frames = 0;
  let statuses = 0;
  let lastTime = -Infinity;
  let statusTimer: number | undefined;

  ws.onopen = () => {
    opened = true;
    streamOpened.add(true, tags);
    ws.send('STATUS');
    statusTimer = setInterval(() => ws.send('STATUS'), STATUS_EVERY_MS);
    setTimeout(() => ws.close(1000, 'session over'), SESSION_MS);
  };

  ws.onmessage = (event) => {
    if (!event || typeof event.data !== 'string') return;
    const receivedAt = event.timestamp > 0 ? event.timestamp : Date.now();
    const message = readMessage(event.data);
    if (message.event === 'STATUS') statuses += 1;
    if (message.event !== 'DATA') return;
    frames += 1;
    framesReceived.add(1, tags);
    if (message.time !== undefined) {
      if (message.time <= lastTime) framesOutOfOrder.add(1, tags);
      lastTime = message.time;
    }
    if (message.ts === undefined) {
      framesWithoutTs.add(1, tags);
    } else {
      frameLatency.add(receivedAt - message.ts, tags);
    }
  };

  ws.onerror = (event) => {
    // Before `open`: the upgrade was refused (401/403/404) or the address is wrong.
    if (!opened) {
      streamOpened.add(false, tags);
      console.warn(`stream of ${research} not opened: ${event?.error ?? 'unknown error'}`);
    }
  };

  ws.onclose = () => {
    if (statusTimer !== undefined) clearInterval(statusTimer);
    if (!opened) return;
    viewerGotData.add(frames > 0, tags);
    check(null, {
      'stream: STATUS answered': () => statuses > 0,
      'stream: DATA received': () => frames > 0,
    }, tags);
  };
}

interface Received {
  event?: string;
  /** The frame's `time` (seconds since the test started). */
  time?: number;
  /** The frame's `ts` in epoch milliseconds. */
  ts?: number;
}

const EVENT = /^\{"event":"([A-Z]+)"/;
const TIME = /"time":(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/;
const TS = /"ts":"([^"]+)"/;

/**
 * The three fields this script uses. Regular expressions rather than JSON.parse: one k6 machine
 * runs thousands of viewers, and building the objects of every 300-channel frame in full would
 * make the load generator, not the server, the bottleneck. The server writes `{"event":…,"data":…}`
 * (JSON.stringify of the live message); anything else falls back to JSON.parse.
 */
function readMessage(text: string): Received {
  const event = EVENT.exec(text)?.[1];
  if (event === undefined) return readMessageSlowly(text);
  if (event !== 'DATA') return { event };
  const time = TIME.exec(text)?.[1];
  const ts = TS.exec(text)?.[1];
  return { event, time: time === undefined ? undefined : Number(time), ts: ts === undefined ? undefined : epochMs(ts) };
}

function readMessageSlowly(text: string): Received {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (parsed === null || typeof parsed !== 'object') return {};
  const { event, data } = parsed as { event?: unknown; data?: unknown };
  const frame = (data !== null && typeof data === 'object' ? data : {}) as { time?: unknown; ts?: unknown };
  return {
    event: typeof event === 'string' ? event : undefined,
    time: typeof frame.time === 'number' ? frame.time : undefined,
    ts: typeof frame.ts === 'string' ? epochMs(frame.ts) : undefined,
  };
}

function epochMs(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}
