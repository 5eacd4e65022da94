import type { APIRequestContext } from '@playwright/test';
import { connectAsync } from 'mqtt';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  daqSignIn,
} from './support/fixtures';
import { configFile, DOOR_PROFILE, photo } from './support/research';

/*
 * The fire-test criteria through the whole system: staff create a research with its test profile in
 * the form, a DAQ streams frames over MQTT (pre-ignition ones included), and the live side panel,
 * the monitor and the history show T0, d_e and an observation recorded with one click.
 */
skipWithoutChromium();

const CONFIG = [
  'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
  '1;T1;Tśr i Tmax;#E53935;100;100;14;120;70;64;24',
  '2;T2;Tśr i Tmax;#FB8C00;200;120;14;220;90;64;24',
  '3;T3;Tmax;#1E88E5;300;150;14;320;120;64;24',
  '',
].join('\n');

/** ISO 834, °C. */
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);
const round2 = (value: number) => Math.round(value * 100) / 100;
const LAST = 600;

/**
 * A frame every 10 s from −60 s to 10 min. Before ignition the unexposed face reads 20.0 and 20.5 °C
 * (T0 = 20.25 °C, printed 20.3); then it warms 0.1 K/s. The furnace follows 0.95 · ISO 834 exactly:
 * d_e = −5.00 % at every time, inside the 15 % tolerance at 10 min.
 */
function frame(t: number) {
  const warm = Math.max(0, t) * 0.1;
  return {
    time: t,
    pk: t < 0 ? 20 : round2(0.95 * iso834(t)),
    pressure: 19.5,
    thermocouples_out: [round2(20 + warm), round2(20.5 + warm), round2(20.2 + warm)],
  };
}

async function publishFrames(researchId: string): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
    ...daqSignIn(),
    clientId: `e2e-criteria-${Date.now()}`,
    clean: true,
  });
  try {
    for (let t = -60; t <= LAST; t += 10)
      await client.publishAsync(`furnace/${researchId}/data`, JSON.stringify(frame(t)), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

async function elapsed(request: APIRequestContext, token: string, researchId: string): Promise<number | null> {
  const response = await request.get(`${API}/research/${researchId}/criteria`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.ok() ? ((await response.json()) as { elapsed: number | null }).elapsed : null;
}

test.describe.serial('the fire-test criteria on screen', () => {
  test.setTimeout(120_000);
  let researchId = '';
  const researchName = `Drzwi EI60 – kryteria ${Date.now().toString(36)}`;

  test('staff create a research with its test profile', async ({ page, request }) => {
    const token = await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto('/research/add');
    await page.getByLabel('Nazwa badania').fill(researchName);
    await page.getByLabel('Temperatura w piecu').check();
    await page.getByLabel('Ciśnienie').check();
    await page.getByRole('combobox', { name: 'Norma / element' }).click();
    await page.getByRole('option', { name: 'EN 1634-1 — drzwi lub zamknięcie' }).click();
    await expect(page.getByRole('combobox', { name: 'Klasa izolacyjności (drzwi)' })).toHaveValue('I2');
    await page.getByRole('textbox', { name: 'Planowany czas badania' }).fill('60');
    await page.getByRole('textbox', { name: 'Wartość docelowa p' }).fill('20');
    await page.getByRole('textbox', { name: 'Tolerancja p' }).fill('3');
    await snap(page, 'criteria-create-profile', { only: 'desktop' });
    await page.getByRole('button', { name: 'Dodaj badanie' }).click();
    await expect(page).toHaveURL(/\/research\/[0-9a-f-]{36}\/edit$/);
    researchId = /\/research\/([0-9a-f-]{36})\/edit$/.exec(page.url())?.[1] ?? '';

    const research = await (
      await request.get(`${API}/research/${researchId}`, { headers: { Authorization: `Bearer ${token}` } })
    ).json();
    expect(research).toMatchObject({ ...DOOR_PROFILE, heating_curve: 'iso834', criteria_basis: 'rise' });
    // The edit page shows the profile back.
    await expect(page.getByRole('textbox', { name: 'Planowany czas badania' })).toHaveValue('60 min');

    const upload = await request.post(`${API}/research/thermo`, {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        research_id: researchId,
        image_file: photo('drzwi.png'),
        config_file: configFile('drzwi.txt', CONFIG),
      },
    });
    expect(upload.ok(), `upload config: ${upload.status()}`).toBeTruthy();
    await publishFrames(researchId);
    await expect.poll(() => elapsed(request, token, researchId), { timeout: 60_000 }).toBe(LAST);
  });

  test('the live side panel: T0, rises against T0 + K, d_e in green; an observation with one click', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/view`);
    const panel = page.getByTestId('criteria-panel');
    await expect(panel.getByTestId('criteria-t0-value')).toHaveText('20.3 °C');
    await expect(panel.getByTestId('criteria-t0-source')).toContainText('automatycznie');
    await expect(panel.getByTestId('criteria-de-value')).toHaveText('−5.00 %');
    await expect(panel.getByTestId('criteria-de-value')).toHaveAttribute('data-ok', 'true');
    await expect(panel.getByTestId('criteria-de-tolerance')).toHaveText('tolerancja ±15.00 %');
    const category = page.locator('[data-testid="category"][data-category="Tśr i Tmax"]');
    await expect(category.getByTestId('category-max-limit')).toHaveText('≤ T0 + 180 K = 200.3 °C');
    await expect(category.getByTestId('category-mean-limit')).toHaveText('≤ T0 + 140 K = 160.3 °C');
    // At 10:00 the face is 80.0 / 80.5 °C: a mean rise of 60.0 K, a max rise of 60.3 K.
    await expect(category.getByTestId('category-mean')).toHaveText('+60.0 K · 80.3 °C');
    await expect(category.getByTestId('category-max')).toHaveText('+60.3 K · 80.5 °C');
    await expect(panel.getByTestId('criterion-E')).toHaveText(/10 min$/);

    // One click, made visible to clients; the list and the curves show it.
    await page.getByLabel('Nowe obserwacje widoczne dla klientów').check();
    await page.getByTestId('observe-cotton_pad').click();
    const observation = page.getByTestId('observation').filter({ hasText: 'Zapłon tamponu bawełnianego' });
    await expect(observation).toContainText('00:10:00');
    await expect(observation).toHaveAttribute('data-visible', 'true');
    // The first integrity observation ends E: the panel shows when.
    await expect(panel.getByTestId('criterion-E')).toHaveAttribute('data-failed', 'true');
    await expect(panel.getByTestId('criterion-E')).toContainText('00:10:00');
    await page.getByTestId('live-curves-slot').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('live-curves')).toHaveAttribute('data-loaded', 'true');
    await page.getByTestId('criteria-panel').scrollIntoViewIfNeeded();
    await snap(page, 'criteria-live', { only: 'desktop' });
    await page.locator('aside').screenshot({ path: 'test-results/screenshots/criteria-side-panel.png' });
  });

  test('the monitor: T0 and d_e in green', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/monitor`);
    await expect(page.getByTestId('monitor-t0-value')).toHaveText('20.3');
    await expect(page.getByTestId('monitor-de-value')).toHaveText('−5.00 %');
    await expect(page.getByTestId('monitor-de-tolerance')).toHaveAttribute('data-ok', 'true');
    await snap(page, 'criteria-monitor', { only: 'desktop', fullPage: false });
  });

  test('the history: T0, d_e, the criteria in completed minutes and the observation', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const summary = page.getByTestId('criteria-summary');
    await expect(summary.getByTestId('history-t0-value')).toHaveText('20.3 °C');
    await expect(summary.getByTestId('history-de-value')).toHaveText('−5.00 %');
    await expect(summary.getByTestId('criteria-row-E')).toHaveAttribute('data-reached', 'true');
    await expect(summary.getByTestId('criteria-row-E')).toContainText('00:10:00');
    await expect(summary.getByTestId('history-limits')).toContainText('T0 + 180 K = 200.3 °C');
    await expect(summary.getByTestId('observation').filter({ hasText: 'Zapłon tamponu bawełnianego' })).toContainText(
      'Widoczna dla klientów',
    );
    await expect(page.getByTestId('history-chart')).toBeVisible();
    await page.waitForTimeout(1000);
    await snap(page, 'criteria-history', { only: 'desktop' });
  });

  test('a client sees the criteria and only the observations made visible to them', async ({ page, request }) => {
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const headers = { Authorization: `Bearer ${token}` };
    const hidden = await request.post(`${API}/research/${researchId}/observations`, {
      headers,
      data: { kind: 'note', note: 'tylko dla laboratorium', visible_to_clients: false },
    });
    expect(hidden.ok(), `hidden note: ${hidden.status()}`).toBeTruthy();
    const email = await request.post(`${API}/research/emails`, {
      headers,
      data: { research_id: researchId, email: `klient-${Date.now().toString(36)}@example.com` },
    });
    expect(email.ok(), `client e-mail: ${email.status()}`).toBeTruthy();
    const code = ((await email.json()) as { id: string }).id;

    await page.goto(`/view/${researchId}?code=${code}`);
    const panel = page.getByTestId('criteria-panel');
    await expect(panel.getByTestId('criteria-t0-value')).toHaveText('20.3 °C');
    await expect(panel.getByTestId('criteria-de-value')).toHaveText('−5.00 %');
    await expect(page.getByTestId('observation')).toHaveCount(1);
    await expect(page.getByTestId('observation')).toContainText('Zapłon tamponu bawełnianego');
    await expect(page.getByText('tylko dla laboratorium')).toHaveCount(0);
    // No staff controls for a client.
    await expect(page.getByTestId('observation-controls')).toHaveCount(0);
    await expect(page.getByTestId('exclusion-controls')).toHaveCount(0);
  });
});
