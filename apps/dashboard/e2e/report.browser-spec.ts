import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectAsync } from 'mqtt';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  signInWithToken,
  skipWithoutChromium,
  test,
  daqSignIn,
} from './support/fixtures';
import { configFile, createResearchByApi, photo } from './support/research';

/*
 * The "Raport PDF" button of the history page: the PDF the API makes of a test whose readings went
 * through the real pipeline (MQTT → ingest → database), downloaded by the browser under the server's name.
 */
skipWithoutChromium();

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

test.describe.serial('the PDF report of a test', () => {
  let researchId = '';
  let researchName = '';

  test('ten minutes of readings arrive over MQTT', async ({ request }) => {
    researchName = `Ściana EI30 – raport ${Date.now().toString(36)}`;
    const research = await createResearchByApi(request, researchName, new Date(Date.now() - 3600_000), 2);
    researchId = research.id;
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const upload = await request.post(`${API}/research/thermo`, {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { research_id: researchId, image_file: photo('sciana.png'), config_file: configFile('sciana.txt') },
    });
    expect(upload.ok(), `upload config: ${upload.status()} ${await upload.text()}`).toBeTruthy();
    const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
      ...daqSignIn(),
      clientId: `e2e-report-${Date.now()}`,
      clean: true,
    });
    try {
      const frames = Array.from({ length: 61 }, (_, i) => i * 10);
      await Promise.all(
        frames.map((t) =>
          client.publishAsync(
            `furnace/${researchId}/data`,
            JSON.stringify({ time: t, pk: iso834(t), radiance: 0.5, thermocouples_out: [20 + t / 60, 21, 22] }),
            { qos: 1 },
          ),
        ),
      );
    } finally {
      await client.endAsync();
    }
    await expect
      .poll(
        async () =>
          (
            (await (
              await request.get(`${API}/research/${researchId}/history?points=2`, {
                headers: { Authorization: `Bearer ${token}` },
              })
            ).json()) as { frames: number }
          ).frames,
      )
      .toBe(61);
  });

  test('staff download it from the history page: a PDF named after the test', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    await page.getByRole('button', { name: 'Raport PDF' }).click();
    await expect(page.getByRole('menuitem', { name: 'Po polsku' })).toBeVisible();
    await page.screenshot({ path: join(SCREENSHOTS, 'history-report-menu-1280x800.png'), animations: 'disabled' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Po polsku' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`raport-${researchName}.pdf`);
    const bytes = readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(10_000);

    const [english] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Raport PDF' }).click();
        await page.getByRole('menuitem', { name: 'Po angielsku (English)' }).click();
      })(),
    ]);
    expect(english.suggestedFilename()).toBe(`report-${researchName}.pdf`);
    expect(
      readFileSync(await english.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });
});
