import type { Locator } from '@playwright/test';
import { connectAsync } from 'mqtt';
import { violations } from './support/axe';
import { warsaw, warsawLocal } from './support/dates';
import {
  ADMIN,
  adminHeaders,
  API,
  createUser,
  daqSignIn,
  expect,
  newUser,
  shootAt,
  signInWithToken,
  skipWithoutChromium,
  test,
  toast,
} from './support/fixtures';

/*
 * A furnace's unassigned readings (docs/behaviour.md §15.1) over the real stack of `npm start`: its DAQ sends frames
 * on `lab/{code}/data` while nothing is scheduled on it; a member of staff (not a superuser) sees them as a range on
 * /furnaces and attaches them to the test then scheduled there over their times; the test's history holds them.
 * And the lab overview (§18) on a wall display (1920×1080, dark: four tiles a row) and a phone (390×844: one a row).
 */
skipWithoutChromium();

const suffix = Math.random().toString(36).slice(2, 7);
const FRAMES = 60;

interface Furnace {
  id: string;
  name: string;
  code: string;
}

/** The furnace's DAQ sends one frame a second, stamped by its clock from `base` on, to the furnace's topic. */
async function publishOnFurnace(code: string, base: number): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
    ...daqSignIn(),
    clientId: `e2e-daq-${code}-${Date.now()}`,
    clean: true,
  });
  try {
    await Promise.all(
      Array.from({ length: FRAMES }, (_, t) =>
        client.publishAsync(
          `lab/${code}/data`,
          JSON.stringify({
            time: t,
            ts: new Date(base + t * 1000).toISOString(),
            pk: Math.round(20 + 345 * Math.log10((8 * t) / 60 + 1)),
            thermocouples_out: [20 + t / 10, 21],
          }),
          { qos: 1 },
        ),
      ),
    );
  } finally {
    await client.endAsync();
  }
}

async function boxes(tiles: Locator) {
  const all = await tiles.all();
  return Promise.all(
    all.map(async (tile) => {
      const box = await tile.boundingBox();
      if (!box) throw new Error('a tile has no box');
      return box;
    }),
  );
}

test.describe('the furnaces’ unassigned readings and the lab overview', () => {
  const furnaces: Furnace[] = [];
  // Whole seconds, two hours ago: the readings' times as the page shows them.
  const base = Math.floor((Date.now() - 2 * 3600_000) / 1000) * 1000;
  const testName = `Ściana EI 60 – odczyty pieca ${suffix}`;

  test.beforeAll(async ({ request }) => {
    const h = await adminHeaders(request);
    // Four furnaces at least: the wall display's row.
    for (const n of [1, 2, 3, 4]) {
      const res = await request.post(`${API}/furnaces`, {
        headers: h,
        data: { name: `Piec U${n} ${suffix}`, code: `u${n}-${suffix}` },
      });
      expect(res.ok(), `furnace: ${res.status()} ${await res.text()}`).toBeTruthy();
      furnaces.push((await res.json()) as Furnace);
    }
  });

  test('staff see a furnace’s readings that came with nothing scheduled and attach them to the test on it', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const furnace = furnaces[0]!;
    const h = await adminHeaders(request);
    await publishOnFurnace(furnace.code, base);
    await expect
      .poll(
        async () => {
          const res = await request.get(`${API}/furnaces/${furnace.id}/unassigned`, { headers: h });
          return ((await res.json()) as { frames: number }).frames;
        },
        { timeout: 30_000, message: 'the frames kept as unassigned' },
      )
      .toBe(FRAMES);

    // The test they belong to is scheduled afterwards, on the furnace, over their times.
    const created = await request.post(`${API}/research`, {
      headers: h,
      data: {
        name: testName,
        start_at: new Date(base - 10 * 60_000).toISOString(),
        end_at: new Date(base + 50 * 60_000).toISOString(),
        is_radiance: false,
        is_furnance: true,
        is_pressure: false,
        furnace_id: furnace.id,
      },
    });
    expect(created.ok(), `test: ${created.status()} ${await created.text()}`).toBeTruthy();
    const research = (await created.json()) as { id: string };
    const stored = async () => {
      const res = await request.get(`${API}/research/${research.id}/history?points=2`, { headers: h });
      return ((await res.json()) as { frames: number }).frames;
    };
    expect(await stored()).toBe(0);

    // A member of staff, not a superuser: the API lets staff attach, so the page is theirs too.
    const staff = newUser('piece');
    await createUser(request, staff);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signInWithToken(page, request, staff.email, staff.password);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Nawigacja' }).getByRole('link', { name: 'Piece' }).click();
    await expect(page).toHaveURL(/\/furnaces$/);
    // The superusers' controls are not theirs.
    await expect(page.getByTestId('furnaces-table').getByTestId('furnace-row').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Dodaj piec' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Akcje dla pieca ${furnace.name}` })).toHaveCount(0);

    const card = page.locator(`[data-testid="unassigned-furnace"][data-furnace="${furnace.code}"]`);
    await expect(card.getByTestId('unassigned-total')).toHaveText(`odczyty: ${FRAMES}, zakresy: 1`);
    const range = card.getByTestId('unassigned-range');
    await expect(range).toHaveCount(1);
    const from = warsaw(new Date(base));
    const to = warsaw(new Date(base + (FRAMES - 1) * 1000));
    await expect(range).toContainText(`${from} – ${to}`);
    await expect(range.getByTestId('unassigned-frames')).toHaveText(`Odczyty: ${FRAMES}`);
    // WCAG 2.1 AA (axe-core), dark, as a11y.browser-spec.ts asks it of the other pages.
    expect(await violations(page), 'the furnaces page, dark').toEqual([]);
    await shootAt(page, 'furnaces-unassigned-dark', { width: 1920, height: 1080 });
    await shootAt(page, 'furnaces-unassigned-dark', { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Narrowed to minutes before the first reading: nothing to attach, and the dialog says so, as the API does.
    await range.getByRole('button', { name: `Dołącz do badania odczyty od ${from} do ${to}` }).click();
    const dialog = page.getByTestId('attach-dialog');
    await expect(dialog).toContainText(`Zakres: ${from} – ${to}, odczyty: ${FRAMES}.`);
    const select = dialog.getByTestId('attach-test');
    await expect(select).toHaveValue(new RegExp(`^${testName}`));
    await dialog.getByLabel('Od').fill(warsawLocal(base - 5 * 60_000));
    await dialog.getByLabel('Do').fill(warsawLocal(base - 60_000));
    await dialog.getByRole('button', { name: 'Dołącz' }).click();
    await expect(dialog.getByTestId('attach-error')).toContainText('nothing to attach');
    await expect(dialog).toBeVisible();
    await shootAt(page, 'furnaces-attach-refused-dark', { width: 1280, height: 800 });
    expect(await violations(page), 'the attach dialog with its refusal, dark').toEqual([]);
    await dialog.getByRole('button', { name: 'Anuluj' }).click();
    await expect(dialog).toBeHidden();
    expect(await stored()).toBe(0);

    // The whole range: attached, the toast counts them, and the furnace holds none any more.
    await range.getByRole('button', { name: `Dołącz do badania odczyty od ${from} do ${to}` }).click();
    await expect(select).toHaveValue(new RegExp(`^${testName}`));
    await page.getByTestId('attach-dialog').getByRole('button', { name: 'Dołącz' }).click();
    await expect(toast(page, `Do badania „${testName}” dołączono odczyty: ${FRAMES}.`)).toBeVisible();
    await expect(page.getByTestId('attach-dialog')).toBeHidden();
    await expect(card).toHaveCount(0);
    expect(await stored()).toBe(FRAMES);

    // The test's history holds them: its chart, not "no readings".
    await page.goto(`/research/${research.id}/history`);
    await expect(page.getByTestId('history-chart')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('history-empty')).toHaveCount(0);
  });

  test('the lab overview fills a wall display with four tiles a row, and a phone with one', async ({
    page,
    request,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/lab');
    const tiles = page.getByTestId('lab-tile');
    for (const f of furnaces)
      await expect(page.locator(`[data-testid="lab-tile"][data-furnace="${f.code}"]`)).toBeVisible();
    await page.waitForTimeout(300);

    const wall = await boxes(tiles);
    expect(wall.length).toBeGreaterThanOrEqual(4);
    // One row of four: the same top, left to right, together nearly the window's width (not the 1320 px container).
    const row = wall.slice(0, 4);
    for (const box of row) expect(Math.abs(box.y - row[0]!.y)).toBeLessThan(2);
    for (let i = 1; i < 4; i++) expect(row[i]!.x).toBeGreaterThan(row[i - 1]!.x + row[i - 1]!.width - 1);
    expect(row[3]!.x + row[3]!.width - row[0]!.x).toBeGreaterThan(1800);
    // A fifth tile, when the lab has one, starts the next row.
    if (wall[4]) expect(wall[4].y).toBeGreaterThan(row[0]!.y + row[0]!.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1920);
    expect(await violations(page), 'the lab overview, dark').toEqual([]);
    await shootAt(page, 'lab-wall-dark', { width: 1920, height: 1080 });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    const phone = await boxes(tiles);
    for (let i = 1; i < phone.length; i++) {
      expect(Math.abs(phone[i]!.x - phone[0]!.x)).toBeLessThan(2);
      expect(phone[i]!.y).toBeGreaterThanOrEqual(phone[i - 1]!.y + phone[i - 1]!.height - 1);
    }
    for (const box of phone) expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shootAt(page, 'lab-wall-dark', { width: 390, height: 844 });
  });
});
