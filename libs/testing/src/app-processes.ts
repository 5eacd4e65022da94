import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';

/*
 * The built apps (`tsc -b tsconfig.build.json`) started as their own processes, exactly as a
 * deployment starts them (`node apps/<app>/dist/main.js`), for the scale-out test and the benchmark.
 */

export const ROOT = join(__dirname, '..', '..', '..');

export type BuiltApp = 'api' | 'ingest' | 'standalone';

export const builtEntry = (app: BuiltApp) => join(ROOT, 'apps', app, 'dist', 'main.js');

/** What is missing for the built apps to start, or null when every entry point exists. */
export function missingBuild(apps: readonly BuiltApp[]): string | null {
  const missing = apps.filter((app) => !existsSync(builtEntry(app)));
  return missing.length
    ? `${missing.map(builtEntry).join(', ')} not built: run \`npx tsc -b tsconfig.build.json\` (npm test does)`
    : null;
}

export interface AppProcess {
  app: BuiltApp;
  pid: number;
  port: number;
  /** http://127.0.0.1:{port} */
  url: string;
  child: ChildProcess;
  /** The end of what the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM (the apps write what they hold and disconnect), SIGKILL after `graceMs`; resolves once it exited. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export interface StartOptions {
  /** Raise the open-file limit of the process (soft limit, up to the hard one) before it starts. */
  nofile?: number;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}

/**
 * Starts `node apps/<app>/dist/main.js` with exactly `env` (plus PATH, HOST=127.0.0.1 and a free
 * PORT unless given) and resolves once its health check answers 200: the API's and the standalone's
 * /api/v1/health (database up), the ingest's /health (broker connected, database up).
 */
export async function startApp(
  app: BuiltApp,
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<AppProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const node = [process.execPath, ...(options.nodeArgs ?? []), builtEntry(app)];
  // The shell raises the limit and execs node, so the pid is node's.
  const [command, args] = options.nofile
    ? ['/bin/sh', ['-c', `ulimit -n ${options.nofile} && exec "$0" "$@"`, ...node]]
    : [node[0]!, node.slice(1)];
  const child = spawn(command, args, {
    cwd: ROOT,
    // With DATABASE_URL and SECRET_KEY set the apps keep nothing in DATA_DIR; it points away from the repository anyway.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      DATA_DIR: join(tmpdir(), 'furnace-app-process-unused'),
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const proc: AppProcess = {
    app,
    pid: child.pid!,
    port,
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  const health = app === 'ingest' ? `${url}/health` : `${url}/api/v1/health`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${app} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`);
    }
    const ok = await fetch(health, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return proc;
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`${app} not healthy at ${health} after ${options.readyTimeoutMs ?? 60_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The environment an API process (apps/api/dist/main.js) of a test or benchmark runs with. */
export function apiEnv(
  services: { databaseUrl: string; redisUrl: string },
  superuser: { email: string; password: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    SECRET_KEY: 'scale-out-secret-key-that-is-long-enough-0123456789',
    FIRST_SUPERUSER: superuser.email,
    FIRST_SUPERUSER_PASSWORD: superuser.password,
    LOGIN_RATE_LIMIT: '1000',
    // Benchmarks and load tests open many viewers with one token.
    LIVE_STREAMS_PER_USER: '100000',
    LIVE_STREAMS_PER_CLIENT: '100000',
    // Only warnings and errors would be of interest; the request log goes to the pipe and is kept for failures.
    LOG_FORMAT: 'json',
    ...extra,
  };
}

/** The environment an ingest process (apps/ingest/dist/main.js) runs with: its own client id, the given shared group. */
export function ingestEnv(
  services: { databaseUrl: string; redisUrl: string; mqttUrl: string },
  clientId: string,
  sharedGroup: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
    MQTT_URL: services.mqttUrl,
    MQTT_CLIENT_ID: clientId,
    MQTT_SHARED_GROUP: sharedGroup,
    SECRET_KEY: 'scale-out-secret-key-that-is-long-enough-0123456789',
    LOG_FORMAT: 'json',
    ...extra,
  };
}
