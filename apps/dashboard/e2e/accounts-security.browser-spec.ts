import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  logIn,
  mailsTo,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  uniqueEmail,
} from './support/fixtures';

skipWithoutChromium();

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

async function signUp(page: import('@playwright/test').Page, user: { name: string; email: string; password: string }) {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(user.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
}

test('a signed-up account waits for approval (Polish and English); the superuser is e-mailed a link to /admin and activates it there', async ({
  page,
  request,
}) => {
  const pl = { name: 'Piotr Nowak', email: uniqueEmail('pending-pl'), password: 'Pending-Pass-2025' };
  await signUp(page, pl);
  await expect(page.getByRole('heading', { name: 'Konto czeka na zatwierdzenie' })).toBeVisible();
  await expect(page.getByTestId('signup-pending')).toHaveText(
    'Konto zostało utworzone i czeka na zatwierdzenie. Administrator został powiadomiony; zalogujesz się, gdy je aktywuje.',
  );
  await snap(page, 'signup-pending-pl');

  await page.evaluate(() => localStorage.setItem('language', 'en'));
  const en = { name: 'Emma Brown', email: uniqueEmail('pending-en'), password: 'Pending-Pass-2026' };
  await signUp(page, en);
  await expect(page.getByRole('heading', { name: 'Account awaiting approval' })).toBeVisible();
  await expect(page.getByTestId('signup-pending')).toContainText('waiting for approval');
  await snap(page, 'signup-pending-en', { only: 'desktop' });
  await page.evaluate(() => localStorage.removeItem('language'));

  // Not usable until approved.
  const refused = await request.post(`${API}/login/access-token`, {
    form: { username: pl.email, password: pl.password },
  });
  expect(refused.status()).toBe(400);

  // The superuser's notice, with the link to /admin.
  await expect
    .poll(async () => (await mailsTo(ADMIN.email)).some((m) => m.text.includes(pl.email)), { timeout: 20_000 })
    .toBe(true);
  const notice = (await mailsTo(ADMIN.email)).find((m) => m.text.includes(pl.email))!;
  const link = new URL(/https?:\/\/\S+\/admin\b/.exec(notice.text)![0]);
  expect(link.pathname).toBe('/admin');
  expect((await mailsTo(pl.email)).length).toBe(0);

  // The superuser activates the account in /admin (the newest accounts are on the last page).
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const { count } = (await (
    await request.get(`${API}/users/?limit=1`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { count: number };
  await page.goto(`/admin?page=${Math.ceil(count / 5)}`);
  let row = page.getByTestId('user-row').filter({ hasText: pl.email });
  if ((await row.count()) === 0) {
    await page.goto(`/admin?page=${Math.max(1, Math.ceil(count / 5) - 1)}`);
    row = page.getByTestId('user-row').filter({ hasText: pl.email });
  }
  await expect(row).toContainText('Inactive');
  await row.getByRole('button', { name: `Actions for ${pl.email}` }).click();
  await page.getByRole('menuitem', { name: 'Edit User' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await edit.getByLabel('Is active?').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('Active');

  await page.evaluate(() => localStorage.removeItem('access_token'));
  await logIn(page, pl.email, pl.password);
  await expect(page.getByTestId('greeting')).toHaveText(`Hi, ${pl.name}`);
});

test('SIGNUP=approval shows the sign-up link on /login (SIGNUP=off hides it: see the API test of /config)', async ({
  page,
  request,
}) => {
  expect(await (await request.get(`${API}/config`)).json()).toEqual({ signup: 'approval' });
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Sign Up' })).toBeVisible();
  await page.route(`**${API}/config`, (route) => route.fulfill({ json: { signup: 'off' } }));
  await page.reload();
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveCount(0);
  await snap(page, 'login-signup-off', { only: 'desktop' });
});

test('the live socket carries a single-use ticket, never the staff token or the client code; deleting the client closes their view', async ({
  page,
  request,
  browser,
}) => {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const headers = { Authorization: `Bearer ${token}` };
  const research = (await (
    await request.post(`${API}/research`, {
      headers,
      data: {
        name: 'Bilety strumienia',
        start_at: new Date(Date.now() - 3600_000).toISOString(),
        end_at: new Date(Date.now() + 3600_000).toISOString(),
        is_radiance: true,
        is_furnance: true,
        is_pressure: true,
      },
    })
  ).json()) as { id: string };
  const code = (
    (await (
      await request.post(`${API}/research/emails`, {
        headers,
        data: { research_id: research.id, email: uniqueEmail('ticket-client') },
      })
    ).json()) as { id: string }
  ).id;

  const staffSockets: string[] = [];
  page.on('websocket', (ws) => staffSockets.push(ws.url()));
  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto(`/research/${research.id}/view`);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '1');

  const client = await browser.newPage();
  const clientSockets: string[] = [];
  client.on('websocket', (ws) => clientSockets.push(ws.url()));
  await client.goto(`/view/${research.id}?code=${code}`);
  await expect(client.getByTestId('connection-status')).toHaveAttribute('data-status', '1');

  for (const url of [...staffSockets, ...clientSockets]) {
    expect(url).toMatch(new RegExp(`/api/v1/research/dane/stream/${research.id}\\?ticket=[\\w-]+$`));
    expect(url).not.toContain(token);
    expect(url).not.toContain(code);
  }
  expect(staffSockets.length).toBeGreaterThan(0);
  expect(clientSockets.length).toBeGreaterThan(0);

  // Revoking the client's access closes their stream; reconnecting is refused and the view says so.
  expect((await request.delete(`${API}/research/emails/${code}`, { headers })).ok()).toBeTruthy();
  await expect(client.getByTestId('connection-status')).toHaveAttribute('data-status', '0', { timeout: 5_000 });
  await expect(client.getByText('Brak dostępu')).toBeVisible({ timeout: 20_000 });
  await snap(client, 'live-revoked', { only: 'desktop' });
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '1');
  await client.close();
});

test.describe('the default superuser password', () => {
  // A system of its own, started as `npm start` starts it with FIRST_SUPERUSER_PASSWORD unset.
  let server: ChildProcess | undefined;
  let dataDir = '';
  let base = '';

  const freePort = () =>
    execFileSync(process.execPath, [
      '-e',
      "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
    ])
      .toString()
      .trim();

  test.beforeAll(async () => {
    const port = freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'furnace-first-password-'));
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [join(repoRoot, 'apps/standalone/dist/main.js')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: port,
        MQTT_PORT: freePort(),
        DATA_DIR: dataDir,
        FRONTEND_HOST: base,
        DEMO: 'false',
      },
      stdio: 'ignore',
    });
    await expect
      .poll(async () => (await fetch(`${base}/api/v1/health`).catch(() => null))?.status, { timeout: 60_000 })
      .toBe(200);
  });
  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the first sign-in shows only the password change form; after it the dashboard works and the old password does not', async ({
    page,
  }) => {
    await page.goto(`${base}/login`);
    await page.getByLabel('Adres email').fill('admin@example.com');
    await page.getByRole('textbox', { name: 'Hasło', exact: true }).fill('changethis');
    await page.getByRole('button', { name: 'Zaloguj' }).click();
    const form = page.getByTestId('forced-password-change');
    await expect(form.getByRole('heading', { name: 'Ustaw nowe hasło' })).toBeVisible();
    await expect(form).toContainText('domyślne hasło');
    await expect(page.getByTestId('greeting')).toHaveCount(0);
    await snap(page, 'forced-password-change');

    await form.getByLabel('Current Password').fill('changethis');
    await form.getByRole('textbox', { name: 'New Password', exact: true }).fill('Chosen-Admin-Pass-1');
    await form.getByLabel('Confirm Password').fill('Chosen-Admin-Pass-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('greeting')).toBeVisible();
    await expect(form).toHaveCount(0);

    const old = await fetch(`${base}${API}/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'admin@example.com', password: 'changethis' }),
    });
    expect(old.status).toBe(400);
    const fresh = await fetch(`${base}${API}/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'admin@example.com', password: 'Chosen-Admin-Pass-1' }),
    });
    expect(fresh.status).toBe(200);
  });
});
