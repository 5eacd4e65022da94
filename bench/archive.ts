import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { comparable, login, SUPERUSER } from '@furnace/testing';
import { entryBytes, zipEntries } from '@furnace/api-server/testing';
import { storeFinishedTest } from './lib/finished-test';
import { type LiveDaq, startLiveDaq } from './lib/live-daq';
import { rssBytes, UsageMonitor } from './lib/process-stats';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, mb, sleep, table } from './lib/stats';
import { type Hold, watchLive } from './lib/watcher';

/*
 * The archive of a long test (`npm run bench -- --only=archive`): a finished 24-hour test at 1 Hz with 300
 * thermocouples, ended, reviewed and approved through the HTTP API as a lab does it (a test_stopped
 * observation, the review by one member of staff and the approval by another: the approval stores the four
 * PDFs the archive carries and hashes the raw data), its raw data verified (GET /research/{id}/verify, which
 * hashes it again), then exported (GET /research/{id}/archive.zip, staff) and the zip imported back as a new,
 * archived test (POST /research/import, a superuser). Meanwhile a DAQ streams another, running test (1 frame/s,
 * 300 thermocouples, MQTT QoS 1) from before the approval until after the import, and a member of staff watches it
 * live (the watcher: each frame's latency from publish to its DATA). The approval, verify, the export and the
 * import each run in a fresh API process: its peak RSS (sampled every 200 ms) against its RSS idle before the request,
 * its CPU, and the watcher's frames during a quiet 10 s in that process and during the request. The round trip
 * holds when the imported test's GET /criteria is the original's but for ids and times of computation. Where a
 * frame was held is told apart by each phase's longest event-loop delay of the API process (prom-client's
 * nodejs_eventloop_lag_max_seconds, 10 ms resolution, reset by each scrape of /metrics) and the frames the ingest
 * published more than 100 ms after receiving them (its batch committed first: a busy database holds them there).
 */

interface Operation {
  label: string;
  seconds: number;
  cpuSeconds: number;
  /** The response's bytes (the approval's, verify's and the export's zip), or the zip the import uploads. */
  bytes: number;
  idleRssBytes: number;
  peakRssBytes: number;
}

/** Where a phase's frames waited: in the API's event loop, or before the ingest published them. */
interface PhaseProbe {
  label: string;
  /** The API process's longest event-loop delay during the phase, ms. */
  eventLoopMaxMs: number;
  /** Frames the ingest published more than 100 ms after it received them, of `ingested`. */
  ingestOver100ms: number;
  ingested: number;
}

export interface ArchiveResult {
  layout: string;
  frames: number;
  channels: number;
  loadSeconds: number;
  /** Frames the live test's DAQ published from before the approval until after the import. */
  streamed: number;
  files: number;
  readingsCsvBytes: number;
  /** The approval by another member of staff than the reviewer: the raw data's hash and four PDFs stored. */
  approval: Operation;
  /** GET …/verify: the raw data hashed again. */
  verify: Operation;
  export: Operation;
  import: Operation;
  readingsImported: number;
  /** null: the imported test's criteria are the original's; else the first difference. */
  criteriaDifference: string | null;
  holds: Hold[];
  probes: PhaseProbe[];
}

/** What /metrics says now: the event loop's longest delay since the last scrape (and resets it), the ingest's publish delays so far. */
async function scrape(
  apiUrl: string,
  ingestUrl: string,
): Promise<{ eventLoopMaxMs: number; over100ms: number; ingested: number }> {
  const text = async (url: string) => {
    const res = await send(url, 'GET', {});
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    return res.body.toString();
  };
  const [api, ingest] = await Promise.all([
    text(`${apiUrl}/api/v1/metrics`),
    ingestUrl === apiUrl ? Promise.resolve('') : text(`${ingestUrl}/metrics`),
  ]);
  const value = (metrics: string, name: string) =>
    Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
  const ingestMetrics = ingest || api;
  const ingested = value(ingestMetrics, 'furnace_ingest_publish_delay_seconds_count');
  return {
    eventLoopMaxMs: value(api, 'nodejs_eventloop_lag_max_seconds') * 1000,
    over100ms: ingested - value(ingestMetrics, 'furnace_ingest_publish_delay_seconds_bucket\\{le="0.1"\\}'),
    ingested,
  };
}

/** The first path where `a` and `b` differ, or null. */
function difference(a: unknown, b: unknown, path = ''): string | null {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${path || '.'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
}

/**
 * One HTTP request read to its end, with no client-side timeout (an import of a long test answers once the
 * whole test is written); its status and body.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer[],
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const part of body ?? []) req.write(part);
    req.end();
  });
}

export async function runArchive(
  services: BenchServices,
  options: { channels: number; hours: number },
  log: (line: string) => void,
): Promise<ArchiveResult> {
  const seconds = options.hours * 3600;
  const test = await storeFinishedTest(services, { seconds, channels: options.channels });
  const { researchId } = test;
  let daq: LiveDaq | undefined;
  try {
    log(`  ${fmt(seconds + 60)} frames × ${options.channels} thermocouples stored in ${fmt(test.loadSeconds)} s`);
    daq = await startLiveDaq(services, options.channels);
    const live = daq;

    // Ended, reviewed and approved as a lab does it, through the API that stored it.
    const api = test.system.api.url;
    const call = async (token: string, method: string, path: string, body?: object) => {
      const res = await send(
        `${api}/api/v1${path}`,
        method,
        { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body ? [Buffer.from(JSON.stringify(body))] : [],
      );
      if (res.status !== 200 && res.status !== 201)
        throw new Error(`${method} ${path}: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
      return JSON.parse(res.body.toString() || 'null') as Record<string, unknown>;
    };
    const admin = await login({ http: request(api) }, SUPERUSER.email, SUPERUSER.password);
    const approver = {
      email: `approver-${Date.now().toString(36)}@example.com`,
      password: 'approver-password-ok',
      full_name: 'Kierownik laboratorium',
    };
    const signedUp = await send(`${api}/api/v1/users/signup`, 'POST', { 'Content-Type': 'application/json' }, [
      Buffer.from(JSON.stringify(approver)),
    ]);
    if (signedUp.status !== 200 && signedUp.status !== 201)
      throw new Error(`signup: ${signedUp.status} ${signedUp.body.toString()}`);
    const user = JSON.parse(signedUp.body.toString()) as { id: string; is_active: boolean };
    if (!user.is_active) await call(admin, 'PATCH', `/users/${user.id}`, { is_active: true });
    const staff = await login({ http: request(api) }, approver.email, approver.password);
    await call(admin, 'POST', `/research/${researchId}/observations`, {
      time: seconds,
      kind: 'test_stopped',
      note: 'Koniec badania',
    });
    await call(admin, 'POST', `/research/${researchId}/review`, { comment: 'Sprawdzone' });
    await test.system.stop();

    const holds: Hold[] = [];
    const probes: PhaseProbe[] = [];
    // Each request in a fresh API process (a heap once grown is not given back), watched from a quiet start.
    const measure = async <T>(
      name: string,
      label: string,
      work: (url: string) => Promise<T & { bytes: number }>,
      after: (url: string, token: string, result: T) => Promise<void>,
    ) => {
      const system = await startFurnace(services);
      try {
        const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
        const watcher = await watchLive(system.api, live.researchId, token, live.published);
        const ingestUrl = (system.ingest ?? system.api).url;
        try {
          await sleep(3_000);
          const quietLabel = `quiet, before the ${name}`;
          const probed = async <R>(phase: string, run: () => Promise<R>): Promise<R> => {
            const before = await scrape(system.api.url, ingestUrl);
            const out = await run();
            const after = await scrape(system.api.url, ingestUrl);
            probes.push({
              label: phase,
              eventLoopMaxMs: after.eventLoopMaxMs,
              ingestOver100ms: after.over100ms - before.over100ms,
              ingested: after.ingested - before.ingested,
            });
            return out;
          };
          await probed(quietLabel, () => watcher.phase('quiet', () => sleep(10_000)));
          const idleRssBytes = rssBytes(system.api.pid);
          const monitor = new UsageMonitor(system.api.pid);
          monitor.start();
          const start = performance.now();
          const result = await probed(label, () => watcher.phase(label, () => work(system.api.url)));
          const seconds = (performance.now() - start) / 1000;
          const usage = monitor.stop();
          // The frames published during the request reach the watcher.
          await sleep(3_000);
          for (const h of watcher.holds().holds)
            holds.push({ ...h, label: h.label === 'quiet' ? quietLabel : h.label });
          await after(system.api.url, token, result);
          const op: Operation = {
            label,
            seconds,
            cpuSeconds: usage.cpuSeconds,
            bytes: result.bytes,
            idleRssBytes,
            peakRssBytes: usage.peakRssBytes,
          };
          log(
            `    ${label}: ${seconds.toFixed(1)} s, ${mb(result.bytes)} MB, RSS idle ${mb(idleRssBytes)} MB, peak ${mb(usage.peakRssBytes)} MB`,
          );
          return { op, result };
        } finally {
          await watcher.close();
        }
      } finally {
        await system.stop();
      }
    };

    // The approval hashes the raw data and makes the four PDFs; verify hashes it again. Both are watched as the archive is.
    let original: unknown;
    const approved = await measure(
      'approval',
      'approval: POST /research/{id}/approve',
      async (url) => {
        const res = await send(
          `${url}/api/v1/research/${researchId}/approve`,
          'POST',
          { Authorization: `Bearer ${staff}`, 'Content-Type': 'application/json' },
          [Buffer.from(JSON.stringify({ comment: 'Zatwierdzam' }))],
        );
        if (res.status !== 201 && res.status !== 200)
          throw new Error(`POST approve: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        return { bytes: res.body.length };
      },
      async (url, token) => {
        const res = await send(`${url}/api/v1/research/${researchId}/criteria`, 'GET', {
          Authorization: `Bearer ${token}`,
        });
        if (res.status !== 200) throw new Error(`GET criteria: ${res.status}`);
        original = comparable(JSON.parse(res.body.toString()));
      },
    );
    log(`  approved (revision 1, four PDFs) in ${approved.op.seconds.toFixed(1)} s`);
    const verified = await measure(
      'verify',
      'verify: GET /research/{id}/verify',
      async (url) => {
        const res = await send(`${url}/api/v1/research/${researchId}/verify`, 'GET', {
          Authorization: `Bearer ${staff}`,
        });
        if (res.status !== 200) throw new Error(`GET verify: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        const body = JSON.parse(res.body.toString()) as { revisions: { revision: number; matches: boolean }[] };
        return { matches: body.revisions.every((r) => r.matches), bytes: res.body.length };
      },
      async () => undefined,
    );
    if (!verified.result.matches)
      throw new Error('verify: a revision does not match the raw data it was approved with');

    const exported = await measure(
      'export',
      'export: GET /research/{id}/archive.zip',
      async (url) => {
        const res = await send(`${url}/api/v1/research/${researchId}/archive.zip`, 'GET', {
          Authorization: `Bearer ${staff}`,
        });
        if (res.status !== 200) throw new Error(`GET archive.zip: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        return { zip: res.body, bytes: res.body.length };
      },
      async () => undefined,
    );
    const zip = exported.result.zip;
    const entries = zipEntries(zip);
    const manifest = JSON.parse(entryBytes(zip, entries.get('manifest.json')!).toString()) as {
      readings: number;
      files: { name: string; size: number }[];
    };
    const readingsCsvBytes = manifest.files.find((f) => f.name === 'readings.csv')!.size;

    let criteriaDifference: string | null = 'not compared';
    const imported = await measure(
      'import',
      'import: POST /research/import',
      async (url) => {
        const boundary = `----archive${Date.now().toString(16)}`;
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="archiwum.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        );
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const admin = await login({ http: request(url) }, SUPERUSER.email, SUPERUSER.password);
        const res = await send(
          `${url}/api/v1/research/import`,
          'POST',
          {
            Authorization: `Bearer ${admin}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(head.length + zip.length + tail.length),
          },
          [head, zip, tail],
        );
        if (res.status !== 200) throw new Error(`POST import: ${res.status} ${res.body.toString('utf8', 0, 300)}`);
        return { ...(JSON.parse(res.body.toString()) as { id: string; readings: number }), bytes: zip.length };
      },
      async (url, token, result) => {
        // The round trip: the imported test's criteria (its first GET computes them) against the original's.
        const res = await send(`${url}/api/v1/research/${result.id}/criteria`, 'GET', {
          Authorization: `Bearer ${token}`,
        });
        if (res.status !== 200) throw new Error(`GET criteria of the imported test: ${res.status}`);
        criteriaDifference = difference(original, comparable(JSON.parse(res.body.toString())));
      },
    );
    log(
      `  round trip: ${imported.result.readings} readings imported; criteria ${criteriaDifference === null ? 'the same' : `DIFFER: ${criteriaDifference}`}`,
    );
    return {
      layout: services.redisUrl ? 'services' : 'embedded',
      frames: seconds + 60,
      channels: options.channels,
      loadSeconds: test.loadSeconds,
      approval: approved.op,
      verify: verified.op,
      streamed: await live.stop(),
      files: entries.size,
      readingsCsvBytes,
      export: exported.op,
      import: imported.op,
      readingsImported: imported.result.readings,
      criteriaDifference,
      holds,
      probes,
    };
  } finally {
    await daq?.stop();
    await test.close();
  }
}

export function archiveReport(r: ArchiveResult): string {
  const hours = (r.frames - 60) / 3600;
  const worst = Math.max(
    ...r.holds.filter((h) => !h.label.startsWith('quiet') && h.frames > 0).map((h) => h.beyondQuiet),
  );
  const missed = r.holds.reduce((n, h) => n + h.missed, 0);
  return [
    `Archive: ${fmt(r.frames)} frames (${fmt(hours)} h at 1 Hz) × ${r.channels} thermocouples, approved (revision 1, four PDFs), ${r.layout} layout; ` +
      `${r.files} files, readings.csv ${mb(r.readingsCsvBytes)} MB unpacked; a DAQ streaming a live test at 1 frame/s meanwhile (${fmt(r.streamed)} frames); ` +
      `each request in a fresh API process. Stored in ${fmt(r.loadSeconds)} s.`,
    '',
    table(
      ['request', 's', 'CPU s', 'MB sent or uploaded', 'idle RSS MB', 'peak RSS MB', 'peak − idle MB'],
      [r.approval, r.verify, r.export, r.import].map((o) => [
        o.label,
        o.seconds.toFixed(1),
        o.cpuSeconds.toFixed(1),
        mb(o.bytes),
        mb(o.idleRssBytes),
        mb(o.peakRssBytes),
        mb(o.peakRssBytes - o.idleRssBytes),
      ]),
    ),
    '',
    `Round trip: ${fmt(r.readingsImported)} readings imported; the imported test's GET /criteria ${r.criteriaDifference === null ? 'equals the original’s (ids and times of computation aside)' : `DIFFERS from the original’s: ${r.criteriaDifference}`}.`,
    '',
    `The watcher's frames (publish → DATA) in each phase, against the quiet p50 of the same API process; goal: never more than 100 ms beyond it: ` +
      `${worst <= 100 ? 'met' : 'NOT met'} (worst ${fmt(worst)} ms)${missed > 0 ? `; ${missed} frames never arrived` : ''}.`,
    '',
    table(
      [
        'phase',
        'frames',
        'p50 ms',
        'max ms',
        'max − quiet p50',
        'API event loop: longest delay ms',
        'ingest: published > 100 ms after receipt',
      ],
      r.holds.map((h) => {
        const probe = r.probes.find((p) => p.label === h.label);
        return [
          h.label,
          String(h.frames),
          fmt(h.p50),
          fmt(h.max),
          fmt(h.beyondQuiet),
          probe ? fmt(probe.eventLoopMaxMs) : '–',
          probe ? `${probe.ingestOver100ms} of ${probe.ingested}` : '–',
        ];
      }),
    ),
  ].join('\n');
}
