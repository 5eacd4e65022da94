import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listeningSockets, useSecuredSystem } from './support';

/*
 * The embedded PGlite checks no password: whoever reaches its wire protocol owns every row. It must
 * be reachable by the system's own process only, not by another user of the machine.
 */

describe('security: the embedded database (PGlite)', () => {
  const system = useSecuredSystem();

  it('is reachable only by this process: a 0600 Unix socket in a 0700 directory, no TCP port', async () => {
    // As an operator might leave ./data: readable by everyone.
    chmodSync(system().dataDir, 0o755);
    const socket = join(system().dataDir, 'run', '.s.PGSQL.5432');
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(system().dataDir, 'run')).mode & 0o777).toBe(0o700);
    expect(system().proc.output()).toContain(`Embedded PostgreSQL (PGlite) on the Unix socket ${socket}`);

    // The process listens on the HTTP port and the broker's port, and on nothing else a local user could dial.
    const port = Number(new URL(system().proc.url).port);
    expect(listeningSockets(system().proc.child.pid!).map((l) => l.port)).toEqual(
      [port, system().mqttPort].sort((a, b) => a - b),
    );

    // Another local user (nobody) trying the socket is refused by the kernel. Only root can act as
    // another user; run unprivileged, the modes above are what that user would meet.
    if (process.getuid?.() === 0) {
      const attempt = `require('net').connect(${JSON.stringify(socket)}).on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(0)})`;
      const out = execFileSync(process.execPath, ['-e', attempt], { uid: 65534, gid: 65534, encoding: 'utf8' }).trim();
      expect(out).toBe('EACCES');
    }

    // The system itself still works: nothing was changed by the attempts.
    const researchId = await system().research('Po próbie');
    expect(await system().rows(researchId)).toEqual([]);
  });

  it('its files are not readable or writable by another local user, even in a data directory open to everyone', async () => {
    chmodSync(system().dataDir, 0o755);
    const pgdata = join(system().dataDir, 'pgdata');
    expect(statSync(pgdata).mode & 0o777).toBe(0o700);
    const version = join(pgdata, 'PG_VERSION');
    const before = readFileSync(version, 'utf8');

    if (process.getuid?.() === 0) {
      const attempt = (code: string) =>
        execFileSync(process.execPath, ['-e', code], { uid: 65534, gid: 65534, encoding: 'utf8' }).trim();
      const read = `try{require('fs').readFileSync(${JSON.stringify(version)});console.log('READ')}catch(e){console.log(e.code)}`;
      const write = `try{require('fs').writeFileSync(${JSON.stringify(version)},'0');console.log('WRITTEN')}catch(e){console.log(e.code)}`;
      const list = `try{require('fs').readdirSync(${JSON.stringify(pgdata)});console.log('LISTED')}catch(e){console.log(e.code)}`;
      expect([attempt(read), attempt(write), attempt(list)]).toEqual(['EACCES', 'EACCES', 'EACCES']);
    }

    // Nothing was changed: the file is as it was and the system still answers.
    expect(readFileSync(version, 'utf8')).toBe(before);
    const researchId = await system().research('Po próbie plików');
    expect(await system().rows(researchId)).toEqual([]);
  });
});
