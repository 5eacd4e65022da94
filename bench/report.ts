import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { login, ROOT, SUPERUSER } from '@furnace/testing';
import { storeFinishedTest } from './lib/finished-test';
import { startLiveDaq } from './lib/live-daq';
import type { BenchServices } from './lib/services';
import { fmt, percentile, ratio, sortedCopy, table } from './lib/stats';

/*
 * The PDF report of a finished 4-hour test at 1 Hz with 300 thermocouples (14 400 frames, a photo with
 * 300 markers): GET /research/{id}/report.pdf against what it is made of, read through the API in the
 * same run — the criteria (the engine over every stored frame), the history the charts draw
 * (GET /history?points=1000) — and the CSV export (one pass over every frame). Meanwhile a DAQ streams
 * a live test into the same system (1 frame/s, the same thermocouples), from before the warm-up
 * request until after the last one.
 */

interface ReportTiming {
  label: string;
  p50: number;
  p95: number;
  bytes: number;
}

export interface ReportResult {
  frames: number;
  channels: number;
  pages: number;
  /** Frames the live test's DAQ published while the reads were measured. */
  streamed: number;
  report: ReportTiming;
  baselines: ReportTiming[];
}

async function timed(label: string, requests: number, run: () => Promise<number>): Promise<ReportTiming> {
  let bytes = await run(); // warm-up: caches, JIT
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    bytes = await run();
    times.push(performance.now() - start);
  }
  const sorted = sortedCopy(times);
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95), bytes };
}

export async function runReport(
  services: BenchServices,
  options: { channels: number; hours: number; requests: number },
  log: (line: string) => void,
): Promise<ReportResult> {
  const frames = options.hours * 3600;
  const test = await storeFinishedTest(services, { seconds: frames, channels: options.channels });
  const { researchId, system } = test;
  const daq = await startLiveDaq(services, options.channels);
  try {
    // The specimen photo the tests upload (640×480 PNG): the report draws it with the markers.
    await test.client.query('UPDATE thermo_config SET image_data = $1 WHERE research_id = $2', [
      readFileSync(join(ROOT, 'libs/api-server/test/fixtures/specimen.png')),
      researchId,
    ]);
    log(`  ${fmt(frames + 60)} frames × ${options.channels} thermocouples loaded in ${fmt(test.loadSeconds)} s`);

    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    let pages = 0;
    const get = async (path: string) => {
      const res = await fetch(`${system.api.url}/api/v1/research/${researchId}${path}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.toString('utf8', 0, 200)}`);
      if (path.startsWith('/report.pdf')) pages = (body.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
      return body.length;
    };
    const report = await timed('GET /report.pdf', options.requests, () => get('/report.pdf'));
    log(`  report: p50 ${fmt(report.p50)} ms, ${pages} pages, ${fmt(report.bytes / 1024)} KiB`);
    const baselines = [
      await timed('GET /criteria (engine over every frame)', options.requests, () => get('/criteria')),
      await timed('GET /history?points=1000 (the charts’ series)', options.requests, () => get('/history?points=1000')),
      await timed('GET /history.csv (every frame)', options.requests, () => get('/history.csv')),
    ];
    return { frames: frames + 60, channels: options.channels, pages, streamed: await daq.stop(), report, baselines };
  } finally {
    await daq.stop();
    await test.close();
  }
}

export function reportReport(result: ReportResult): string {
  const criteria = result.baselines[0]!;
  const rows = [result.report, ...result.baselines].map((t) => [
    t.label,
    fmt(t.p50),
    fmt(t.p95),
    fmt(t.bytes / 1024),
    ratio(t.p50, criteria.p50),
  ]);
  return [
    `PDF report: ${fmt(result.frames)} frames (4 h at 1 Hz) × ${result.channels} thermocouples, ${result.pages} pages; ` +
      `a DAQ streaming a live test at 1 frame/s meanwhile (${fmt(result.streamed)} frames)`,
    '',
    table(['read', 'p50 ms', 'p95 ms', 'KiB', 'p50 ÷ criteria'], rows),
  ].join('\n');
}
