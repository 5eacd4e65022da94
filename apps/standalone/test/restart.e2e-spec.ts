import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAIN, startSystemProcess } from './system';

const form = (o: Record<string, string>) => new URLSearchParams(o).toString();

describe('the embedded system (npm start)', () => {
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm test builds it first (tsc -b)`);
  });

  it('starts with nothing configured, lets the first superuser in, and keeps every row across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'furnace-standalone-'));
    const env = { DATA_DIR: dataDir, FIRST_SUPERUSER: 'boss@lab.example', FIRST_SUPERUSER_PASSWORD: 'boss-password-1' };

    const first = await startSystemProcess(env);
    expect(first.output()).toContain('Furnace Live is running on');
    const docs = await fetch(`${first.url}/api/v1/docs`);
    expect(docs.status).toBe(200);
    const openapi = (await (await fetch(`${first.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toContain('/api/v1/login/access-token');
    const login = await fetch(`${first.url}/api/v1/login/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ username: 'boss@lab.example', password: 'boss-password-1' }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const created = await fetch(`${first.url}/api/v1/research/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({
        name: 'Przegroda EI 90',
        start_at: '2026-01-01T08:00:00Z',
        end_at: '2026-01-01T12:00:00Z',
      }),
    });
    expect(created.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startSystemProcess(env);
    try {
      // The token still works (the secret key was kept) and the research is still there.
      const list = await fetch(`${second.url}/api/v1/research/`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(list.status).toBe(200);
      const body = (await list.json()) as { data: { name: string }[] };
      expect(body.data.map((r) => r.name)).toContain('Przegroda EI 90');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('refuses to start on a bad setting, naming the variable', async () => {
    await expect(
      startSystemProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'furnace-bad-')), PORT: '99999' }),
    ).rejects.toThrow(/PORT/);
  });
});
