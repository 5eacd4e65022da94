// "No log line contains a token or a code": the built system (`npm start`'s process: API, ingest and
// what is not configured embedded; JSON logs, every level a production runs with) is driven through everything that carries a credential (logins, code
// exchanges, stream URLs with ?token=, ?code= and ?ticket=, refused ones too, recovery and reset
// links, REST requests with credentials in their query strings), then its whole output is searched
// for every secret it was given or gave out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  type AppProcess,
  connectViewer,
  freePort,
  login,
  missingBuild,
  refusal,
  startApp,
  streamUrl,
  SUPERUSER,
  waitFor,
} from '@furnace/testing';
import { auth, newUser } from '../harness';
import { startTestSmtp, type TestSmtp } from '../smtp';

describe('security: logs', () => {
  let db: TestDatabase | undefined;
  let smtp: TestSmtp;
  let proc: AppProcess;
  let dataDir = '';
  let output = '';

  beforeAll(async () => {
    const missing = missingBuild(['standalone']);
    if (missing) throw new Error(missing);
    smtp = await startTestSmtp();
    dataDir = mkdtempSync(join(tmpdir(), 'furnace-logs-'));
    // The machine's PostgreSQL and Redis when the run has them, embedded PGlite and bus otherwise.
    db = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
    proc = await startApp('standalone', {
      NODE_ENV: 'production',
      LOG_FORMAT: 'json',
      DATA_DIR: dataDir,
      MQTT_PORT: String(await freePort()),
      DEMO: 'false',
      SECRET_KEY: 'logs-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER: SUPERUSER.email,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
      FRONTEND_HOST: 'http://dashboard.test',
      LOGIN_RATE_LIMIT: '1000',
      ...(db ? { DATABASE_URL: db.url } : {}),
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
      ...smtp.env('furnace@lab.example'),
    });
    // The whole output from here on (AppProcess keeps only its tail).
    proc.child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    proc.child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  }, 120_000);
  afterAll(async () => {
    await proc?.stop();
    await smtp?.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('no log line contains a token, a code, a ticket or a password used during the run; request lines log the path only', async () => {
    const http = request(proc.url);
    const secrets: string[] = [SUPERUSER.password];
    const admin = await login({ http }, SUPERUSER.email, SUPERUSER.password);
    secrets.push(admin);
    const research = (
      await http
        .post('/api/v1/research/')
        .set(auth(admin))
        .send({
          name: 'Logged run',
          start_at: new Date(Date.now() - 3600_000).toISOString(),
          end_at: new Date(Date.now() + 3600_000).toISOString(),
        })
    ).body as { id: string };
    const code = (
      await http
        .post('/api/v1/research/emails')
        .set(auth(admin))
        .send({ research_id: research.id, email: 'logged-client@example.com' })
    ).body.id as string;
    secrets.push(code);
    // The invitation carries the code in its link.
    expect((await http.post(`/api/v1/research/emails/${code}/send`).set(auth(admin))).status).toBe(200);
    const viewer = (await http.post(`/api/v1/research/${research.id}/viewer-token`).send({ code })).body
      .access_token as string;
    secrets.push(viewer);

    // Streams with every kind of credential in the URL, accepted and refused.
    const ticket = (await http.post(`/api/v1/research/${research.id}/stream-ticket`).set(auth(admin))).body
      .ticket as string;
    secrets.push(ticket);
    const streams = [
      await connectViewer(streamUrl(proc, research.id, { ticket })),
      await connectViewer(streamUrl(proc, research.id, { token: admin })),
      await connectViewer(streamUrl(proc, research.id, { code })),
      await connectViewer(streamUrl(proc, research.id, { token: viewer })),
    ];
    for (const s of streams) await s.close();
    expect((await refusal(streamUrl(proc, research.id, { ticket }))).status).toBe(401);
    const forged = `${admin.slice(0, -4)}AAAA`;
    secrets.push(forged);
    expect((await refusal(streamUrl(proc, research.id, { token: forged }))).status).toBe(401);
    expect(
      (
        await refusal(streamUrl(proc, research.id, { code }), {
          Origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);

    // REST requests with credentials where they do not belong: in the query string.
    expect((await http.get(`/api/v1/users/me?token=${admin}`).set(auth(admin))).status).toBe(200);
    expect((await http.get(`/view/${research.id}?code=${code}`)).status).toBeLessThan(500);
    expect((await http.get(`/api/v1/research/${research.id}?code=${code}`)).status).toBe(401);

    // A sign-up (the superuser's notice), a recovery and a reset.
    const stranger = newUser();
    secrets.push(stranger.password);
    expect((await http.post('/api/v1/users/signup').send(stranger)).status).toBe(200);
    const staff = newUser();
    secrets.push(staff.password);
    expect((await http.post('/api/v1/users/').set(auth(admin)).send(staff)).status).toBe(200);
    expect((await http.post(`/api/v1/password-recovery/${staff.email}`)).status).toBe(200);
    const mail = await smtp.next((m) => m.to.includes(staff.email), 'the recovery e-mail');
    const reset = new URL(
      /http:\/\/dashboard\.test\/reset-password\?token=\S+/.exec(mail.parsed.text!)![0],
    ).searchParams.get('token')!;
    secrets.push(reset, 'reset-new-password-1');
    expect(
      (await http.post('/api/v1/reset-password/').send({ token: reset, new_password: 'reset-new-password-1' })).status,
    ).toBe(200);
    expect(
      (await http.post('/api/v1/reset-password/').send({ token: reset, new_password: 'reset-new-password-2' })).status,
    ).toBe(400);
    secrets.push(await login({ http }, staff.email, 'reset-new-password-1'));

    // The run was logged (the check below is not vacuous): request lines with their paths.
    await waitFor('the request log of the reset', () => output.includes('/api/v1/reset-password'));
    expect(output).toContain(`"path":"/api/v1/users/me"`);
    expect(output).toContain(`"path":"/api/v1/research/${research.id}"`);
    for (const secret of secrets) {
      const line = output.split('\n').find((l) => l.includes(secret));
      expect({ secret: secret.slice(0, 12), line }).toEqual({
        secret: secret.slice(0, 12),
        line: undefined,
      });
    }
    // Nor any query string at all.
    expect(output).not.toMatch(/[?&](token|code|ticket)=/);
  });
});
