import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, useSecuredSystem, SUPERUSER } from './support';

/*
 * Without SMTP the mails go to DATA_DIR/outbox: a password-reset message there is the superuser's
 * account for whoever reads it. Another user of the machine must not be able to.
 */

describe('security: the mail outbox', () => {
  const system = useSecuredSystem();

  it('a password-reset mail is readable by this process only, even in a data directory open to everyone', async () => {
    // As an operator might leave ./data: readable by everyone.
    chmodSync(system().dataDir, 0o755);
    const res = await fetch(`${system().proc.url}/api/v1/password-recovery/${encodeURIComponent(SUPERUSER.email)}`, {
      method: 'POST',
    });
    expect(res.status).toBe(200);
    const outbox = join(system().dataDir, 'outbox');
    // The mail is sent after the answer.
    expect(await eventually(async () => existsSync(outbox) && readdirSync(outbox).length > 0)).toBe(true);
    const [name] = readdirSync(outbox);
    expect(name).toBeDefined();
    const mail = join(outbox, name!);
    expect(readFileSync(mail, 'utf8')).toContain('reset-password');
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    expect(statSync(mail).mode & 0o777).toBe(0o600);

    // Another local user (nobody) is refused by the kernel. Only root can act as another user; run
    // unprivileged, the modes above are what that user would meet.
    if (process.getuid?.() === 0) {
      const attempt = (code: string) =>
        execFileSync(process.execPath, ['-e', code], { uid: 65534, gid: 65534, encoding: 'utf8' }).trim();
      const read = `try{require('fs').readFileSync(${JSON.stringify(mail)});console.log('READ')}catch(e){console.log(e.code)}`;
      const list = `try{require('fs').readdirSync(${JSON.stringify(outbox)});console.log('LISTED')}catch(e){console.log(e.code)}`;
      expect([attempt(read), attempt(list)]).toEqual(['EACCES', 'EACCES']);
    }
  });
});
