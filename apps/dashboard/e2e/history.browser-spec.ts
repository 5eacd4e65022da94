import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
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
import { configFile, createResearchByApi, photo } from './support/research';
import { warsaw } from './support/dates';

/*
 * The staff history of a research whose readings went through the real pipeline: DAQ frames
 * published over MQTT to the embedded broker, stored by the ingest, read back by the history page.
 */
skipWithoutChromium();

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

/** Five thermocouples: two in 'Tśr i Tmax' (critical 180 max, 140 mean), 'Tmax', 'TDin' and 'T' (no threshold). */
const CONFIG = [
  'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
  '1;T1;Tśr i Tmax;#E53935;100;100;14;120;70;64;24',
  '2;T2;Tśr i Tmax;#FB8C00;200;120;14;220;90;64;24',
  '3;T3;Tmax;#1E88E5;300;150;14;320;120;64;24',
  '4;T4;TDin;#43A047;450;250;14;470;220;64;24',
  '5;T5;T;#8E24AA;200;300;14;220;330;64;24',
  '',
].join('\n');

const DURATION_S = 3600; // One frame a second for an hour: the page reads it in buckets.
const round1 = (value: number) => Math.round(value * 10) / 10;
/** ISO 834: what a furnace follows, °C. */
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

/**
 * The DAQ's readings at second t. T1 rises 0.1 °C/s from 20 °C: 180.0 at 1600 s, first above 180 at
 * 1601 s (00:26:41). T2 = T1 − 20, so the category mean T1 − 10 is first above 140 at 1301 s
 * (00:21:41). T3 sits at 30 °C but for a one-second spike to 250 °C at 2000 s (00:33:20), inside a
 * bucket of the whole-test read. T4 never reaches 180; T5 has no critical value.
 */
function frame(t: number, startAt: number) {
  const t1 = round1(20 + 0.1 * t);
  return {
    time: t,
    // The DAQ's clock: the history's time of day comes from it (ignition at the scheduled start here).
    ts: new Date(startAt + t * 1000).toISOString(),
    radiance: round1(0.5 + t / 1000),
    pressure: round1(12 + 3 * Math.sin(t / 30)),
    pk: round1(iso834(t) + 6 * Math.sin(t / 90)),
    thermocouples_out: [t1, round1(t1 - 20), t === 2000 ? 250 : 30, round1(20 + 0.03 * t), 500],
  };
}

const EXPECTED = {
  max: 1601,
  mean: 1301,
  spike: 2000,
};

/** Publishes the DAQ's frames of seconds `from`…`to` (both included), 200 at a time at QoS 1. */
async function publishFrames(researchId: string, startAt: number, from = 0, to = DURATION_S): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
    ...daqSignIn(),
    clientId: `e2e-daq-${Date.now()}`,
    clean: true,
  });
  try {
    const topic = `furnace/${researchId}/data`;
    for (let start = from; start <= to; start += 200) {
      const batch: Promise<unknown>[] = [];
      for (let t = start; t < Math.min(start + 200, to + 1); t++)
        batch.push(client.publishAsync(topic, JSON.stringify(frame(t, startAt)), { qos: 1 }));
      await Promise.all(batch);
    }
  } finally {
    await client.endAsync();
  }
}

async function storedFrames(request: APIRequestContext, token: string, researchId: string): Promise<number> {
  const response = await request.get(`${API}/research/${researchId}/history?points=2`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBeTruthy();
  return ((await response.json()) as { frames: number }).frames;
}

const row = (page: Page, type: string, kind: 'max' | 'mean') =>
  page.locator(`[data-testid="exceedance-row"][data-type="${type}"][data-kind="${kind}"]`);

test.describe.serial('the temperature history of a test', () => {
  let researchId = '';
  let researchName = '';
  let startAt = 0;

  test('a DAQ sends an hour of readings crossing 180 °C over MQTT', async ({ request }) => {
    test.setTimeout(240_000);
    researchName = `Ściana EI60 – historia ${Date.now().toString(36)}`;
    const research = await createResearchByApi(request, researchName, new Date(Date.now() - 2 * 3600_000), 4);
    researchId = research.id;
    startAt = Date.parse(research.start_at);
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const update = await request.put(`${API}/research/${researchId}`, {
      headers: { Authorization: `Bearer ${token}` },
      // The spec's absolute critical values: what the exceedance table below is about.
      data: { is_pressure: true, criteria_basis: 'absolute' },
    });
    expect(update.ok(), `enable pressure: ${update.status()}`).toBeTruthy();
    const upload = await request.post(`${API}/research/thermo`, {
      headers: { Authorization: `Bearer ${token}` },
      multipart: {
        research_id: researchId,
        image_file: photo('sciana.png'),
        config_file: configFile('sciana.txt', CONFIG),
      },
    });
    expect(upload.ok(), `upload config: ${upload.status()} ${await upload.text()}`).toBeTruthy();

    await publishFrames(researchId, startAt);
    await expect
      .poll(() => storedFrames(request, token, researchId), { timeout: 120_000, intervals: [500, 1000, 2000] })
      .toBe(DURATION_S + 1);
  });

  test('staff open it from the list: when each category first exceeded its critical value, and the chart', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto('/research');
    const listRow = page.getByTestId('research-table').getByRole('row').filter({ hasText: researchName });
    await listRow.getByRole('link', { name: 'Historia' }).click();
    await expect(page).toHaveURL(new RegExp(`/research/${researchId}/history$`));
    await expect(page.getByRole('heading', { name: 'Historia badania' })).toBeVisible();
    await expect(page.getByText(researchName)).toBeVisible();

    // Exact to the frame: the whole test is read in 3.6 s buckets, the crossing bucket again in full.
    const max = row(page, 'Tśr i Tmax', 'max');
    await expect(max).toContainText('Tmax > 180 °C');
    await expect(max.getByTestId('exceedance-elapsed')).toHaveText('00:26:41');
    await expect(max.getByTestId('exceedance-clock')).toHaveText(warsaw(new Date(startAt + EXPECTED.max * 1000)));
    const mean = row(page, 'Tśr i Tmax', 'mean');
    await expect(mean).toContainText('Tśr > 140 °C');
    await expect(mean.getByTestId('exceedance-elapsed')).toHaveText('00:21:41');
    await expect(mean.getByTestId('exceedance-clock')).toHaveText(warsaw(new Date(startAt + EXPECTED.mean * 1000)));
    // A one-second spike: found in its bucket's maximum, then to the second.
    await expect(row(page, 'Tmax', 'max').getByTestId('exceedance-elapsed')).toHaveText('00:33:20');
    await expect(row(page, 'TDin', 'max')).toContainText('Nie przekroczono');
    await expect(row(page, 'TDin', 'max')).toHaveAttribute('data-exceeded', 'false');
    await expect(page.locator('[data-testid="exceedance-row"][data-type="T"]')).toHaveCount(0);

    // The chart: drawn on a canvas, never more than 2 000 points per series.
    const chart = page.getByTestId('history-chart');
    await expect(chart.locator('canvas').first()).toBeVisible();
    await expect(chart).toHaveAttribute('data-max-points', /^\d+$/);
    const points = Number(await chart.getAttribute('data-max-points'));
    expect(points).toBeGreaterThan(1000);
    expect(points).toBeLessThanOrEqual(2000);
    const box = await chart.locator('canvas').first().boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(600);
    // Only what is drawn travels: no thermocouple's own series until it is ticked.
    await expect(page.getByTestId('thermo-toggles')).toContainText('Widoczne: 0 z 5');
    await snap(page, 'history');
  });

  test('zooming reads the range again from the server; a ticked thermocouple’s series is read', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const chart = page.getByTestId('history-chart');
    await expect(chart.locator('canvas').first()).toBeVisible();
    await expect(chart).toHaveAttribute('data-max-points', /\d/);

    const canvas = chart.locator('canvas').first();
    // Below the criteria summary: the wheel must turn over the chart.
    await canvas.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.55, box.y + 150);
    const detail = page.waitForRequest(
      (r) =>
        r.url().includes(`/research/${researchId}/history?`) &&
        /[?&]from=/.test(r.url()) &&
        /[?&]points=800/.test(r.url()),
    );
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -300);
    const url = new URL((await detail).url());
    const from = Number(url.searchParams.get('from'));
    const to = Number(url.searchParams.get('to'));
    expect(to - from).toBeLessThan(DURATION_S);
    expect(to - from).toBeGreaterThan(0);
    await expect(chart).not.toHaveAttribute('data-range', 'all');
    await expect(page.getByTestId('detail-loading')).toHaveCount(0);
    const zoomed = Number(await chart.getAttribute('data-max-points'));
    expect(zoomed).toBeLessThanOrEqual(2000);

    // Ticking a thermocouple reads its series (for the whole test and the zoomed range); unticking hides it again.
    const withT5 = page.waitForRequest(
      (r) => r.url().includes(`/research/${researchId}/history?`) && /[?&]thermo_ids=5(&|$)/.test(r.url()),
    );
    await page.getByRole('checkbox', { name: 'Pokaż termoparę T5' }).check();
    await withT5;
    await expect(page.getByTestId('thermo-toggles')).toContainText('Widoczne: 1 z 5');
    await expect(page.getByRole('checkbox', { name: 'Pokaż termoparę T5' })).toBeChecked();
    await expect(page.getByTestId('detail-loading')).toHaveCount(0);
    await snap(page, 'history-zoomed', { only: 'desktop' });
    // The tooltip: elapsed time and time of day, the values of the series at that moment.
    await canvas.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await canvas.hover({ position: { x: box.width * 0.5, y: 160 } }); // Inside the furnace grid.
    await expect(
      chart
        .locator('div')
        .filter({ hasText: /^\d\d:\d\d:\d\d · \d\d\.\d\d\.\d{4}/ })
        .last(),
    ).toBeVisible();
    // Where the tooltip is (snap() would resize the viewport and lose the scroll position).
    await page.screenshot({ path: join(SCREENSHOTS, 'history-tooltip-1280x800.png'), animations: 'disabled' });

    await page.getByRole('button', { name: 'Cały zakres' }).click();
    await expect(chart).toHaveAttribute('data-range', 'all');
  });

  test('the CSV and the XLSX download with every frame: Polish Excel format, decimal point, metadata, workbook', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const fetchFile = async (item: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        (async () => {
          await page.getByRole('button', { name: 'Pobierz dane' }).click();
          await page.getByRole('menuitem', { name: item }).click();
        })(),
      ]);
      return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
    };

    await page.getByRole('button', { name: 'Pobierz dane' }).click();
    await expect(page.getByRole('menuitem', { name: 'Skoroszyt Excel z kryteriami i termoparami' })).toBeVisible();
    await page.screenshot({ path: join(SCREENSHOTS, 'history-download-menu-1280x800.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');

    const polish = await fetchFile('Excel (średnik, przecinek dziesiętny)');
    expect(polish.name).toBe(`${researchName}.csv`);
    const text = polish.bytes.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]!.split(';').slice(0, 12)).toEqual([
      'Czas [s]',
      'Czas [min]',
      'Czas od zapłonu',
      'Data i godzina (Europe/Warsaw)',
      'Promieniowanie [kW/m²]',
      'Ciśnienie [Pa]',
      'Temperatura pieca [°C]',
      'T1 – Tśr i Tmax [°C]',
      'T2 – Tśr i Tmax [°C]',
      'T3 – Tmax [°C]',
      'T4 – TDin [°C]',
      'T5 – T [°C]',
    ]);
    expect(lines).toHaveLength(1 + DURATION_S + 1);
    // Frame 1601 (00:26:41): T1 = 180,1 °C with a decimal comma; its Warsaw time as Excel reads a date.
    const at1601 = lines.find((line) => line.startsWith('1601;'))!.split(';');
    expect(at1601.slice(1, 3)).toEqual(['26,6833', '00:26:41']);
    expect(at1601[3]!.replace(/^(\d{4})-(\d\d)-(\d\d) /, '$3.$2.$1, ')).toBe(warsaw(new Date(startAt + 1601 * 1000)));
    expect(at1601[7]).toBe('180,1');

    const english = (await fetchFile('Przecinek, kropka dziesiętna')).bytes.toString('utf8');
    expect(
      english
        .split('\r\n')
        .find((line) => line.startsWith('1601,'))
        ?.split(',')[7],
    ).toBe('180.1');

    const withMeta = await fetchFile('Excel z metadanymi');
    expect(withMeta.name).toBe(`${researchName}.csv`);
    const metaLines = withMeta.bytes.toString('utf8').slice(1).split('\r\n');
    expect(metaLines[0]).toBe(`Badanie;${researchName}`);
    expect(metaLines).toContain('Norma;EN 1363-1 — element ogólny');
    expect(metaLines[metaLines.findIndex((line) => line.startsWith('Czas [s];')) - 1]).toBe('');

    const workbook = await fetchFile('Skoroszyt Excel z kryteriami i termoparami');
    expect(workbook.name).toBe(`${researchName}.xlsx`);
    expect(workbook.bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04])); // a ZIP container, as every .xlsx
    expect(workbook.bytes.includes(Buffer.from('xl/worksheets/sheet1.xml'))).toBe(true);
  });

  test('the history in the dark theme', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto(`/research/${researchId}/history`);
    await expect(page.getByTestId('history-chart')).toHaveAttribute('data-max-points', /\d/);
    await snap(page, 'history-dark', { only: 'desktop' });
    await page.evaluate(() => localStorage.removeItem('theme'));
  });

  test('the edit page links to the history', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    await page.getByRole('link', { name: 'Historia' }).click();
    await expect(page).toHaveURL(new RegExp(`/research/${researchId}/history$`));
    await expect(page.getByTestId('exceedance-table')).toBeVisible();
  });
});

test('before ignition the history says the readings are stored, and draws them once time 0 has come', async ({
  page,
  request,
}) => {
  // The DAQ scans before ignition with negative times (docs/behaviour.md §3); the history starts at time 0.
  const research = await createResearchByApi(request, `Przed zapłonem ${Date.now().toString(36)}`, new Date(), 1);
  const startAt = Date.parse(research.start_at);
  await publishFrames(research.id, startAt, -30, -5);
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  await expect
    .poll(async () => {
      const response = await request.get(`${API}/research/${research.id}/history?points=2`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      return ((await response.json()) as { last_time: number | null }).last_time;
    })
    .toBe(-5);

  await signInWithToken(page, request, ADMIN.email, ADMIN.password);
  await page.goto(`/research/${research.id}/history`);
  await expect(page.getByTestId('history-empty')).toHaveText(
    'Przed zapłonem: odczyty sprzed zapłonu są zapisywane, a historia zaczyna się od zapłonu (czas 0) — według zegara DAQ za 5 s.',
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('history-chart')).toHaveCount(0);

  // Ignition: the page asks again by itself and draws the chart, with no reload.
  await publishFrames(research.id, startAt, 0, 20);
  await expect(page.getByTestId('history-chart')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('history-empty')).toHaveCount(0);
});
