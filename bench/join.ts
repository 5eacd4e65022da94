import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { createDataSource, REBUILD_ROLLUPS_SQL } from '@furnace/db';
import { connectViewer, insertMarkers, insertResearch, login, ROOT, streamUrl, SUPERUSER } from '@furnace/testing';
import { type ClientKind, type OpenedView, openLiveView } from './lib/live-client';
import { startLiveDaq } from './lib/live-daq';
import { copyRaw, insertRaw, simulatedFrames } from './lib/readings';
import { type BenchServices, lineFrom, spawnTs, startFurnace } from './lib/services';
import { fmt, percentile, sleep, sortedCopy, table } from './lib/stats';
import { type Hold, type Watcher, watchLive } from './lib/watcher';

/*
 * Clients joining a long running test (`npm run bench -- --only=join`). A 4-hour test at 1 Hz with 300
 * thermocouples is running: its DAQ publishes a frame a second over MQTT without a pause, from before
 * anything is measured until after the last measurement, and a member of staff watches it live (the
 * watcher: each frame's latency from publish to its DATA on the watcher's socket). Measured:
 * - one client opening the live view with their invitation code, request by request as the dashboard
 *   does (bench/lib/live-client.ts), until the stream's CRITERIA: total time and bytes on the wire;
 * - crowds opening it at once (the reconnect after a restart), from a process of their own: every
 *   request's time, failures;
 * - on a finished 24-hour test of 300 thermocouples in the same system: GET /criteria (the first, which
 *   computes the test when nothing is kept, and then as kept), the PDF report and the XLSX, and an
 *   exclusion until its criteria reach a viewer of that test and until its category rollups are rebuilt;
 * - through all of it, how long the watcher's frames were held beyond their quiet latency.
 */

interface Crowd {
  clients: number;
  failed: number;
  failures: string[];
  /** Every request of every client, ms. */
  p50: number;
  p95: number;
  max: number;
  /** Each client's whole opening, ms. */
  totalP95: number;
  totalMax: number;
  /** p95 of each request, by name, ms. */
  byRequest: Record<string, number>;
}

const CLIENT_KINDS: Record<ClientKind, string> = {
  new: 'the dashboard of today: one live-view request',
  separate: 'the dashboard before the live-view request: a request per resource',
  old: 'the dashboard before the kept criteria',
};

export interface JoinResult {
  kind: ClientKind;
  layout: string;
  channels: number;
  hours: number;
  longHours: number;
  streamed: number;
  quiet: { p50: number; p99: number; max: number };
  single: { totalMs: number[]; bytes: number; requests: { name: string; ms: number }[] };
  crowds: Crowd[];
  long: {
    firstCriteriaMs: number;
    criteriaP50: number;
    criteriaP95: number;
    reportMs: number;
    xlsxMs: number;
    exclusionRequestMs: number;
    exclusionToViewerMs: number;
    /** From the exclusion's request until its category rollups were rebuilt (the queue empty), ms. */
    exclusionRollupsMs: number;
  } | null;
  holds: Hold[];
}

/** Frames, thermocouple markers (two thirds "Tśr i Tmax", then "Tmax", the last 20 "Tmax ościeżnicy") and rollups of a research. */
async function storeTest(
  services: BenchServices,
  client: Client,
  seconds: number,
  channels: number,
  end: Date,
): Promise<string> {
  const startAt = new Date(Date.now() - (seconds + 60) * 1000);
  const researchId = await insertResearch(services.db.url, { startAt, endAt: end });
  // Frames from a minute before ignition (T0) on, in slices: 86 400 frames of 300 values at once would hold ~1 GB.
  // (COPY where the server takes it; the embedded PGlite's socket server does not.)
  const write = services.describe.database.startsWith('PostgreSQL') ? copyRaw : insertRaw;
  for (let from = -60; from < seconds; from += 7_200)
    await write(client, researchId, startAt, simulatedFrames(Math.min(7_200, seconds - from), channels, 1, from));
  const dataSource = createDataSource({ url: services.db.url, poolSize: 1 });
  await dataSource.initialize();
  try {
    const markers: Record<number, string> = {};
    const mean = Math.round((channels * 2) / 3);
    for (let id = 1; id <= channels; id++)
      markers[id] = id <= mean ? 'Tśr i Tmax' : id <= channels - 20 ? 'Tmax' : 'Tmax ościeżnicy';
    await insertMarkers(dataSource, researchId, markers);
  } finally {
    await dataSource.destroy();
  }
  await client.query('UPDATE thermo_config SET image_data = $1 WHERE research_id = $2', [
    readFileSync(join(ROOT, 'libs/api-server/test/fixtures/specimen.png')),
    researchId,
  ]);
  for (const sql of REBUILD_ROLLUPS_SQL) await client.query(sql, [researchId]);
  return researchId;
}

export async function runJoin(
  services: BenchServices,
  options: {
    channels: number;
    hours: number;
    longHours: number;
    clients: number[];
    kind: ClientKind;
    profileDir?: string;
  },
  log: (line: string) => void,
): Promise<JoinResult> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  const t0 = performance.now();
  const running = await storeTest(
    services,
    client,
    options.hours * 3600,
    options.channels,
    new Date(Date.now() + 3_600_000),
  );
  const long =
    options.longHours > 0
      ? await storeTest(services, client, options.longHours * 3600, options.channels, new Date(Date.now() - 60_000))
      : null;
  const maxClients = Math.max(1, ...options.clients);
  // One invitation per client (each client its own code, as a lab invites them).
  const { rows: codes } = await client.query<{ id: string }>(
    `INSERT INTO research_email (id, research_id, email) SELECT gen_random_uuid(), $1, 'client' || g || '@example.com' FROM generate_series(1, $2) g RETURNING id`,
    [running, maxClients + 10],
  );
  await client.query('ANALYZE');
  log(
    `  stored a ${options.hours} h running test${long ? ` and a ${options.longHours} h finished one` : ''} (${options.channels} thermocouples, 1 Hz) in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  // Every client comes from this machine's one address: the per-address limit of the code exchange is raised for them.
  // --cpu-prof=api: the serving process writes a V8 CPU profile when it stops (bench/profile-summary.ts reads it).
  const nodeArgs = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : undefined;
  const system = await startFurnace(services, { env: { LOGIN_RATE_LIMIT: '1000000' }, nodeArgs });
  // The running test's DAQ, from where its stored frames end.
  const daq = await startLiveDaq(services, options.channels, { researchId: running, from: options.hours * 3600 });
  let watcher: Watcher | undefined;
  const phase = <T>(label: string, work: () => Promise<T>): Promise<T> => watcher!.phase(label, work);
  try {
    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    const staff = { Authorization: `Bearer ${token}` };
    watcher = await watchLive(system.api, running, token, daq.published);
    // The running test's criteria are kept from its first streamed frame on; wait until they are.
    const ready = performance.now();
    for (;;) {
      const res = await fetch(`${system.api.url}/api/v1/research/${running}/criteria`, { headers: staff });
      if (res.status === 200 && ((await res.json()) as { elapsed: number | null }).elapsed !== null) break;
      await sleep(500);
    }
    log(
      `  the running test's criteria ready ${((performance.now() - ready) / 1000).toFixed(1)} s after the first streamed frame`,
    );

    await phase('quiet', () => sleep(10_000));

    let codeIndex = 0;
    const singles: OpenedView[] = [];
    await phase('one client joins (5 times)', async () => {
      for (let i = 0; i < 5; i++) {
        singles.push(await openLiveView(system.api.url, running, codes[codeIndex++]!.id, options.kind));
        await sleep(500);
      }
    });
    const failedSingle = singles.find((s) => s.failed);
    if (failedSingle) throw new Error(`a single client failed: ${failedSingle.failed}`);
    const slowest = singles.reduce((a, b) => (b.totalMs > a.totalMs ? b : a));
    log(`  one client: ${singles.map((s) => fmt(s.totalMs)).join(', ')} ms, ${fmt(singles[0]!.bytes / 1024)} kB`);

    const crowds: Crowd[] = [];
    for (const n of options.clients.filter((c) => c > 1)) {
      await sleep(3_000);
      const slice = codes.slice(codeIndex, codeIndex + n).map((c) => c.id);
      codeIndex += n;
      const views = await phase(`${fmt(n)} clients join at once`, async () => {
        const out = join(ROOT, 'tmp', `join-crowd-${n}.json`);
        const child = spawnTs('join-crowd.ts', [
          JSON.stringify({ apiUrl: system.api.url, researchId: running, codes: slice, kind: options.kind, out }),
        ]);
        await lineFrom(child, 'DONE', 600_000);
        return JSON.parse(readFileSync(out, 'utf8')) as OpenedView[];
      });
      const all = sortedCopy(views.flatMap((v) => v.requests.map((r) => r.ms)));
      const totals = sortedCopy(views.map((v) => v.totalMs));
      const failures = views.filter((v) => v.failed).map((v) => v.failed!);
      const byRequest: Record<string, number> = {};
      for (const name of new Set(views.flatMap((v) => v.requests.map((r) => r.name)))) {
        byRequest[name] = percentile(
          sortedCopy(views.flatMap((v) => v.requests.filter((r) => r.name === name).map((r) => r.ms))),
          95,
        );
      }
      crowds.push({
        clients: n,
        failed: failures.length,
        failures: [...new Set(failures)].slice(0, 5),
        p50: percentile(all, 50),
        p95: percentile(all, 95),
        max: percentile(all, 100),
        totalP95: percentile(totals, 95),
        totalMax: percentile(totals, 100),
        byRequest,
      });
      log(
        `  ${fmt(n)} clients: requests p95 ${fmt(percentile(all, 95))} ms, whole opening p95 ${fmt(percentile(totals, 95))} ms, ${failures.length} failed`,
      );
      log(
        `    p95 by request: ${Object.entries(byRequest)
          .map(([k, v]) => `${k} ${fmt(v)}`)
          .join(', ')} ms`,
      );
    }

    let longResult: JoinResult['long'] = null;
    if (long) {
      await sleep(3_000);
      const get = async (path: string) => {
        const start = performance.now();
        const res = await fetch(`${system.api.url}/api/v1/research/${long}${path}`, { headers: staff });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
        return performance.now() - start;
      };
      const firstCriteriaMs = await phase(`GET /criteria of the ${options.longHours} h test, nothing kept yet`, () =>
        get('/criteria'),
      );
      const criteria = sortedCopy(
        await phase('GET /criteria of the kept test (20)', async () => {
          const times: number[] = [];
          for (let i = 0; i < 20; i++) times.push(await get('/criteria'));
          return times;
        }),
      );
      await sleep(2_000);
      const reportMs = await phase(`report.pdf of the ${options.longHours} h test`, () => get('/report.pdf'));
      await sleep(2_000);
      const xlsxMs = await phase(`history.xlsx of the ${options.longHours} h test`, () => get('/history.xlsx'));
      await sleep(2_000);
      const viewer = await connectViewer(streamUrl(system.api, long, { token }));
      let exclusionRequestMs = Number.NaN;
      let exclusionToViewerMs = Number.NaN;
      let exclusionRollupsMs = Number.NaN;
      try {
        await sleep(1_000);
        await phase(`an exclusion on the ${options.longHours} h test`, async () => {
          const start = performance.now();
          const res = await fetch(`${system.api.url}/api/v1/research/${long}/exclusions`, {
            method: 'POST',
            headers: { ...staff, 'Content-Type': 'application/json' },
            body: JSON.stringify({ thermo_id: 5, from_time: 600, reason: 'came loose' }),
          });
          exclusionRequestMs = performance.now() - start;
          if (res.status !== 200) throw new Error(`POST exclusion: ${res.status} ${await res.text()}`);
          // Today's dashboard gets the new criteria pushed (CRITERIA); the one before refetched GET /criteria on UPDATE.
          const reached = async () =>
            options.kind !== 'old'
              ? viewer.messages.some((m) => m.event === 'CRITERIA' && m.data.excluded.includes(5))
              : viewer.messages.some((m) => m.event === 'UPDATE') &&
                (
                  (await (
                    await fetch(`${system.api.url}/api/v1/research/${long}/criteria`, { headers: staff })
                  ).json()) as { excluded: number[] }
                ).excluded.includes(5);
          for (;;) {
            if (await reached()) break;
            if (performance.now() - start > 120_000)
              throw new Error('the exclusion did not reach the viewer within 120 s');
            await sleep(20);
          }
          exclusionToViewerMs = performance.now() - start;
          // The phase goes on while the category rollups are rebuilt after the criteria (the watcher's frames too).
          for (;;) {
            const queued = await client.query('SELECT 1 FROM rollup_refresh WHERE research_id = $1', [long]);
            if (queued.rowCount === 0) break;
            if (performance.now() - start > 300_000)
              throw new Error('the category rollups were not rebuilt within 300 s');
            await sleep(100);
          }
          exclusionRollupsMs = performance.now() - start;
        });
      } finally {
        await viewer.close();
      }
      longResult = {
        firstCriteriaMs,
        criteriaP50: percentile(criteria, 50),
        criteriaP95: percentile(criteria, 95),
        reportMs,
        xlsxMs,
        exclusionRequestMs,
        exclusionToViewerMs,
        exclusionRollupsMs,
      };
      log(
        `  ${options.longHours} h test: first GET /criteria ${fmt(firstCriteriaMs)} ms, then p95 ${fmt(percentile(criteria, 95))} ms; report ${fmt(reportMs)} ms, XLSX ${fmt(xlsxMs)} ms; exclusion answered in ${fmt(exclusionRequestMs)} ms, at the viewer after ${fmt(exclusionToViewerMs)} ms, its category rollups rebuilt after ${fmt(exclusionRollupsMs)} ms`,
      );
    }
    await sleep(3_000);

    // The watcher's frames, by the phase they were published in.
    const { quiet, holds } = watcher.holds();
    const missed = holds.reduce((n, h) => n + h.missed, 0);
    if (missed > 0) log(`  the watcher missed ${missed} frames`);
    return {
      kind: options.kind,
      layout: services.redisUrl ? 'services' : 'embedded',
      channels: options.channels,
      hours: options.hours,
      longHours: long ? options.longHours : 0,
      streamed: daq.streamed,
      quiet,
      single: {
        totalMs: singles.map((s) => s.totalMs),
        bytes: singles[0]!.bytes,
        requests: slowest.requests.map((r) => ({ name: r.name, ms: r.ms })),
      },
      crowds,
      long: longResult,
      holds,
    };
  } finally {
    await daq.stop();
    await watcher?.close();
    await system.stop();
    await client.end();
  }
}

export function joinReport(r: JoinResult): string {
  const single = sortedCopy(r.single.totalMs);
  const rows: string[][] = [
    [
      'one client opens the live view (5 times)',
      `${fmt(percentile(single, 50))} ms median, ${fmt(percentile(single, 100))} ms slowest; ${fmt(r.single.bytes / 1000)} kB on the wire`,
      '≤ 500 ms, ≤ 400 kB',
    ],
    ...r.crowds.map((c) => [
      `${fmt(c.clients)} clients open it at once`,
      `requests p50 ${fmt(c.p50)}, p95 ${fmt(c.p95)}, max ${fmt(c.max)} ms; whole opening p95 ${fmt(c.totalP95)} ms; ${c.failed} failed${c.failures.length ? ` (${c.failures.join('; ')})` : ''}`,
      'every request answered, p95 ≤ 2 s',
    ]),
  ];
  if (r.long) {
    rows.push(
      [
        `GET /criteria, ${r.longHours} h test`,
        `first (nothing kept) ${fmt(r.long.firstCriteriaMs)} ms; then p50 ${fmt(r.long.criteriaP50)}, p95 ${fmt(r.long.criteriaP95)} ms`,
        'p95 ≤ 50 ms',
      ],
      [
        `an exclusion, ${r.longHours} h test`,
        `request ${fmt(r.long.exclusionRequestMs)} ms; at a viewer after ${fmt(r.long.exclusionToViewerMs)} ms; rollups rebuilt after ${fmt(r.long.exclusionRollupsMs)} ms`,
        '≤ 2 s',
      ],
      [
        `report.pdf / history.xlsx, ${r.longHours} h test`,
        `${fmt(r.long.reportMs)} / ${fmt(r.long.xlsxMs)} ms`,
        'XLSX ≤ 15 s',
      ],
    );
  }
  return [
    `Clients joining a ${r.hours} h running test, ${r.channels} thermocouples at 1 Hz (${r.layout} layout, ${CLIENT_KINDS[r.kind]}); ` +
      `its DAQ streamed ${fmt(r.streamed)} frames throughout; the watcher's quiet latency p50 ${fmt(r.quiet.p50)}, p99 ${fmt(r.quiet.p99)}, max ${fmt(r.quiet.max)} ms.`,
    '',
    table(['what', 'measured', 'goal'], rows),
    '',
    `The watcher's frames (publish → DATA) in each phase; goal: never more than 100 ms beyond the quiet p50.`,
    '',
    table(
      ['phase', 'frames', 'p50 ms', 'max ms', 'max − quiet p50'],
      r.holds.map((h) => [h.label, String(h.frames), fmt(h.p50), fmt(h.max), fmt(h.beyondQuiet)]),
    ),
    '',
    `One client's requests (its slowest opening): ${r.single.requests.map((q) => `${q.name} ${fmt(q.ms)}`).join(', ')} ms.`,
  ].join('\n');
}
