// `npm run bench` (bench/run.js builds, raises the open-file limit, then runs this file).
// Options: --only=fanout,ingest,history,replay,exports,bundle,report,join,archive,lab  --viewers=1,1000  --rates=10,25  --seconds=10  --servers=ws,socketio,furnace
//          --hours=4,24  --export-hours=24  --archive-hours=24
//          --lab-furnaces=10  --lab-rate=10  --lab-seconds=15  --lab-silences=3  --lab-sockets=1,100
//          --clients=1,100,1000  --join-hours=4  --join-long-hours=24 (0: none)  --join-client=new|separate|old (separate: before the live-view request; old: before the kept criteria)
//          --cpu-prof=furnace,ws,socketio  (CPU profiles of those fan-out servers during each measured
//          case, into tmp/bench-profiles; read them with bench/profile-summary.ts or Chrome's DevTools)
import './lib/env';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '@furnace/testing';
import { archiveReport, type ArchiveResult, runArchive } from './archive';
import { fanoutReport, type FanoutRow, runFanout, type ServerName } from './fanout/fanout';
import { bundleReport, type BundleResult, runBundle } from './bundle';
import { exportsReport, type ExportsResult, runExports } from './exports';
import { historyReport, runHistory, type HistoryResult } from './history';
import { ingestReport, runIngest, type IngestResult } from './ingest';
import { joinReport, type JoinResult, runJoin } from './join';
import { labReport, type LabResult, runLab } from './lab';
import type { ClientKind } from './lib/live-client';
import { openFileLimit } from './lib/process-stats';
import { replayReport, runReplay, type ReplayResult } from './replay';
import { reportReport, runReport, type ReportResult } from './report';
import { startServices } from './lib/services';

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}
const list = (value: string | undefined, fallback: number[]) => (value ? value.split(',').map(Number) : fallback);

const CHANNELS = 300;

async function main() {
  const only = option('only')?.split(',') ?? [
    'fanout',
    'ingest',
    'history',
    'replay',
    'exports',
    'bundle',
    'report',
    'join',
    'archive',
    'lab',
  ];
  const started = performance.now();
  const log = (line: string) => process.stdout.write(`${line}\n`);

  // Each viewer holds a socket in the server and one in a viewer process; the server needs a few more.
  const limit = openFileLimit();
  const wanted = list(option('viewers'), [1, 1_000]);
  const maxViewers = limit.soft - 256;
  const viewerCounts = wanted.map((v) => Math.min(v, maxViewers));
  const capped = viewerCounts.some((v, i) => v !== wanted[i]);

  const services = await startServices();
  log(
    `Furnace Live benchmark on ${cpus().length} cores (load average ${loadavg()[0]!.toFixed(2)} at start), Node ${process.version}`,
  );
  log(`  database: ${services.describe.database}`);
  log(`  bus:      ${services.describe.bus}`);
  log(`  broker:   ${services.describe.broker}`);
  log(`  layout:   ${services.describe.layout}`);
  log(`  open files: ${limit.soft} (hard ${limit.hard})${capped ? `: viewers capped at ${maxViewers}` : ''}`);

  let fanout: FanoutRow[] = [];
  let ingest: IngestResult | undefined;
  let history: HistoryResult | undefined;
  let replay: ReplayResult | undefined;
  let exports: ExportsResult | undefined;
  let bundle: BundleResult | undefined;
  let report: ReportResult | undefined;
  let joined: JoinResult | undefined;
  let archive: ArchiveResult | undefined;
  let lab: LabResult | undefined;
  const profile = (option('cpu-prof')?.split(',') ?? []) as ServerName[];
  const profileDir = join(ROOT, 'tmp', 'bench-profiles');
  if (profile.length) mkdirSync(profileDir, { recursive: true });
  try {
    if (only.includes('fanout')) {
      log('\nFan-out');
      fanout = await runFanout(
        services,
        {
          viewerCounts,
          rates: list(option('rates'), [10, 25]),
          seconds: Number(option('seconds') ?? 10),
          channels: CHANNELS,
          workers: 2,
          servers: option('servers')?.split(',') as ServerName[] | undefined,
          profile: profile.length ? { servers: profile, dir: profileDir } : undefined,
        },
        log,
      );
    }
    if (only.includes('ingest')) {
      log('\nIngest');
      ingest = await runIngest(services, { channels: CHANNELS, seconds: Number(option('ingest-seconds') ?? 8) }, log);
    }
    if (only.includes('history')) {
      log('\nHistory');
      history = await runHistory(
        services,
        {
          channels: CHANNELS,
          hours: list(option('hours'), [4, 24]),
          points: 1_000,
          requests: Number(option('requests') ?? 20),
        },
        log,
      );
    }
    if (only.includes('replay')) {
      log('\nReplay');
      replay = await runReplay(
        services,
        { channels: CHANNELS, hours: 4, requests: Number(option('requests') ?? 20) },
        log,
      );
    }
    if (only.includes('exports')) {
      log('\nExports');
      exports = await runExports(services, { channels: CHANNELS, hours: Number(option('export-hours') ?? 24) }, log);
    }
    if (only.includes('bundle')) {
      log('\nDashboard bundle');
      bundle = await runBundle(services, log);
    }
    if (only.includes('report')) {
      log('\nPDF report');
      report = await runReport(
        services,
        { channels: CHANNELS, hours: 4, requests: Number(option('requests') ?? 5) },
        log,
      );
    }
    if (only.includes('join')) {
      log('\nClients joining a long test');
      joined = await runJoin(
        services,
        {
          channels: CHANNELS,
          hours: Number(option('join-hours') ?? 4),
          longHours: Number(option('join-long-hours') ?? 24),
          clients: list(option('clients'), [1, 100, 1_000]),
          kind: (option('join-client') ?? 'new') as ClientKind,
          profileDir: profile.length ? profileDir : undefined,
        },
        log,
      );
    }
    if (only.includes('archive')) {
      log('\nArchive: export and import of a long test');
      archive = await runArchive(services, { channels: CHANNELS, hours: Number(option('archive-hours') ?? 24) }, log);
    }
    if (only.includes('lab')) {
      log('\nLab overview and alarms');
      lab = await runLab(
        services,
        {
          furnaces: Number(option('lab-furnaces') ?? 10),
          rate: Number(option('lab-rate') ?? 10),
          channels: CHANNELS,
          seconds: Number(option('lab-seconds') ?? 15),
          silences: Number(option('lab-silences') ?? 3),
          sockets: list(option('lab-sockets'), [1, 100]),
        },
        log,
      );
    }
  } finally {
    await services.close();
  }

  const sections = [
    `Furnace Live benchmark — ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, ` +
      `${services.describe.database}; ${services.describe.bus}; ${services.describe.broker}`,
  ];
  if (fanout.length)
    sections.push(
      fanoutReport(
        fanout,
        services.redisUrl ? 'services' : 'embedded',
        capped ? `viewers capped at ${maxViewers} by the open-file limit (${limit.soft})` : undefined,
      ),
    );
  if (ingest) sections.push(ingestReport(ingest));
  if (history) sections.push(historyReport(history));
  if (replay) sections.push(replayReport(replay));
  if (exports) sections.push(exportsReport(exports));
  if (bundle) sections.push(bundleReport(bundle));
  if (report) sections.push(reportReport(report));
  if (joined) sections.push(joinReport(joined));
  if (archive) sections.push(archiveReport(archive));
  if (lab) sections.push(labReport(lab));
  sections.push(
    `Total ${((performance.now() - started) / 1000).toFixed(0)} s. Ratios compare figures measured in this run, on this machine, minutes apart.`,
  );
  const text = sections.join('\n\n');
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  writeFileSync(join(ROOT, 'tmp', 'bench-results.md'), `${text}\n`);
  writeFileSync(
    join(ROOT, 'tmp', 'bench-results.json'),
    JSON.stringify({ fanout, ingest, history, replay, exports, bundle, report, join: joined, archive, lab }, null, 2),
  );
  log(`\n${text}\n\n(also in tmp/bench-results.md and tmp/bench-results.json)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
