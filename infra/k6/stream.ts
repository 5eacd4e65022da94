// Load test of the live stream (WebSocket /api/v1/research/dane/stream/{id}): VIEWERS viewers of
// each research in RESEARCH_IDS, ramped up, held, ramped down. Each viewer behaves as the
// dashboard does (STATUS on open and every 5 s), puts the DATA frames in order as the dashboard's
// frame source does (by the DAQ's `time`: the server forwards each frame as it arrives, so frames of
// several ingests may come out of order), checks what the dashboard would show — no frame missing,
// the newest one shown — and measures how late each frame arrives against its `ts` (the DAQ's clock).
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
// The dashboard's own ordering of live frames (FrameSource), run as it is.
import type { DaqPayload } from '../../libs/contracts/src/daq.ts';
import { createFrameSource } from '../../libs/contracts/src/live-order.ts';

const RESEARCHES = researchIds(requireEnv('RESEARCH_IDS'));
/** Viewers of each research at the top of the ramp. */
const VIEWERS = Math.floor(numberEnv('VIEWERS', 100));
const RAMP = optionalEnv('RAMP', '1m');
const HOLD = optionalEnv('HOLD', '5m');
/** How long one viewer stays connected before it reconnects (a new iteration). */
const SESSION_MS = durationSeconds(optionalEnv('SESSION', HOLD)) * 1000;
/** The dashboard's STATUS period (the live stream contract). */
const STATUS_EVERY_MS = 5000;
/**
 * Frames newer than the newest received minus this (s of test time) are not judged missing when the
 * session ends: a frame of another ingest may still have been on its way.
 */
const STILL_COMING_S = 2;

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
    furnace_frames_missing: ['count==0'],
    furnace_newest_shown: ['rate>0.99'],
    checks: ['rate>0.99'],
  },
};

/** DAQ `ts` → receipt on this machine, per DATA frame. */
const frameLatency = new Trend('furnace_frame_latency', true);
const framesReceived = new Counter('furnace_frames_received');
/** DATA frames without `ts`: counted, not timed (the DAQ contract makes `ts` optional). */
const framesWithoutTs = new Counter('furnace_frames_without_ts');
/** A frame older than one already received: the dashboard places it by its time (not a failure; counted). */
const framesLate = new Counter('furnace_frames_late');
/** A frame whose time was received already (a redelivery): the dashboard drops it (not a failure; counted). */
const framesRepeated = new Counter('furnace_frames_repeated');
/**
 * Frames missing between the first and the newest a viewer received, at the DAQ's steady rate (the
 * most common step between the times received): a gap in what the dashboard drew live.
 */
const framesMissing = new Counter('furnace_frames_missing');
/**
 * At each STATUS answer after the first frame: is the newest frame the dashboard shows the newest the
 * server forwarded (`last_time`)? The answer follows every frame sent before it on the same socket.
 */
const newestShown = new Rate('furnace_newest_shown');
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
  let statusTimer: number | undefined;
  const shown = createFrameSource();
  /** The time of every frame the dashboard took (late ones included), in order of arrival. */
  const taken: number[] = [];
  shown.subscribeAll((frame) => taken.push(frame.time));

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
    if (message.event === 'STATUS') {
      statuses += 1;
      const newest = shown.latest();
      if (newest !== null && message.lastTime !== undefined) newestShown.add(newest.time >= message.lastTime, tags);
    }
    if (message.event !== 'DATA') return;
    frames += 1;
    framesReceived.add(1, tags);
    if (message.time !== undefined) {
      const newest = shown.latest();
      if (newest !== null && message.time < newest.time) framesLate.add(1, tags);
      const before = taken.length;
      // Only `time` matters to the ordering; the rest of the frame is not read (see readMessage).
      shown.push({ time: message.time } as DaqPayload);
      if (taken.length === before) framesRepeated.add(1, tags);
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
    const missing = missingFrames(taken);
    framesMissing.add(missing, tags);
    if (missing > 0)
      console.warn(`viewer of ${research}: ${missing} frame(s) missing from the ${taken.length} received`);
    check(
      null,
      {
        'stream: STATUS answered': () => statuses > 0,
        'stream: DATA received': () => frames > 0,
      },
      tags,
    );
  };
}

/**
 * How many frames are missing from `times` (each frame's time, once): the DAQ's period taken as the most
 * common step between consecutive times (a steady rate, as the DAQ and the simulator send), each step of
 * more than 1.5 periods counted as the frames that fit in it. The newest STILL_COMING_S are not judged.
 */
function missingFrames(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const steps = sorted.slice(1).map((t, i) => t - (sorted[i] as number));
  if (steps.length < 2) return 0;
  const period = mostCommon(steps);
  if (!(period > 0)) return 0;
  const judgedUntil = (sorted[sorted.length - 1] as number) - STILL_COMING_S;
  let missing = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as number;
    if (step > 1.5 * period && (sorted[i + 1] as number) <= judgedUntil) missing += Math.round(step / period) - 1;
  }
  return missing;
}

/** The most common value of `steps`, to the millisecond (float times: 0.1 s steps differ in their last bits). */
function mostCommon(steps: readonly number[]): number {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (const step of steps) {
    const key = Math.round(step * 1000) / 1000;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > bestCount) [best, bestCount] = [key, count];
  }
  return best;
}

interface Received {
  event?: string;
  /** The frame's `time` (seconds since the test started). */
  time?: number;
  /** The frame's `ts` in epoch milliseconds. */
  ts?: number;
  /** STATUS: the time of the newest frame the server forwarded (`last_time`). */
  lastTime?: number;
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
  // STATUS is small and comes every 5 s: read in full.
  if (event === 'STATUS') return readMessageSlowly(text);
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
  const frame = (data !== null && typeof data === 'object' ? data : {}) as {
    time?: unknown;
    ts?: unknown;
    last_time?: unknown;
  };
  return {
    event: typeof event === 'string' ? event : undefined,
    time: typeof frame.time === 'number' ? frame.time : undefined,
    ts: typeof frame.ts === 'string' ? epochMs(frame.ts) : undefined,
    lastTime: typeof frame.last_time === 'number' ? frame.last_time : undefined,
  };
}

function epochMs(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}
