import { Client } from 'pg';
import request from 'supertest';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { insertResearch, login, SUPERUSER } from '@furnace/testing';
import { type Timing, timed, wireGet } from './history';
import { type LiveDaq, startLiveDaq } from './lib/live-daq';
import { insertRaw, simulatedFrames } from './lib/readings';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, table } from './lib/stats';

/** The replay's window, s (apps/dashboard/src/features/replay/replay-windows.ts). */
const WINDOW_SECONDS = 120;

/*
 * Replay seek: a finished 4-hour test at 1 Hz with 300 thermocouples; each request is what the
 * history page's replay does on a seek to a random moment — GET /research/{id}/frames for the
 * moment's window (WINDOW_SECONDS), the body parsed and the moment's frame found — against the
 * plain GET /history?points=1000 the page reads on opening, in the same run. Meanwhile a DAQ streams
 * another test at 1 Hz × 300 channels through the ingest, as a lab's running furnace would.
 */

export interface ReplayResult {
  frames: number;
  channels: number;
  seek: Timing;
  baseline: Timing;
}

export async function runReplay(
  services: BenchServices,
  options: { channels: number; hours: number; requests: number },
  log: (line: string) => void,
): Promise<ReplayResult> {
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const system = await startFurnace(services);
  let daq: LiveDaq | undefined;
  try {
    const frames = options.hours * 3600;
    const startAt = new Date(Date.now() - (frames + 60) * 1000);
    const researchId = await insertResearch(services.db.url, { startAt });
    for (let from = 0; from < frames; from += 7_200) {
      await insertRaw(
        client,
        researchId,
        startAt,
        simulatedFrames(Math.min(7_200, frames - from), options.channels, 1, from),
      );
    }
    // The rollups the /history read is answered from, computed from the stored frames (the ingest would have written them).
    for (const sql of REBUILD_ROLLUPS_SQL) await client.query(sql, [researchId]);
    await client.query('ANALYZE reading');
    await client.query('ANALYZE reading_rollup');
    log(`  ${fmt(frames)} frames of ${options.channels} thermocouples loaded`);
    // A running test of another furnace: frames written (and rolled up) while the seeks are measured.
    daq = await startLiveDaq(services, options.channels);
    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    const base = `${system.api.url}/api/v1/research/${researchId}`;

    // Moments spread over the whole test in an order that jumps about (no two windows alike in a row).
    let n = 0;
    const nextMoment = () => ((n++ * 7919.3) % (frames - 1)) + 0.5;
    const seek = await timed(
      `seek: GET /frames of a random moment's ${WINDOW_SECONDS} s window, parsed, its frame found`,
      options.requests,
      async () => {
        const moment = nextMoment();
        const from = Math.floor(moment / WINDOW_SECONDS) * WINDOW_SECONDS;
        const { body, bytes, wire } = await wireGet(`${base}/frames?from=${from}&to=${from + WINDOW_SECONDS}`, token);
        const frame = (
          JSON.parse(body.toString('utf8')) as { frames: { time: number; thermocouples_out?: unknown[] }[] }
        ).frames.findLast((f) => f.time <= moment);
        if (!frame || frame.time !== Math.floor(moment) || frame.thermocouples_out?.length !== options.channels)
          throw new Error(`no frame of ${moment}`);
        return { bytes, wire };
      },
    );
    log(`    ${seek.label}: p50 ${seek.p50.toFixed(0)} ms, p95 ${seek.p95.toFixed(0)} ms`);
    const baseline = await timed(
      'GET /history?points=1000 (the history page opening), parsed',
      options.requests,
      async () => {
        const { body, bytes, wire } = await wireGet(`${base}/history?points=1000`, token);
        JSON.parse(body.toString('utf8'));
        return { bytes, wire };
      },
    );
    log(`    ${baseline.label}: p50 ${baseline.p50.toFixed(0)} ms, p95 ${baseline.p95.toFixed(0)} ms`);
    return { frames, channels: options.channels, seek, baseline };
  } finally {
    await daq?.stop();
    await system.stop();
    await client.end();
  }
}

const ratio = (a: number, b: number) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toPrecision(2)}×` : '–';

export function replayReport(result: ReplayResult): string {
  const met = result.seek.p95 <= 300 ? 'met' : 'NOT met';
  return [
    `Replay seek: ${fmt(result.frames)} frames (${result.frames / 3600} h at 1 Hz) × ${result.channels} thermocouples, sequential requests, a DAQ streaming another test at 1 Hz meanwhile. Goal: a seek's values within 300 ms (p95): ${met}`,
    table(
      ['read', 'p50 ms', 'p95 ms', 'p50 ÷ /history', 'p95 ÷ /history', 'JSON kB', 'gzipped kB'],
      [result.seek, result.baseline].map((t) => [
        t.label,
        fmt(t.p50),
        fmt(t.p95),
        ratio(t.p50, result.baseline.p50),
        ratio(t.p95, result.baseline.p95),
        fmt(t.bytes / 1000),
        fmt(t.wire / 1000),
      ]),
    ),
  ].join('\n\n');
}
