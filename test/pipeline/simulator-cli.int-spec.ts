import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@furnace/testing';

/*
 * `npm run simulate`'s command line (src/cli.ts, built to dist/cli.js): what it prints is read by people and kept in
 * terminals' scroll-back, so a password in its --mqtt URL never appears in it.
 */
describe('the simulator command line', () => {
  it('prints the broker URL without its password', async () => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'libs/simulator/dist/cli.js'),
        '--furnace',
        'p1',
        '--mqtt',
        'mqtt://daq:a-daq-password-123@127.0.0.1:1',
        '--duration',
        '1',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3_000);
      child.stdout.on('data', () => {
        if (!out.includes('Ctrl+C')) return;
        clearTimeout(timer);
        resolve();
      });
    });
    child.kill('SIGKILL');
    expect(out).toContain('mqtt://daq:***@127.0.0.1:1');
    expect(out).toContain('topic lab/p1/data');
    expect(out).not.toContain('a-daq-password-123');
  });
});
