import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@furnace/testing';

export const MAIN = join(__dirname, '..', 'dist', 'main.js');

export interface RunningProcess {
  url: string;
  output: () => string;
  child: ChildProcess;
  /** SIGTERM, and waits for a clean exit; returns the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built system as a user would, and waits until /api/v1/health answers 200. */
export async function startSystemProcess(env: Record<string, string>): Promise<RunningProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      MQTT_PORT: String(await freePort()),
      DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`system exited with ${child.exitCode}:\n${out}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`system did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    output: () => out,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
