import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
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

/*
 * The replay on the history page of a test whose frames went through the real pipeline (MQTT →
 * ingest → database): the slider and play show the photo's labels and the side panel of a moment.
 */
skipWithoutChromium();

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

const FIRST_S = -30; // Half a minute before ignition: T0 comes from it.
const LAST_S = 1200;
const round1 = (value: number) => Math.round(value * 10) / 10;
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * Math.max(0, t)) / 60 + 1);

/** CONFIG_TEXT's thermocouples: T1 'Tśr i Tmax' rises 0.1 °C/s from 20 °C, T2 'Tmax' = T1 − 5, T3 'TDin' 30, T4 'T' 500. */
function frame(t: number) {
  const t1 = round1(20 + 0.1 * Math.max(0, t));
  return {
    time: t,
    radiance: round1(0.5 + t / 1000),
    pk: round1(iso834(t)),
    thermocouples_out: [t1, round1(t1 - 5), 30, 500],
  };
}

async function publishFrames(researchId: string): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`, {
    ...daqSignIn(),
    clientId: `e2e-replay-${Date.now()}`,
    clean: true,
  });
  try {
    const topic = `furnace/${researchId}/data`;
    const batch: Promise<unknown>[] = [];
    for (let t = FIRST_S; t <= LAST_S; t++)
      batch.push(client.publishAsync(topic, JSON.stringify(frame(t)), { qos: 1 }));
    await Promise.all(batch);
  } finally {
    await client.endAsync();
  }
}

/** The labels drawn on the photo (Konva puts itself on window; the label shape holds them). */
function canvasLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Shape = { getAttr(name: 'labels'): { text: string }[] };
    const konva = (window as unknown as { Konva: { stages: { findOne(selector: string): Shape | undefined }[] } })
      .Konva;
    return (konva.stages.at(-1)?.findOne('.thermo-labels')?.getAttr('labels') ?? []).map(({ text }) => text);
  });
}

const category = (page: Page, name: string) => page.locator(`[data-testid="category"][data-category="${name}"]`);

test.describe.serial('replaying a stored test on its history page', () => {
  let researchId = '';

  test('a DAQ sends 20 minutes of readings over MQTT', async ({ request }) => {
    test.setTimeout(180_000);
    const research = await createResearchByApi(
      request,
      `Drzwi EI30 – odtwarzanie ${Date.now().toString(36)}`,
      new Date(Date.now() - 3 * 3600_000),
      2,
    );
    researchId = research.id;
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const headers = { Authorization: `Bearer ${token}` };
    const upload = await request.post(`${API}/research/thermo`, {
      headers,
      multipart: { research_id: researchId, image_file: photo('drzwi.png'), config_file: configFile() },
    });
    expect(upload.ok(), `upload config: ${upload.status()}`).toBeTruthy();
    await publishFrames(researchId);
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`${API}/research/${researchId}/frames?from=${LAST_S}`, { headers })).json()) as {
              last_time: number | null;
            }
          ).last_time,
        {
          timeout: 120_000,
        },
      )
      .toBe(LAST_S);
  });

  test('the slider shows the moment: elapsed time, values, rises over T0 and the temperatures on the photo', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const replay = page.getByTestId('replay');
    await expect(page.getByRole('heading', { name: 'Odtwarzanie' })).toBeVisible();
    // At first: the first stored frame, before ignition.
    await expect(replay.getByTestId('replay-time')).toHaveText('−00:00:30 z 00:20:00');
    await expect(replay.getByTestId('thermo-canvas')).toHaveAttribute('data-photo', 'loaded');

    const slider = replay.getByRole('slider', { name: 'Chwila badania' });
    await replay.getByTestId('replay-slider').scrollIntoViewIfNeeded();
    const box = (await replay.getByTestId('replay-slider').boundingBox())!;
    // A click at the middle of the track, then the arrows to exactly 10:00.
    // The slider's value changes when React renders the click, which may be after the click resolves.
    const value = async () => Number(await slider.getAttribute('aria-valuenow'));
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(async () => Math.abs((await value()) - 585)).toBeLessThan(60);
    const near = await value();
    await slider.focus();
    for (let i = 0, steps = Math.abs(600 - near); i < steps; i++)
      await page.keyboard.press(near < 600 ? 'ArrowRight' : 'ArrowLeft');
    await expect(slider).toHaveAttribute('aria-valuenow', '600');

    await expect(replay.getByTestId('replay-time')).toHaveText('00:10:00 z 00:20:00');
    await expect(replay.getByTestId('elapsed-value')).toHaveText('00:10:00');
    await expect(replay.getByTestId('measurement-pk-value')).toHaveText(String(frame(600).pk));
    await expect(replay.getByTestId('measurement-radiance-value')).toHaveText('1.1');
    // T0 20.0 °C from the frames before ignition; T1 at 80.0 °C is 60 K above it.
    await expect(replay.getByTestId('criteria-t0-value')).toHaveText('20.0 °C');
    await expect(category(page, 'Tśr i Tmax').getByTestId('category-max')).toContainText('80.0');
    await expect(category(page, 'Tmax').getByTestId('category-max')).toContainText('75.0');
    await expect(replay.getByTestId('criteria-de-value')).toHaveText(/^[+−-]?0\.\d\d %$/);
    // Temperature mode from the start: the photo's labels are the readings of 10:00.
    await expect.poll(() => canvasLabels(page)).toEqual(['80.0', '75.0', '30.0', '500.0']);
    await snap(page, 'replay-seek');
    await replay.screenshot({ path: join(SCREENSHOTS, 'replay-panel-1280x800.png'), animations: 'disabled' });

    // Back to a quarter of the test: values of that moment, not the newest seen.
    await replay.getByTestId('replay-slider').scrollIntoViewIfNeeded();
    const track = (await replay.getByTestId('replay-slider').boundingBox())!;
    await page.mouse.click(track.x + track.width / 4, track.y + track.height / 2);
    await expect.poll(value).toBeLessThan(600);
    const back = await value();
    const t1 = round1(20 + 0.1 * back).toFixed(1);
    await expect(category(page, 'Tśr i Tmax').getByTestId('category-max')).toContainText(t1);
    await expect.poll(() => canvasLabels(page)).toEqual([t1, round1(Number(t1) - 5).toFixed(1), '30.0', '500.0']);
  });

  test('play at 60× moves the time on by a minute a second, and pause stops it', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/history`);
    const replay = page.getByTestId('replay');
    await expect(replay.getByTestId('thermo-canvas')).toHaveAttribute('data-photo', 'loaded');
    await replay.getByTestId('replay-speed').getByText('60×').click();
    const time = async () => Number(await replay.getByTestId('replay-time').getAttribute('data-time'));
    const before = await time();
    await replay.getByRole('button', { name: 'Odtwórz' }).click();
    await expect(replay.getByTestId('replay-play')).toHaveAttribute('data-playing', 'true');
    // A minute of the test within a few seconds of playback (not timed: only that it advances).
    await expect.poll(time, { timeout: 15_000 }).toBeGreaterThan(before + 60);
    await expect.poll(() => canvasLabels(page)).not.toEqual(['20.0', '15.0', '30.0', '500.0']);
    await replay.getByRole('button', { name: 'Wstrzymaj' }).click();
    await expect(replay.getByTestId('replay-play')).toHaveAttribute('data-playing', 'false');
    const stopped = await time();
    await page.waitForTimeout(1000);
    expect(await time()).toBe(stopped);
    const elapsed = await replay.getByTestId('elapsed-value').textContent();
    expect(elapsed).toMatch(/^00:\d\d:\d\d$/);
    await snap(page, 'replay-playing', { only: 'desktop' });

    // A seek to the end (a window not read yet): how long until the side panel shows its values,
    // measured in the page and reported, not asserted (docs/performance.md).
    const shownAfterMs = await replay.getByRole('slider', { name: 'Chwila badania' }).evaluate(
      (slider) =>
        new Promise<number>((resolve) => {
          const elapsed = document.querySelector('[data-testid="replay"] [data-testid="elapsed-value"]')!;
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (elapsed.textContent !== '00:20:00') return;
            observer.disconnect();
            resolve(performance.now() - start);
          });
          observer.observe(elapsed, { childList: true, subtree: true, characterData: true });
          slider.focus();
          slider.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
        }),
    );
    test.info().annotations.push({ type: 'seek → values shown', description: `${shownAfterMs.toFixed(0)} ms` });
    console.log(`seek → values shown: ${shownAfterMs.toFixed(0)} ms`);
    await expect(replay.getByTestId('replay-time')).toHaveText('00:20:00 z 00:20:00');
    await expect(replay.getByTestId('elapsed-value')).toHaveText('00:20:00');
    await expect.poll(() => canvasLabels(page)).toEqual(['140.0', '135.0', '30.0', '500.0']);
  });

  test('the frames are staff only: a request without a token is refused', async ({ request }) => {
    expect((await request.get(`${API}/research/${researchId}/frames?from=0&to=60`)).status()).toBe(401);
  });
});
