import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Client } from 'pg';
import request from 'supertest';
import { MEASUREMENT_TYPES } from '@furnace/contracts';
import { createDataSource, REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { insertMarkers, insertResearch, login, SUPERUSER } from '@furnace/testing';
import { type LiveDaq, startLiveDaq } from './lib/live-daq';
import { insertRaw, simulatedFrames } from './lib/readings';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, percentile, sortedCopy, table } from './lib/stats';

/*
 * History: finished tests at 1 Hz with 300 thermocouples — 4 hours (14 400 frames) and 24 hours
 * (86 400) — read as the dashboard's history chart reads them (GET /history?points=1000: the
 * scalar series and the measurement types' max and mean, from the rollups) against fetching the
 * raw rows with SQL in the same run. Also: the same with 10 thermocouples ticked, the frames path
 * (what every request did before the rollups: every frame read, every thermocouple series one request may ask), and
 * the API's CSV export. Sizes are the JSON and the bytes on the wire with Accept-Encoding: gzip. As a lab runs it,
 * a DAQ streams another, running test (1 frame/s, the same thermocouples, MQTT QoS 1) into the same system from
 * before the first test is loaded until after the last request.
 */

export interface Timing {
  label: string;
  p50: number;
  p95: number;
  /** Body bytes, uncompressed. */
  bytes: number;
  /** Bytes on the wire with Accept-Encoding: gzip (the body as sent). */
  wire: number;
}

interface HistoryCase {
  hours: number;
  frames: number;
  channels: number;
  points: number;
  /** Seconds to load the frames, and to compute their rollups. */
  loadSeconds: number;
  rollupSeconds: number;
  history: Timing;
  others: Timing[];
  /** raw rows, SQL */
  baseline: Timing;
}

export interface HistoryResult {
  cases: HistoryCase[];
  /** Frames the live test's DAQ published meanwhile. */
  streamed: number;
}

/**
 * `requests` sequential runs after 2 of warm-up; `apartMs` between them (past the API's shared answers:
 * an identical request within 2 s gets the answer made for the one before, docs/architecture.md).
 */
export async function timed(
  label: string,
  requests: number,
  run: () => Promise<{ bytes: number; wire: number }>,
  apartMs = 0,
): Promise<Timing> {
  let size = { bytes: 0, wire: 0 };
  const once = async () => {
    const { bytes, wire } = await run();
    size = { bytes, wire };
  };
  for (let i = 0; i < 2; i++) await once(); // warm-up: caches, JIT
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    if (apartMs > 0) await new Promise((resolve) => setTimeout(resolve, apartMs));
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  const sorted = sortedCopy(times);
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95), ...size };
}

/** Past the history's shared answers (SHARED_MS in libs/api-server/src/history/history.service.ts). */
const PAST_SHARED_MS = 2_100;

/** A GET as a browser sends it (gzip accepted); the body is counted as it comes over the wire, then decompressed. */
export function wireGet(url: string, token: string): Promise<{ bytes: number; wire: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'gzip' } }, (res) => {
      let wire = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        wire += c.length;
        chunks.push(c);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode !== 200)
          return reject(new Error(`GET ${url}: ${res.statusCode} ${body.toString().slice(0, 200)}`));
        const plain = res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
        resolve({ bytes: plain.length, wire, body: plain });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function runHistory(
  services: BenchServices,
  options: { channels: number; hours: number[]; points: number; requests: number },
  log: (line: string) => void,
): Promise<HistoryResult> {
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  const system = await startFurnace(services);
  const cases: HistoryCase[] = [];
  let daq: LiveDaq | undefined;
  try {
    daq = await startLiveDaq(services, options.channels);
    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    for (const hours of options.hours) {
      const frames = hours * 3600;
      const requests = hours > 4 ? Math.max(3, Math.round(options.requests / 2)) : options.requests;
      const startAt = new Date(Date.now() - (frames + 60) * 1000);
      const researchId = await insertResearch(services.db.url, { startAt });
      // The specimen's thermocouples in three measurement types, so the category series are computed too.
      const [avgMax, discrete, max] = [
        MEASUREMENT_TYPES[0]!.name,
        MEASUREMENT_TYPES[1]!.name,
        MEASUREMENT_TYPES[2]!.name,
      ];
      const markers: Record<number, string> = {};
      for (let id = 1; id <= options.channels; id++)
        markers[id] = id <= options.channels / 2 ? avgMax : id <= (options.channels * 5) / 6 ? max : discrete;
      await insertMarkers(dataSource, researchId, markers);
      const t0 = performance.now();
      // In slices: 86 400 frames of 300 values generated at once would hold ~1 GB.
      for (let from = 0; from < frames; from += 7_200) {
        await insertRaw(
          client,
          researchId,
          startAt,
          simulatedFrames(Math.min(7_200, frames - from), options.channels, 1, from),
        );
      }
      const loadSeconds = (performance.now() - t0) / 1000;
      // Written in bulk, not through the ingest: the rollups are computed from the stored frames (the migration's backfill).
      const t1 = performance.now();
      for (const sql of REBUILD_ROLLUPS_SQL) await client.query(sql, [researchId]);
      const rollupSeconds = (performance.now() - t1) / 1000;
      await client.query('ANALYZE reading');
      await client.query('ANALYZE reading_rollup');
      await client.query('ANALYZE reading_rollup_category');
      log(
        `  ${hours} h: ${fmt(frames)} frames of ${options.channels} thermocouples loaded in ${loadSeconds.toFixed(1)} s, rollups computed in ${rollupSeconds.toFixed(1)} s`,
      );

      const url = (query: string) => `${system.api.url}/api/v1/research/${researchId}/history${query}`;
      const ticked = Array.from({ length: 10 }, (_, i) => 1 + i * Math.floor(options.channels / 10)).join(',');
      // Each request made anew, not the answer shared with the one before.
      const history = await timed(
        `GET /history?points=${options.points} (the chart's default: pk, radiance, pressure, each type's max and mean)`,
        requests,
        () => wireGet(url(`?points=${options.points}`), token),
        PAST_SHARED_MS,
      );
      log(
        `    ${history.label}: p50 ${history.p50.toFixed(0)} ms, p95 ${history.p95.toFixed(0)} ms, ${kB(history.wire)} kB gzipped`,
      );
      const others: Timing[] = [
        await timed(
          `the same with 10 thermocouples ticked (&thermo_ids=…)`,
          requests,
          () => wireGet(url(`?points=${options.points}&thermo_ids=${ticked}`), token),
          PAST_SHARED_MS,
        ),
      ];
      if (hours <= 4) {
        // More points than the 10-second rollups have buckets: the frames path, with as many thermocouples'
        // series as one request may ask (points × thermo_ids ≤ 300 000, the API's cap: 422 above).
        const points = Math.ceil(frames / 10) + 60;
        const most = Math.min(options.channels, Math.floor(300_000 / points));
        const many = Array.from({ length: most }, (_, i) => i + 1).join(',');
        others.push(
          await timed(
            `frames path, as before the rollups (points=${points}, ${most} of ${options.channels} thermocouples)`,
            requests,
            () => wireGet(url(`?points=${points}&thermo_ids=${many}`), token),
          ),
        );
        others.push(
          await timed('the frames through the API as CSV (GET /history.csv)', Math.min(requests, 5), () =>
            wireGet(url('.csv'), token),
          ),
        );
      }
      for (const t of others)
        log(`    ${t.label}: p50 ${t.p50.toFixed(0)} ms, p95 ${t.p95.toFixed(0)} ms, ${kB(t.wire)} kB gzipped`);
      const baseline = await timed(
        'raw rows, SQL (SELECT … ORDER BY time, parsed by pg)',
        Math.min(requests, hours > 4 ? 3 : requests),
        async () => {
          const result = await client.query(
            'SELECT "time", ts, daq_ts, radiance, pressure, pk, thermocouples FROM reading WHERE research_id = $1 ORDER BY "time"',
            [researchId],
          );
          if (result.rowCount !== frames) throw new Error(`expected ${frames} rows, got ${result.rowCount}`);
          let bytes = 0;
          for (const row of result.rows) bytes += Buffer.byteLength(JSON.stringify(row));
          return { bytes, wire: Number.NaN };
        },
      );
      log(`    ${baseline.label}: p50 ${baseline.p50.toFixed(0)} ms, p95 ${baseline.p95.toFixed(0)} ms`);
      cases.push({
        hours,
        frames,
        channels: options.channels,
        points: options.points,
        loadSeconds,
        rollupSeconds,
        history,
        others,
        baseline,
      });
    }
    return { cases, streamed: await daq.stop() };
  } finally {
    await daq?.stop();
    await system.stop();
    await dataSource.destroy();
    await client.end();
  }
}

const kB = (bytes: number) => fmt(bytes / 1000);
/** a ÷ b with two significant digits (the history is a few hundredths of the raw read). */
const ratio = (a: number, b: number) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toPrecision(2)}×` : '–';

/** History goals: p95 ≤ 150 ms and ≤ 600 kB gzipped for 4 h; p95 ≤ 50 ms for 24 h (issue 18). */
function goal(c: HistoryCase): string {
  const ms = c.hours > 4 ? 50 : 150;
  const timeMet = c.history.p95 <= ms;
  if (c.hours > 4) return `p95 ≤ ${ms} ms: ${timeMet ? 'met' : 'NOT met'}`;
  const sizeMet = c.history.wire <= 600_000;
  return `p95 ≤ ${ms} ms: ${timeMet ? 'met' : 'NOT met'}; ≤ 600 kB: ${sizeMet ? 'met' : 'NOT met'}`;
}

export function historyReport(result: HistoryResult): string {
  return result.cases
    .map((c) =>
      [
        `History: ${fmt(c.frames)} frames (${c.hours} h at 1 Hz) × ${c.channels} thermocouples, ${fmt(c.points)} points asked (sequential requests; ` +
          `frames loaded in ${c.loadSeconds.toFixed(1)} s, their rollups computed in ${c.rollupSeconds.toFixed(1)} s; a DAQ streaming a live test at ` +
          `1 frame/s throughout, ${fmt(result.streamed)} frames). Goal: ${goal(c)}`,
        table(
          ['read', 'p50 ms', 'p95 ms', 'p50 ÷ raw SQL', 'p95 ÷ raw SQL', 'JSON kB', 'gzipped kB'],
          [c.history, ...c.others, c.baseline].map((t) => [
            t.label,
            fmt(t.p50),
            fmt(t.p95),
            ratio(t.p50, c.baseline.p50),
            ratio(t.p95, c.baseline.p95),
            kB(t.bytes),
            Number.isFinite(t.wire) ? kB(t.wire) : '–',
          ]),
        ),
      ].join('\n\n'),
    )
    .join('\n\n');
}
