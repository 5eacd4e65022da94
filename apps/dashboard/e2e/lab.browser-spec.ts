import { connectAsync } from 'mqtt';
import {
  ADMIN,
  adminHeaders,
  API,
  expect,
  shootAt,
  signInWithToken,
  skipWithoutChromium,
  test,
  toast,
} from './support/fixtures';

/*
 * The lab (docs/behaviour.md §15 and §18) over the real stack of `npm start`: two furnaces, the demo test (live
 * from the simulated DAQ) running on one and a test scheduled tomorrow on the other. The superusers' furnaces
 * page, the research form's furnace select with the schedule's refusal, and the /lab overview, seen on a wall
 * display (1920×1080, dark) and a phone (390×844).
 */
skipWithoutChromium();

const suffix = Math.random().toString(36).slice(2, 7);
const HOT = { name: `Piec poziomy ${suffix}`, code: `p1-${suffix}` };
const IDLE = {
  name: `Piec pionowy ${suffix}`,
  code: `p2-${suffix}`,
  heating_curve: 'hydrocarbon',
  pressure_target_pa: 20,
};
const TOMORROW_TEST = `Drzwi EI2 30 jutro ${suffix}`;

interface Furnace {
  id: string;
  name: string;
  code: string;
}

test.describe('the lab', () => {
  let hot: Furnace;
  let idle: Furnace;
  let demoName: string;

  test.beforeAll(async ({ request }) => {
    const h = await adminHeaders(request);
    const make = async (body: object) => {
      const res = await request.post(`${API}/furnaces`, { headers: h, data: body });
      expect(res.ok(), `furnace: ${res.status()} ${await res.text()}`).toBeTruthy();
      return (await res.json()) as Furnace;
    };
    hot = await make(HOT);
    idle = await make(IDLE);
    // The demo test of `npm start`, live from the simulated DAQ, goes on the first furnace.
    const list = (await (await request.get(`${API}/research`, { headers: h })).json()) as {
      data: { id: string; name: string }[];
    };
    const demo = list.data.find((r) => r.name.startsWith('Demo:'));
    if (!demo) throw new Error('the demo research of `npm start` is not on the list');
    demoName = demo.name;
    const moved = await request.put(`${API}/research/${demo.id}`, { headers: h, data: { furnace_id: hot.id } });
    expect(moved.ok(), `demo on the furnace: ${moved.status()} ${await moved.text()}`).toBeTruthy();
    const start = new Date(Date.now() + 24 * 3600_000);
    const next = await request.post(`${API}/research`, {
      headers: h,
      data: {
        name: TOMORROW_TEST,
        start_at: start.toISOString(),
        end_at: new Date(start.getTime() + 3600_000).toISOString(),
        furnace_id: idle.id,
      },
    });
    expect(next.ok(), `tomorrow's test: ${next.status()} ${await next.text()}`).toBeTruthy();
  });

  test('the overview shows the running furnace live and the idle one with its next test, on a wall and a phone', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Nawigacja' }).getByRole('link', { name: 'Laboratorium' }).click();
    await expect(page).toHaveURL(/\/lab$/);

    const running = page.locator(`[data-testid="lab-tile"][data-furnace="${hot.code}"]`);
    const waiting = page.locator(`[data-testid="lab-tile"][data-furnace="${idle.code}"]`);
    await expect(running).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
    await expect(running.getByTestId('lab-tile-test')).toHaveText(demoName);
    // The simulated DAQ's frames reach the tile: its last frame is seconds old, and stays so.
    await expect(running.getByTestId('lab-tile-frame')).toContainText(/\d+ s temu/, { timeout: 15_000 });
    const age = async () =>
      Number(/(\d+) s temu/.exec((await running.getByTestId('lab-tile-frame').innerText()) ?? '')?.[1]);
    await page.waitForTimeout(3000);
    expect(await age()).toBeLessThanOrEqual(3);
    // The elapsed clock ticks in the browser, from ignition (the demo lights its furnace a minute into the test).
    const first = await running.getByTestId('lab-tile-elapsed').innerText();
    await expect(running.getByTestId('lab-tile-elapsed')).not.toHaveText(first, { timeout: 90_000 });
    // The criteria the server keeps: d_e with its tolerance, the hottest category against its limit.
    await expect(running.getByTestId('lab-tile-deviation')).toContainText('%', { timeout: 20_000 });
    await expect(running.getByTestId('lab-tile-alarms')).toContainText('0');

    await expect(waiting).toHaveAttribute('data-state', 'idle');
    await expect(waiting.getByTestId('lab-tile-next')).toHaveText(TOMORROW_TEST);

    await shootAt(page, 'lab-overview-dark', { width: 1920, height: 1080 });
    await shootAt(page, 'lab-overview-dark', { width: 390, height: 844 });
    // On a phone: one tile a row, nothing wider than the screen.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expect(running).toBeVisible();

    // A viewer of the demo test (another tab) is counted on its tile.
    const viewer = await page.context().newPage();
    await viewer.goto(
      `/research/${(await running.getByTestId('lab-tile-test').getAttribute('href'))?.split('/')[2]}/view`,
    );
    await expect(running.getByTestId('lab-tile-viewers')).toHaveText('1', { timeout: 30_000 });
    await viewer.close();
  });

  test('the furnaces page lists, adds and refuses to delete a furnace with tests; the research form schedules on one', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/furnaces');
    const table = page.getByTestId('furnaces-table');
    await expect(table.getByTestId('furnace-row').filter({ hasText: HOT.code })).toBeVisible({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Dodaj piec' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nazwa').fill(`Piec P3 ${suffix}`);
    await dialog.getByLabel('Kod').fill('Bad Code');
    await dialog.getByLabel('Kod').blur();
    await expect(dialog.getByText(/Kod: 1–16 małych liter/)).toBeVisible();
    await dialog.getByLabel('Kod').fill(`p3-${suffix}`);
    await dialog.getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Piec został dodany.')).toBeVisible();
    await expect(table.getByTestId('furnace-row').filter({ hasText: `p3-${suffix}` })).toBeVisible();

    await table.getByRole('button', { name: `Akcje dla pieca ${HOT.name}` }).click();
    await page.getByRole('menuitem', { name: 'Usuń piec' }).click();
    await page.getByTestId('confirm-button').click();
    await expect(toast(page, 'Nie udało się usunąć pieca')).toContainText('cannot be deleted');
    await expect(table.getByTestId('furnace-row').filter({ hasText: HOT.code })).toBeVisible();

    // The create form: the idle furnace's defaults fill the profile; the running one's schedule refuses the test.
    await page.goto('/research/add');
    await page.getByLabel('Nazwa badania').fill(`Ściana EI 60 ${suffix}`);
    await page.getByTestId('research-furnace').click();
    await page.getByRole('option', { name: `${IDLE.name} (${IDLE.code})` }).click();
    await expect(page.getByTestId('profile-curve')).toHaveValue('Krzywa węglowodorowa');
    await expect(page.getByTestId('profile-pressure-target')).toHaveValue('20 Pa');
    await page.getByTestId('research-furnace').click();
    await page.getByRole('option', { name: `${HOT.name} (${HOT.code})` }).click();
    await page.getByRole('button', { name: 'Dodaj badanie' }).click();
    await expect(page.getByText(/already has a test at that time/).first()).toBeVisible();
    await expect(page.getByTestId('research-furnace')).toHaveAttribute('aria-invalid', 'true');
  });

  test('a superuser issues the idle furnace’s DAQ credential, shown once; its DAQ signs in with it; rotating ends the old one', async ({
    page,
    request,
  }) => {
    const url = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
    /** Signs in to the broker as the furnace's DAQ and publishes one frame to its topic (docs/behaviour.md §16). */
    const signIn = async (password: string) => {
      const client = await connectAsync(url, {
        username: `daq-${IDLE.code}`,
        password,
        clientId: `e2e-daq-${IDLE.code}-${Date.now()}`,
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      await client.publishAsync(`lab/${IDLE.code}/data`, JSON.stringify({ time: 0, thermocouples_out: [20] }), {
        qos: 1,
      });
      await client.endAsync();
    };
    const credential = async () => {
      const dialog = page.getByTestId('daq-credential');
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText('Hasło jest pokazywane tylko teraz');
      await expect(dialog.getByLabel('Użytkownik MQTT', { exact: true })).toHaveText(`daq-${IDLE.code}`);
      await expect(dialog.getByLabel('Temat', { exact: true })).toHaveText(`lab/${IDLE.code}/data`);
      const password = (await dialog.getByLabel('Hasło MQTT', { exact: true }).textContent())?.trim() ?? '';
      expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.getByRole('button', { name: 'Zapisałem hasło' }).click();
      await expect(dialog).toBeHidden();
      return password;
    };

    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/furnaces');
    const row = page.getByTestId('furnaces-table').getByTestId('furnace-row').filter({ hasText: IDLE.code });
    await expect(row.getByTestId('furnace-daq')).toHaveText('brak danych logowania', { timeout: 30_000 });

    await row.getByRole('button', { name: `Akcje dla pieca ${IDLE.name}` }).click();
    await page.getByRole('menuitem', { name: 'Wydaj dane logowania DAQ' }).click();
    const first = await credential();
    await expect(row.getByTestId('furnace-daq')).toContainText(`daq-${IDLE.code} (od `);
    await signIn(first);
    // Never shown again: the list and the furnace's own answer give the username and the time, not the password.
    const listed = await request.get(`${API}/furnaces`, { headers: await adminHeaders(request) });
    expect(await listed.text()).not.toContain(first);

    // Rotating asks first, then shows the new password; the old one is refused by the broker at once.
    await row.getByRole('button', { name: `Akcje dla pieca ${IDLE.name}` }).click();
    await page.getByRole('menuitem', { name: 'Wymień hasło DAQ' }).click();
    await expect(page.getByRole('dialog')).toContainText('stare przestaje działać od razu');
    await page.getByTestId('confirm-button').click();
    const second = await credential();
    expect(second).not.toBe(first);
    await expect(signIn(first)).rejects.toThrow(/Bad username or password|Not authorized/i);
    await signIn(second);
    await shootAt(page, 'furnaces-daq', { width: 1280, height: 800 });
  });
});
