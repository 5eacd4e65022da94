import { Client } from 'pg';
import request from 'supertest';
import { MEASUREMENT_TYPES } from '@furnace/contracts';
import { createDataSource } from '@furnace/db';
import { insertResearch, login, SUPERUSER } from '@furnace/testing';
import { insertMarkers } from '../apps/api/test/live-support';
import { insertRaw, simulatedFrames } from './lib/readings';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, percentile, ratio, sortedCopy, table } from './lib/stats';

/*
 * History: a finished 4-hour test at 1 Hz with 300 thermocouples (14 400 frames), read as the
 * dashboard's history chart reads it (GET /history?points=1000: every series downsampled to 1000
 * points with min, max and mean) against fetching the raw rows (SQL, and the API's CSV export).
 */

export interface Timing {
  label: string;
  p50: number;
  p95: number;
  bytes: number;
}

export interface HistoryResult {
  frames: number;
  channels: number;
  points: number;
  history: Timing;
  baselines: Timing[];
}

async function timed(label: string, requests: number, run: () => Promise<number>): Promise<Timing> {
  let bytes = 0;
  for (let i = 0; i < 2; i++) bytes = await run(); // warm-up: caches, JIT
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    bytes = await run();
    times.push(performance.now() - start);
  }
  const sorted = sortedCopy(times);
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95), bytes };
}

export async function runHistory(
  services: BenchServices,
  options: { channels: number; frames: number; points: number; requests: number },
  log: (line: string) => void,
): Promise<HistoryResult> {
  const startAt = new Date(Date.now() - (options.frames + 60) * 1000);
  const researchId = await insertResearch(services.db.url, { startAt });
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  const system = await startFurnace(services);
  try {
    const t0 = performance.now();
    await insertRaw(client, researchId, startAt, simulatedFrames(options.frames, options.channels));
    // The specimen's thermocouples in three measurement types, so the category series are computed too.
    const [avgMax, discrete, max] = [MEASUREMENT_TYPES[0]!.name, MEASUREMENT_TYPES[1]!.name, MEASUREMENT_TYPES[2]!.name];
    const markers: Record<number, string> = {};
    for (let id = 1; id <= options.channels; id++) markers[id] = id <= options.channels / 2 ? avgMax : id <= (options.channels * 5) / 6 ? max : discrete;
    await insertMarkers(dataSource, researchId, markers);
    await client.query('ANALYZE reading');
    log(`  ${options.frames} frames of ${options.channels} thermocouples loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    const get = async (path: string) => {
      const res = await fetch(`${system.api.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${Buffer.from(body).toString().slice(0, 200)}`);
      return body.byteLength;
    };
    const history = await timed(`GET /history?points=${options.points}`, options.requests, () => get(`/api/v1/research/${researchId}/history?points=${options.points}`));
    log(`  ${history.label}: p50 ${history.p50.toFixed(0)} ms, p95 ${history.p95.toFixed(0)} ms, ${(history.bytes / 2 ** 20).toFixed(1)} MB`);
    const baselines = [
      await timed('raw rows, SQL (SELECT … ORDER BY time, parsed by pg)', options.requests, async () => {
        const result = await client.query('SELECT "time", ts, daq_ts, radiance, pressure, pk, thermocouples FROM reading WHERE research_id = $1 ORDER BY "time"', [researchId]);
        if (result.rowCount !== options.frames) throw new Error(`expected ${options.frames} rows, got ${result.rowCount}`);
        return Buffer.byteLength(JSON.stringify(result.rows));
      }),
      await timed('raw rows through the API (GET /history.csv)', options.requests, () => get(`/api/v1/research/${researchId}/history.csv`)),
    ];
    for (const b of baselines) log(`  ${b.label}: p50 ${b.p50.toFixed(0)} ms, p95 ${b.p95.toFixed(0)} ms, ${(b.bytes / 2 ** 20).toFixed(1)} MB`);
    return { frames: options.frames, channels: options.channels, points: options.points, history, baselines };
  } finally {
    await system.stop();
    await dataSource.destroy();
    await client.end();
  }
}

export function historyReport(result: HistoryResult): string {
  const raw = result.baselines[0]!;
  return [
    `History: ${fmt(result.frames)} frames (4 h at 1 Hz) × ${result.channels} thermocouples, downsampled to ${fmt(result.points)} points a series (sequential requests):`,
    table(
      ['read', 'p50 ms', 'p95 ms', 'p50 ÷ raw SQL', 'p95 ÷ raw SQL', 'size MB'],
      [result.history, ...result.baselines].map((t) => [t.label, fmt(t.p50), fmt(t.p95), ratio(t.p50, raw.p50), ratio(t.p95, raw.p95), fmt(t.bytes / 2 ** 20, 1)]),
    ),
  ].join('\n\n');
}
