import { get as httpGet } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { MEASUREMENT_TYPES } from '@furnace/contracts';
import { createDataSource } from '@furnace/db';
import { insertMarkers, insertResearch, login, SUPERUSER } from '@furnace/testing';
import { type LiveDaq, startLiveDaq } from './lib/live-daq';
import { rssBytes, UsageMonitor } from './lib/process-stats';
import { copyRaw, simulatedFrames } from './lib/readings';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, mb, sleep, table } from './lib/stats';

/*
 * Exports: a finished 24-hour test at 1 Hz with 300 thermocouples (86 400 frames) downloaded as the
 * lab's CSV, as the CSV with its metadata block and as the XLSX workbook, while a DAQ streams a live
 * test (1 frame/s, 300 thermocouples) into the same system. For each, in a fresh serving process: its
 * peak RSS (sampled every 200 ms) against its RSS idle before the request, and the time against GET
 * /criteria, the same full pass through the frames and the criteria engine with nothing written
 * (the baseline), in the same run. Goal: the process stays under 200 MB RSS.
 */

interface ExportCase {
  label: string;
  seconds: number;
  bytes: number;
  /** The fresh serving process's RSS before the request. */
  idleRssBytes: number;
  peakRssBytes: number;
  cpuSeconds: number;
}

export interface ExportsResult {
  frames: number;
  channels: number;
  loadSeconds: number;
  streamed: number;
  cases: ExportCase[];
}

const RSS_GOAL_BYTES = 200 * 1024 * 1024;

/** Reads a GET to its end without keeping it (the download as a browser saves it); its size. */
function drain(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url}: ${res.statusCode}`)),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function runExports(
  services: BenchServices,
  options: { channels: number; hours: number },
  log: (line: string) => void,
): Promise<ExportsResult> {
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  let daq: LiveDaq | undefined;
  try {
    const frames = options.hours * 3600;
    const startAt = new Date(Date.now() - (frames + 120) * 1000);
    const researchId = await insertResearch(services.db.url, { startAt });
    const types = [MEASUREMENT_TYPES[0]!.name, MEASUREMENT_TYPES[2]!.name, MEASUREMENT_TYPES[1]!.name];
    const markers: Record<number, string> = {};
    for (let id = 1; id <= options.channels; id++)
      markers[id] = types[id <= options.channels / 2 ? 0 : id <= (options.channels * 5) / 6 ? 1 : 2]!;
    await insertMarkers(dataSource, researchId, markers);
    await client.query(
      `INSERT INTO thermo_exclusion (id, research_id, thermo_id, from_time, reason) VALUES (gen_random_uuid(), $1, 7, 3600, 'odpadła')`,
      [researchId],
    );
    await client.query(
      `INSERT INTO observation (id, research_id, "time", kind, note, visible_to_clients) VALUES (gen_random_uuid(), $1, 5400, 'note', 'dym', true)`,
      [researchId],
    );
    const t0 = performance.now();
    // Frames from a minute before ignition (T0) on, in slices: 86 400 frames of 300 values at once would hold ~1 GB.
    for (let from = -60; from < frames; from += 7_200)
      await copyRaw(
        client,
        researchId,
        startAt,
        simulatedFrames(Math.min(7_200, frames - from), options.channels, 1, from),
      );
    const loadSeconds = (performance.now() - t0) / 1000;
    await client.query('ANALYZE reading');
    log(`  ${fmt(frames)} frames of ${options.channels} thermocouples loaded in ${loadSeconds.toFixed(1)} s`);

    // The DAQ of a live test keeps streaming while the exports run.
    daq = await startLiveDaq(services, options.channels);
    const cases: ExportCase[] = [];
    // Each request in a fresh serving process: its peak RSS is what that one export needs (a process's
    // heap, once grown, is not given back, so one request would inherit the previous one's peak).
    const measure = async (label: string, path: string) => {
      const system = await startFurnace(services);
      try {
        const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
        await sleep(3000);
        const idleRssBytes = rssBytes(system.api.pid);
        const monitor = new UsageMonitor(system.api.pid);
        monitor.start();
        const start = performance.now();
        const bytes = await drain(`${system.api.url}/api/v1/research/${researchId}/${path}`, token);
        const seconds = (performance.now() - start) / 1000;
        const usage = monitor.stop();
        cases.push({
          label,
          seconds,
          bytes,
          idleRssBytes,
          peakRssBytes: usage.peakRssBytes,
          cpuSeconds: usage.cpuSeconds,
        });
        log(
          `    ${label}: ${seconds.toFixed(1)} s, ${mb(bytes)} MB, RSS idle ${mb(idleRssBytes)} MB, peak ${mb(usage.peakRssBytes)} MB`,
        );
      } finally {
        await system.stop();
      }
    };
    await measure('GET /criteria (baseline: the same pass, nothing written)', 'criteria');
    await measure('GET /history.csv', 'history.csv');
    await measure('GET /history.csv?meta=1&decimal=point', 'history.csv?meta=1&decimal=point');
    await measure('GET /history.xlsx', 'history.xlsx');
    return { frames, channels: options.channels, loadSeconds, streamed: await daq.stop(), cases };
  } finally {
    await daq?.stop();
    await dataSource.destroy();
    await client.end();
  }
}

export function exportsReport(result: ExportsResult): string {
  const baseline = result.cases[0]!;
  const peak = Math.max(...result.cases.map((c) => c.peakRssBytes));
  return [
    `Exports: ${fmt(result.frames)} frames × ${result.channels} thermocouples (a 24-hour test at 1 Hz), one request at a time, ` +
      `a DAQ streaming a live test at 1 frame/s meanwhile (${fmt(result.streamed)} frames), each in a fresh serving process. ` +
      `Goal: under 200 MB RSS: ${peak < RSS_GOAL_BYTES ? 'met' : 'NOT met'} (peak ${mb(peak)} MB).`,
    table(
      ['request', 's', 's ÷ baseline', 'CPU s', 'MB sent', 'idle RSS MB', 'peak RSS MB', 'peak ÷ idle'],
      result.cases.map((c) => [
        c.label,
        c.seconds.toFixed(1),
        `${(c.seconds / baseline.seconds).toFixed(2)}×`,
        c.cpuSeconds.toFixed(1),
        mb(c.bytes),
        mb(c.idleRssBytes),
        mb(c.peakRssBytes),
        `${(c.peakRssBytes / c.idleRssBytes).toFixed(2)}×`,
      ]),
    ),
  ].join('\n\n');
}
