import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

/*
 * A Redis of a test's own, on its own port, that the test may kill and start again (a bus outage): the machine's
 * shared Redis is never stopped.
 */

/** Whether redis-server is installed; a test that needs one it may kill is skipped, not failed, without it. */
export const redisServerInstalled = !spawnSync('redis-server', ['--version']).error;

/** Starts redis-server on 127.0.0.1:`port` (nothing kept on disk); resolves once it accepts connections. */
export function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Ready to accept connections')) return;
      child.removeAllListeners('exit');
      resolve(child);
    });
  });
}

/** SIGKILL (an outage, not a shutdown); resolves once it exited. */
export function killProcess(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
