import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  apiEnv,
  type AppProcess,
  dropSession,
  ingestEnv,
  ROOT,
  startApp,
  startTestBroker,
  SUPERUSER,
  type TestBroker,
  uniqueId,
} from '@furnace/testing';
import { configured } from './env';

/** The database, broker and bus the benchmark runs on: the machine's servers when configured, else embedded ones. */
export interface BenchServices {
  db: TestDatabase;
  broker: TestBroker;
  redisUrl?: string;
  /** What runs, for the report. */
  describe: { database: string; bus: string; broker: string; layout: string };
  close(): Promise<void>;
}

export async function startServices(): Promise<BenchServices> {
  const [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
  const redisUrl = configured.redis;
  return {
    db,
    broker,
    redisUrl,
    describe: {
      database: configured.database
        ? `PostgreSQL at ${redact(configured.database)} (a fresh database)`
        : 'embedded PGlite (in-memory, own process)',
      bus: redisUrl ? `Redis at ${redact(redisUrl)}` : 'in-process bus',
      broker: broker.shared ? `MQTT broker at ${redact(broker.url)}` : 'embedded aedes (in the benchmark process)',
      layout: redisUrl
        ? 'API and ingest as separate processes (apps/api/dist/main.js, apps/ingest/dist/main.js)'
        : 'one process running ingest + API (apps/standalone/dist/main.js): without Redis they cannot be separate',
    },
    async close() {
      await broker.stop();
      await db.drop();
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return `${u.protocol}//${u.host}`;
}

/** Furnace Live as deployed, on the benchmark's services: the API process (whose CPU and memory are measured) and the ingest. */
export interface FurnaceSystem {
  /** The process serving the WebSocket stream (the standalone one, with the ingest inside, when there is no Redis). */
  api: AppProcess;
  ingest?: AppProcess;
  stop(): Promise<void>;
}

export interface ServerOptions {
  nodeArgs?: string[];
  /** Added to the environment of the serving process. */
  env?: Record<string, string>;
}

export async function startFurnace(services: BenchServices, options: ServerOptions = {}): Promise<FurnaceSystem> {
  const clientId = uniqueId('bench-ingest');
  const mqtt = {
    MQTT_URL: services.broker.url,
    MQTT_CLIENT_ID: clientId,
    MQTT_SHARED_SUBSCRIPTION: services.broker.shared ? 'true' : 'false',
  };
  const dropIngestSession = () =>
    services.broker.shared ? dropSession(services.broker.url, clientId).catch(() => undefined) : Promise.resolve();
  if (!services.redisUrl) {
    const api = await startApp(
      'standalone',
      { ...apiEnv({ databaseUrl: services.db.url, redisUrl: '' }, SUPERUSER), ...mqtt, DEMO: 'false', ...options.env },
      options,
    );
    return {
      api,
      async stop() {
        await api.stop();
        await dropIngestSession();
      },
    };
  }
  const urls = { databaseUrl: services.db.url, redisUrl: services.redisUrl, mqttUrl: services.broker.url };
  // A shared-subscription group of this run's own: nothing else on the broker takes its frames.
  const [api, ingest] = await Promise.all([
    startApp('api', apiEnv(urls, SUPERUSER, options.env), options),
    startApp(
      'ingest',
      ingestEnv(urls, clientId, uniqueId('bench-group'), { MQTT_SHARED_SUBSCRIPTION: mqtt.MQTT_SHARED_SUBSCRIPTION }),
    ),
  ]);
  return {
    api,
    ingest,
    async stop() {
      await Promise.all([api.stop(), ingest.stop()]);
      await dropIngestSession();
    },
  };
}

/** A TypeScript file of the benchmark in a process of its own (@swc-node/register compiles it), with an IPC channel. */
export function spawnTs(
  file: string,
  args: string[] = [],
  options: { ipc?: boolean; nodeArgs?: string[] } = {},
): ChildProcess {
  return spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), '-r', '@swc-node/register', join(__dirname, '..', file), ...args],
    {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.spec.json') },
      stdio: options.ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'],
      serialization: 'advanced',
    },
  );
}

/**
 * A baseline server, compiled to plain JavaScript first (it imports packages only) and run by node
 * alone: with @swc-node/register in the process its memory would include the compiler's.
 */
export function spawnCompiled(file: string, args: string[] = [], options: ServerOptions = {}): ChildProcess {
  const swcrc = JSON.parse(readFileSync(join(ROOT, '.swcrc'), 'utf8')) as Record<string, unknown>;
  const { code } = transformFileSync(join(__dirname, '..', file), { ...swcrc, swcrc: false, sourceMaps: false });
  const dir = join(ROOT, 'tmp', 'bench-build');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, basename(file).replace(/\.ts$/, '.js'));
  writeFileSync(out, code);
  return spawn(process.execPath, [...(options.nodeArgs ?? []), out, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resolves with the first stdout line starting with `prefix` (the rest of the line). */
export function lineFrom(child: ChildProcess, prefix: string, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no "${prefix}" line after ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing "${prefix}"`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith(prefix));
      if (line === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(line.slice(prefix.length).trim());
    });
  });
}
