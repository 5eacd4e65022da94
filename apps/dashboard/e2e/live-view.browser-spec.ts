import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { connectAsync, type MqttClient } from 'mqtt';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  firstLink,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  uniqueEmail,
  waitForMail,
  daqSignIn,
} from './support/fixtures';
import { configFile, photo } from './support/research';

/*
 * The live view over the real stack: the system started with `npm start`, a client opening the
 * invitation link from the e-mail in the outbox, frames published by MQTT to the embedded broker
 * (furnace/{id}/data) going through the ingest and the bus to the page's WebSocket.
 */
skipWithoutChromium();

interface Research {
  id: string;
  name: string;
}

async function adminHeaders(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request, ADMIN.email, ADMIN.password)}` };
}

/** A research with a photo + config (4 thermocouples), two camera links and one invited client. */
async function createResearch(
  request: APIRequestContext,
  options: { startAt: Date; endAt: Date; name: string; client: string },
): Promise<Research & { emailId: string }> {
  const headers = await adminHeaders(request);
  const created = await request.post(`${API}/research`, {
    headers,
    data: {
      name: options.name,
      start_at: options.startAt.toISOString(),
      end_at: options.endAt.toISOString(),
      is_radiance: true,
      is_furnance: true,
      is_pressure: true,
      // The spec's absolute critical values: what the category lines below compare with.
      criteria_basis: 'absolute',
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const research = (await created.json()) as Research;
  const thermo = await request.post(`${API}/research/thermo`, {
    headers,
    multipart: {
      research_id: research.id,
      image_file: photo('piec3-drzwi.png'),
      config_file: configFile('piec3-termopary.txt'),
    },
  });
  expect(thermo.ok(), await thermo.text()).toBeTruthy();
  for (const url of ['https://www.youtube.com/watch?v=aqz-KE-bpKQ', 'https://cams.example.com/piec3/index.m3u8']) {
    const response = await request.post(`${API}/research/urls`, { headers, data: { url, research_id: research.id } });
    expect(response.ok(), await response.text()).toBeTruthy();
  }
  const email = await request.post(`${API}/research/emails`, {
    headers,
    data: { research_id: research.id, email: options.client },
  });
  expect(email.ok(), await email.text()).toBeTruthy();
  const { id: emailId } = (await email.json()) as { id: string };
  return { ...research, emailId };
}

/** Sends the invitation through the API and returns the link in the e-mail the client received. */
async function invitationLink(request: APIRequestContext, emailId: string, client: string): Promise<string> {
  const sent = await request.post(`${API}/research/emails/${emailId}/send`, { headers: await adminHeaders(request) });
  expect(sent.ok(), await sent.text()).toBeTruthy();
  return firstLink(await waitForMail(client));
}

/** A DAQ publishing a frame every 300 ms: T1 warms up, T2 is above the Tmax critical value (180 °C). */
class Daq {
  private timer: NodeJS.Timeout | null = null;
  time = 0;
  constructor(
    private readonly client: MqttClient,
    private readonly researchId: string,
  ) {}

  static async start(researchId: string, fromTime = 0): Promise<Daq> {
    const port = process.env.E2E_MQTT_PORT;
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, {
      ...daqSignIn(),
      clientId: `e2e-daq-${randomUUID().slice(0, 8)}`,
    });
    const daq = new Daq(client, researchId);
    daq.time = fromTime;
    daq.timer = setInterval(() => daq.publish(), 300);
    return daq;
  }

  frame(time: number) {
    return {
      time,
      radiance: 1.84,
      pressure: 14.2,
      pk: 812.4,
      thermocouples_out: [150 + time / 10, 190.5, 60.25, null],
    };
  }

  private publish(): void {
    this.time += 1;
    void this.client.publishAsync(`furnace/${this.researchId}/data`, JSON.stringify(this.frame(this.time)), { qos: 1 });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.client.endAsync();
  }
}

interface CanvasLabel {
  text: string;
  fill: string;
  visible: boolean;
}

/** What the labels on the live canvas show (Konva puts itself on window; the label shape holds them). */
function canvasState(page: Page): Promise<CanvasLabel[]> {
  return page.evaluate(() => {
    type Shape = { getAttr(name: 'labels'): { text: string; fill: string; visible: boolean }[] };
    const konva = (window as unknown as { Konva: { stages: { findOne(selector: string): Shape | undefined }[] } })
      .Konva;
    const labels = konva.stages.at(-1)?.findOne('.thermo-labels')?.getAttr('labels') ?? [];
    return labels.map(({ text, fill, visible }) => ({ text, fill, visible }));
  });
}

const canvasLabels = async (page: Page) => (await canvasState(page)).map(({ text, visible }) => ({ text, visible }));
const canvasFills = async (page: Page) => (await canvasState(page)).map(({ fill }) => fill);

test.describe.serial('a client watches a test live', () => {
  const client = uniqueEmail('client-live');
  let research: Research & { emailId: string };
  let link = '';
  let daq: Daq | null = null;

  test.afterAll(async () => {
    await daq?.stop();
  });

  test('the invitation link shows the not-started screen, then the live view once the test starts', async ({
    page,
    request,
  }) => {
    const startAt = new Date(Date.now() + 25_000);
    research = await createResearch(request, {
      name: `Drzwi EI60 – na żywo ${Date.now().toString(36)}`,
      startAt,
      endAt: new Date(startAt.getTime() + 3 * 3600_000),
      client,
    });
    link = await invitationLink(request, research.emailId, client);
    expect(link).toContain(`/view/${research.id}?code=${research.emailId}`);

    await page.goto(link);
    await expect(page.getByText('Badanie jeszcze się nie zaczęło!')).toBeVisible();
    await expect(page.getByText('Prosimy cierpliwie czekać aż link stanie się aktywny.')).toBeVisible();
    await expect(page.getByText(research.name)).toHaveCount(0);
    await snap(page, 'live-not-started');

    // The page turns live by itself at start_at.
    await expect(page.getByRole('heading', { name: research.name })).toBeVisible({ timeout: 45_000 });
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '1');
    await expect(page.getByTestId('elapsed-value')).toHaveText('00:00:00');
    await expect(page.getByTestId('measurement-radiance-value')).toHaveText('---');

    daq = await Daq.start(research.id, 750);
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '2');
    await expect(page.getByTestId('connection-status')).toHaveText('Odbieranie danych');
    await expect(page.getByTestId('elapsed-value')).toHaveText(/^00:1[2-3]:\d\d$/);
    await expect(page.getByTestId('measurement-radiance-value')).toHaveText('1.8');
    await expect(page.getByTestId('measurement-pressure-value')).toHaveText('14.2');
    await expect(page.getByTestId('measurement-pk-value')).toHaveText('812.4');
    await expect(page.getByTestId('measurement-radiance')).toContainText('kW/m²');
    await expect(page.getByTestId('measurement-pressure')).toContainText('Pa');

    // Categories of the config: T1 'Tśr i Tmax', T2 'Tmax', T3 'TDin', T4 'T' (no critical values).
    const category = (name: string) => page.locator(`[data-testid="category"][data-category="${name}"]`);
    await expect(category('Tmax').getByTestId('category-max')).toHaveText('190.5 / 180.0 °C');
    await expect(category('Tmax').getByTestId('category-max')).toHaveAttribute('data-exceeded', 'true');
    await expect(category('Tśr i Tmax').getByTestId('category-mean')).toHaveText(/^22\d\.\d \/ 140\.0 °C$/);
    await expect(category('TDin').getByTestId('category-max')).toHaveText('60.3 / 180.0 °C');
    await expect(category('T').getByTestId('category-max')).toHaveCount(0);

    await expect
      .poll(() => canvasLabels(page))
      .toEqual(['T1', 'T2', 'T3', 'T4'].map((text) => ({ text, visible: true })));
    // T1 (≈225 °C) and T2 (190.5 °C) are above their critical max: light red labels.
    await expect
      .poll(() => canvasFills(page))
      .toEqual(['#ffcdd2', '#ffcdd2', 'rgba(255, 255, 255, 0.92)', 'rgba(255, 255, 255, 0.92)']);
    await expect(page.getByTestId('thermo-canvas')).toHaveAttribute('data-photo', 'loaded');
    await snap(page, 'live-view');
  });

  test("the client toggles 'tryb termopar' and the categories", async ({ page }) => {
    daq ??= await Daq.start(research.id, 750);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: research.name })).toBeVisible();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '2');

    const mode = page.getByRole('button', { name: 'tryb termopar' });
    await expect(mode).toHaveAttribute('aria-pressed', 'false');
    await mode.click();
    await expect(mode).toHaveAttribute('aria-pressed', 'true');
    await expect
      .poll(async () => (await canvasLabels(page)).map((label) => label.text))
      .toEqual([expect.stringMatching(/^2\d\d\.\d$/), '190.5', '60.3', '---']);

    const tmax = page.getByRole('button', { name: 'Pokaż lub ukryj termopary: Tmax' });
    await expect(tmax).toHaveAttribute('aria-pressed', 'true');
    await tmax.click();
    await expect(tmax).toHaveAttribute('aria-pressed', 'false');
    await expect
      .poll(async () => (await canvasLabels(page)).map((label) => label.visible))
      .toEqual([true, false, true, true]);
    await snap(page, 'live-view-thermo-mode');
    await tmax.click();
    await expect
      .poll(async () => (await canvasLabels(page)).map((label) => label.visible))
      .toEqual([true, true, true, true]);

    await mode.click();
    await expect
      .poll(async () => (await canvasLabels(page)).map((label) => label.text))
      .toEqual(['T1', 'T2', 'T3', 'T4']);
  });

  test('the client cycles the photo and the cameras, wrapping around', async ({ page }) => {
    await page.goto(link);
    await expect(page.getByRole('heading', { name: research.name })).toBeVisible();
    const position = page.getByTestId('view-position');
    await expect(position).toHaveText('Zdjęcie 1 z 1');
    await page.getByRole('button', { name: 'Następny widok' }).click();
    await expect(position).toHaveText('Kamera 1 z 2');
    const iframe = page.getByTitle('Podgląd z kamery');
    await expect(iframe).toHaveAttribute('src', 'https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1&mute=1');
    // Sandboxed: no top navigation, forms or pop-ups; no referrer (this page's URL holds the client's code).
    await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-presentation');
    await expect(iframe).toHaveAttribute('referrerpolicy', 'no-referrer');
    // 16:9.
    const box = await page.getByTestId('camera-view').boundingBox();
    expect((box?.width ?? 0) / (box?.height ?? 1)).toBeCloseTo(16 / 9, 1);
    await snap(page, 'live-camera-iframe', { only: 'desktop' });
    await page.getByRole('button', { name: 'Następny widok' }).click();
    await expect(position).toHaveText('Kamera 2 z 2');
    await expect(page.getByTestId('camera-view')).toHaveAttribute('data-kind', 'hls');
    await expect(page.locator('video[title="Podgląd z kamery"]')).toBeVisible();
    await snap(page, 'live-camera-hls', { only: 'desktop' });
    await page.getByRole('button', { name: 'Następny widok' }).click();
    await expect(position).toHaveText('Zdjęcie 1 z 1');
    await expect(page.getByTestId('thermo-canvas')).toBeVisible();
    await page.getByRole('button', { name: 'Poprzedni widok' }).click();
    await expect(position).toHaveText('Kamera 2 z 2');
  });

  test('the client switches the language to English and back', async ({ page }) => {
    await page.goto(link);
    await expect(page.getByRole('heading', { name: research.name })).toBeVisible();
    const select = page.getByRole('combobox', { name: 'Język / Language' });
    await expect(select).toHaveValue('pl');
    await select.selectOption('en');
    await expect(page.getByRole('button', { name: 'thermocouple mode' })).toBeVisible();
    await expect(page.getByText('Test duration')).toBeVisible();
    await expect(page.getByText('Average furnace temperature')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await snap(page, 'live-view-en');
    await select.selectOption('pl');
    await expect(page.getByRole('button', { name: 'tryb termopar' })).toBeVisible();
  });

  test('a wrong or missing code shows access denied and nothing of the research', async ({ page }) => {
    await page.goto(`/view/${research.id}?code=${randomUUID()}`);
    await expect(page.getByText('Brak dostępu')).toBeVisible();
    await expect(page.getByText(research.name)).toHaveCount(0);
    await expect(page.getByTestId('live-view')).toHaveCount(0);
    await snap(page, 'live-access-denied');

    await page.goto(`/view/${research.id}`);
    await expect(page.getByText('Brak dostępu')).toBeVisible();

    await page.goto(`/view/${randomUUID()}?code=${research.emailId}`);
    await expect(page.getByText('Badanie nie istnieje')).toBeVisible();
    await expect(page.getByText('Upewnij się czy wpisany link jest poprawny.')).toBeVisible();
    await snap(page, 'live-not-found');
  });

  test('staff open the furnace monitor from the staff view', async ({ page, request }) => {
    daq ??= await Daq.start(research.id, 750);
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${research.id}/view`);
    await expect(page.getByRole('heading', { name: research.name })).toBeVisible();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '2');
    await snap(page, 'live-staff-view');

    await page.getByRole('link', { name: 'Monitor pieca' }).click();
    await expect(page).toHaveURL(new RegExp(`/research/${research.id}/monitor$`));
    const monitor = page.getByTestId('monitor');
    await expect(monitor.getByRole('heading', { name: research.name })).toBeVisible();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '2');
    await expect(page.getByTestId('monitor-duration-value')).toHaveText(/^00:1\d:\d\d$/);
    await expect(page.getByTestId('monitor-radiance-value')).toHaveText('1.8');
    await expect(page.getByTestId('monitor-pressure-value')).toHaveText('14.2');
    await expect(page.getByTestId('monitor-pk-value')).toHaveText('812.4');
    await expect(page.getByTestId('monitor-thermo-max-value')).toHaveText(/^2\d\d\.\d$/);
    await expect(page.getByTestId('monitor-thermo-mean-value')).toHaveText(/^1\d\d\.\d$/);

    const auto = page.getByRole('button', { name: 'Tryb automatyczny' });
    await expect(auto).toHaveAttribute('aria-pressed', 'true');
    const preview = page.getByRole('button', { name: 'Podgląd termopar' });
    await preview.click();
    await expect(preview).toHaveAttribute('aria-pressed', 'true');
    await auto.click();
    await expect(auto).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('view-position')).toHaveText('Zdjęcie 1 z 1');
    await expect.poll(async () => (await canvasLabels(page)).map((label) => label.text)).toContain('190.5');
    await snap(page, 'live-monitor');

    await page.getByRole('button', { name: 'Odśwież' }).click();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-status', '2');
    await page.getByRole('combobox', { name: 'Język / Language' }).selectOption('en');
    await expect(page.getByRole('button', { name: 'Automatic mode' })).toBeVisible();
    await expect(page.getByText('Thermocouple maximum')).toBeVisible();
  });
});

test('the live view turns into the ended screen at end_at', async ({ page, request }) => {
  const client = uniqueEmail('client-ended');
  const endAt = new Date(Date.now() + 20_000);
  const research = await createResearch(request, {
    name: `Strop REI60 – koniec ${Date.now().toString(36)}`,
    startAt: new Date(Date.now() - 3600_000),
    endAt,
    client,
  });
  const link = await invitationLink(request, research.emailId, client);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: research.name })).toBeVisible();
  await expect(page.getByText('Badanie już się zakończyło!')).toBeVisible({ timeout: 40_000 });
  await expect(page.getByText('Link przestał być aktywny.')).toBeVisible();
  await expect(page.getByText(research.name)).toHaveCount(0);
  await snap(page, 'live-ended');
});
