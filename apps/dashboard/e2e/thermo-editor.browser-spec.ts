import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  ADMIN,
  API,
  apiToken,
  expect,
  signInWithToken,
  skipWithoutChromium,
  snap,
  test,
  toast,
} from './support/fixtures';
import { makePng } from './support/png';
import { createResearchByApi, photo } from './support/research';

/*
 * The thermocouple editor driven with the mouse and the keyboard (docs/behaviour.md §4.8): a photo
 * alone, three markers placed, one dragged, one nudged, a type and a zone changed, undo and redo, saved; the
 * markers persist, the live view redraws them, and the downloaded file uploads back to the same markers.
 */

skipWithoutChromium();

const section = (page: Page): Locator => page.getByRole('region', { name: 'Konfiguracje termopar', exact: true });
const editor = (page: Page): Locator => page.getByTestId('thermo-editor');
const row = (page: Page, name: string): Locator =>
  editor(page)
    .getByTestId('editor-row')
    .filter({ has: page.getByLabel(`Nazwa termopary ${name}`) });
const position = (page: Page, name: string) => row(page, name).getByTestId('editor-position');

/** Where photo pixel (x, y) is on the screen, from the view the canvas reports. */
async function onScreen(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const canvas = editor(page).getByTestId('editor-canvas');
  const box = await canvas.boundingBox();
  const [scale, vx, vy] = await Promise.all(
    ['data-scale', 'data-x', 'data-y'].map(async (a) => Number(await canvas.getAttribute(a))),
  );
  if (!box || !scale) throw new Error('the editor canvas has no view');
  return { x: box.x + (vx ?? 0) + x * scale, y: box.y + (vy ?? 0) + y * scale };
}

/** A marker's square position as its row shows it. */
async function positionOf(page: Page, name: string): Promise<[number, number]> {
  const [x, y] = ((await position(page, name).textContent()) ?? '').split(',').map(Number);
  return [x ?? NaN, y ?? NaN];
}

/** The square of `name` is at (x, y), give or take the pixel(s) a screen pointer rounds to. */
async function expectNear(page: Page, name: string, x: number, y: number, within = 1): Promise<[number, number]> {
  await expect
    .poll(
      async () => {
        const [px, py] = await positionOf(page, name);
        return Math.abs(px - x) <= within && Math.abs(py - y) <= within;
      },
      { message: `${name} near ${x}, ${y}` },
    )
    .toBe(true);
  return positionOf(page, name);
}

async function clickPhoto(page: Page, x: number, y: number): Promise<void> {
  const at = await onScreen(page, x, y);
  await page.mouse.click(at.x, at.y);
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const a = await onScreen(page, from.x, from.y);
  const b = await onScreen(page, to.x, to.y);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

type StoredMarker = { id: string; config_id: string; [field: string]: unknown };
async function markersOf(request: APIRequestContext, configId: string): Promise<Record<string, unknown>[]> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const res = await request.get(`${API}/research/thermo/${configId}/coords`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { data: StoredMarker[] }).data.map(
    ({ id: _id, config_id: _config, ...marker }) => marker,
  );
}

/** The marker squares the live view's canvas draws (Konva is on window; squares are its Rects with a marker colour). */
function liveSquares(page: Page): Promise<{ x: number; y: number; fill: string }[]> {
  return page.evaluate(() => {
    type Rect = { x(): number; y(): number; fill(): string };
    const konva = (window as unknown as { Konva: { stages: { find(selector: string): Rect[] }[] } }).Konva;
    const stage = konva.stages.at(-1);
    return (stage?.find('Rect') ?? []).map((r) => ({ x: r.x(), y: r.y(), fill: r.fill() })).sort((a, b) => a.x - b.x);
  });
}

/** The editor as it looks (test-results/screenshots/editor-<name>-1280x800.png). */
const shot = (page: Page, name: string) => snap(page, `editor-${name}`, { fullPage: false, only: 'desktop' });

test.describe.serial('placing thermocouples on the photo in the editor', () => {
  let researchId = '';
  let configId = '';
  let savedT1: [number, number] = [0, 0];
  let savedT2: [number, number] = [0, 0];

  test('place, drag, nudge, retype, undo/redo and save; the live view redraws at once', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(180_000);
    researchId = (
      await createResearchByApi(request, `Edytor termopar ${Date.now().toString(36)}`, new Date(Date.now() - 60_000))
    ).id;
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);

    // A photo alone: the markers are placed in the editor.
    const chooser = page.waitForEvent('filechooser');
    await section(page).getByRole('button', { name: 'Utwórz w edytorze' }).click();
    await (await chooser).setFiles(photo('piec-edytor.png'));
    await expect(page.getByRole('dialog', { name: 'Edytor termopar' })).toBeVisible();
    await expect(editor(page).getByRole('heading', { name: 'Edytor termopar: piec-edytor.png' })).toBeVisible();
    await expect(editor(page).getByTestId('editor-canvas')).toHaveAttribute('data-scale', /\d/);
    await expect(editor(page).getByTestId('editor-empty')).toBeVisible();
    await expect(editor(page).getByRole('button', { name: 'Zapisz' })).toBeDisabled();
    await shot(page, '1-empty-editor');

    await clickPhoto(page, 100, 100);
    await clickPhoto(page, 300, 150);
    await clickPhoto(page, 450, 250);
    await expect(editor(page).getByTestId('editor-row')).toHaveCount(3);
    const t1 = await expectNear(page, 'T1', 93, 93);
    const t2 = await expectNear(page, 'T2', 293, 143);
    const t3 = await expectNear(page, 'T3', 443, 243);
    await expect(editor(page).getByLabel('Typ termopary T3')).toHaveValue('Tśr i Tmax');

    // Drag T2's square by (+50, +40): its label comes with it.
    await drag(page, { x: t2[0] + 7, y: t2[1] + 7 }, { x: t2[0] + 57, y: t2[1] + 47 });
    const t2moved = await expectNear(page, 'T2', t2[0] + 50, t2[1] + 40);
    // Drag T3's label alone, over the right edge: it stays inside the photo, the square where it was.
    await drag(page, { x: t3[0] + 50, y: t3[1] + 7 }, { x: 700, y: t3[1] + 7 });
    await expect(position(page, 'T3')).toHaveText(`${t3[0]}, ${t3[1]}`);

    // Keyboard: T1 selected from its row, 3 × → (1 px) and Shift+↓ (10 px).
    await row(page, 'T1').getByRole('button', { name: 'Zaznacz termoparę T1' }).click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await expect(position(page, 'T1')).toHaveText(`${t1[0] + 3}, ${t1[1] + 10}`);

    // A type from the list; undo and redo with the keys and the buttons.
    await editor(page).getByLabel('Typ termopary T3').selectOption('Tmax ościeżnicy');
    await expect(editor(page).getByLabel('Typ termopary T3')).toHaveValue('Tmax ościeżnicy');
    await editor(page).getByTestId('editor-canvas').focus();
    await page.keyboard.press('Control+z');
    await expect(editor(page).getByLabel('Typ termopary T3')).toHaveValue('Tśr i Tmax');
    await page.keyboard.press('Control+z');
    await expect(position(page, 'T1')).toHaveText(`${t1[0] + 3}, ${t1[1]}`);
    await page.keyboard.press('Control+Shift+z');
    await expect(position(page, 'T1')).toHaveText(`${t1[0] + 3}, ${t1[1] + 10}`);
    await editor(page).getByRole('button', { name: 'Ponów (Ctrl+Shift+Z)' }).click();
    await expect(editor(page).getByLabel('Typ termopary T3')).toHaveValue('Tmax ościeżnicy');
    // T2 counts for I2 only (EN 1634-1: a leaf thermocouple within 100 mm of the edge); undone and redone like the rest.
    const zoneT2 = editor(page).getByLabel('Strefa izolacyjności termopary T2');
    await zoneT2.selectOption('I2');
    await editor(page).getByRole('button', { name: 'Cofnij (Ctrl+Z)' }).click();
    await expect(zoneT2).toHaveValue('');
    await editor(page).getByRole('button', { name: 'Ponów (Ctrl+Shift+Z)' }).click();
    await expect(zoneT2).toHaveValue('I2');
    await shot(page, '2-placed-markers');

    // A fourth marker whose label covers T3's is flagged; undone, the warning goes.
    await clickPhoto(page, 560, 250);
    await expect(editor(page).getByTestId('editor-warnings')).toContainText('Etykiety T3 i T4 nachodzą na siebie');
    await shot(page, '3-overlapping-labels');
    await editor(page).getByRole('button', { name: 'Cofnij (Ctrl+Z)' }).click();
    await expect(editor(page).getByTestId('editor-row')).toHaveCount(3);
    await expect(editor(page).getByTestId('editor-warnings')).toHaveCount(0);

    // Zoom in and out with the buttons (the markers keep their photo positions).
    const zoomText = editor(page).getByTestId('editor-zoom');
    const fitted = await zoomText.textContent();
    await editor(page).getByRole('button', { name: 'Powiększ' }).click();
    await editor(page).getByRole('button', { name: 'Powiększ' }).click();
    await expect(zoomText).not.toHaveText(fitted ?? '');
    await shot(page, '4-zoomed');
    await editor(page).getByRole('button', { name: 'Dopasuj do okna' }).click();
    await expect(zoomText).toHaveText(fitted ?? '');

    await editor(page).getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Konfiguracja termopar zapisana')).toBeVisible();
    await expect(section(page).getByTestId('thermo-row')).toHaveCount(1);
    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const configs = await request.get(`${API}/research/${researchId}/thermo`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    configId = ((await configs.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
    const saved: [number, number][] = [[t1[0] + 3, t1[1] + 10], t2moved, t3];
    expect((await markersOf(request, configId)).map((m) => [m.name, m.type_name, m.item_x, m.item_y, m.zone])).toEqual([
      ['T1', 'Tśr i Tmax', ...saved[0]!, null],
      ['T2', 'Tśr i Tmax', ...saved[1]!, 'I2'],
      ['T3', 'Tmax ościeżnicy', ...saved[2]!, null],
    ]);

    // A live view open meanwhile redraws as soon as the next save lands.
    const liveContext = await browser.newContext();
    const live = await liveContext.newPage();
    await signInWithToken(live, request, ADMIN.email, ADMIN.password);
    await live.goto(`/research/${researchId}/view`);
    await expect(live.getByTestId('thermo-canvas')).toBeVisible();
    await expect.poll(() => liveSquares(live).then((s) => s.map((q) => [q.x, q.y]))).toEqual(saved);
    await row(page, 'T1').getByRole('button', { name: 'Zaznacz termoparę T1' }).click();
    await page.keyboard.press('Shift+ArrowRight');
    await editor(page).getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Konfiguracja termopar zapisana').last()).toBeVisible();
    await expect
      .poll(() => liveSquares(live).then((s) => s[0] && [s[0].x, s[0].y]))
      .toEqual([saved[0]![0] + 10, saved[0]![1]]);
    savedT1 = [saved[0]![0] + 10, saved[0]![1]];
    savedT2 = saved[1]!;
    await shot(live, '5-live-view-after-save');
    await liveContext.close();
  });

  test('the saved positions come back after a reload, and the downloaded file uploads back to the same markers', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    await section(page).getByRole('button', { name: 'Edytuj termopary na zdjęciu piec-edytor.png' }).click();
    await expect(editor(page).getByTestId('editor-row')).toHaveCount(3);
    await expect(position(page, 'T1')).toHaveText(savedT1.join(', '));
    await expect(position(page, 'T2')).toHaveText(savedT2.join(', '));
    await expect(editor(page).getByLabel('Typ termopary T3')).toHaveValue('Tmax ościeżnicy');
    await expect(editor(page).getByLabel('Strefa izolacyjności termopary T2')).toHaveValue('I2');
    await expect(editor(page).getByLabel('Strefa izolacyjności termopary T1')).toHaveValue('');

    const downloading = page.waitForEvent('download');
    await editor(page).getByRole('button', { name: 'Pobierz .txt' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('piec-edytor.txt');
    const text = readFileSync(await download.path(), 'utf8');
    // T2's zone adds the 12th column.
    expect(text.split('\n')[0]).toBe(
      'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height;zone',
    );
    await editor(page).getByRole('button', { name: 'Zamknij' }).click();
    await expect(editor(page)).toHaveCount(0);

    // The downloaded file, uploaded with the photo as a new config.
    const thermo = section(page);
    await thermo.getByTestId('thermo-image').setInputFiles(photo('piec-kopia.png'));
    await thermo
      .getByTestId('thermo-config')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: 'text/plain', buffer: Buffer.from(text, 'utf8') });
    await expect(thermo.getByText('Termopary w pliku: 3')).toBeVisible();
    await thermo.getByRole('button', { name: 'Dodaj' }).click();
    await expect(toast(page, 'Konfiguracja poprawnie dodana')).toBeVisible();
    await expect(thermo.getByTestId('thermo-row')).toHaveCount(2);
    await expect(page.getByTestId('thermo-thumbnail')).toHaveCount(2);
    await thermo.scrollIntoViewIfNeeded();
    await shot(page, '8-edit-page-configs');

    const token = await apiToken(request, ADMIN.email, ADMIN.password);
    const configs = (
      (await (
        await request.get(`${API}/research/${researchId}/thermo`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { data: { id: string }[] }
    ).data;
    const copy = configs.find((c) => c.id !== configId);
    expect(copy).toBeDefined();
    expect(await markersOf(request, copy?.id ?? '')).toEqual(await markersOf(request, configId));
    // The card's own download is the stored file: the same text.
    const cardDownload = page.waitForEvent('download');
    // Both cards carry that file name now; the first is the editor's config.
    await thermo.getByRole('button', { name: 'Pobierz plik konfiguracji piec-edytor.txt' }).first().click();
    expect(readFileSync(await (await cardDownload).path(), 'utf8')).toBe(text);
  });

  test('a refused save names the line and field, and the markers stay as they were', async ({ page, request }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    await section(page).getByRole('button', { name: 'Edytuj termopary na zdjęciu piec-edytor.png' }).click();
    await expect(editor(page).getByTestId('editor-row')).toHaveCount(3);
    // Two thermocouples on one channel: warned here, refused by the server's parser.
    const number = editor(page).getByLabel('Numer termopary T2');
    await number.fill('1');
    await number.press('Enter');
    await expect(editor(page).getByTestId('editor-warnings')).toContainText('Numer 1 ma więcej niż jedna termopara');
    await editor(page).getByRole('button', { name: 'Zapisz' }).click();
    await expect(editor(page).getByTestId('editor-errors')).toContainText(
      'line 3, thermo_id: 1 is already used on line 2',
    );
    await expect(row(page, 'T2')).toHaveAttribute('data-flagged', 'true');
    await expect(row(page, 'T1')).not.toHaveAttribute('data-flagged');
    await shot(page, '6-refused-save');
    expect((await markersOf(request, configId)).map((m) => m.thermo_id)).toEqual([1, 2, 3]);
  });

  test('a large photo zooms with the wheel about the pointer and pans by dragging its background', async ({
    page,
    request,
  }) => {
    await signInWithToken(page, request, ADMIN.email, ADMIN.password);
    await page.goto(`/research/${researchId}/edit`);
    const chooser = page.waitForEvent('filechooser');
    await section(page).getByRole('button', { name: 'Utwórz w edytorze' }).click();
    await (await chooser).setFiles({ name: 'sciana-duza.png', mimeType: 'image/png', buffer: makePng(2400, 1600) });
    const canvas = editor(page).getByTestId('editor-canvas');
    await expect(canvas).toHaveAttribute('data-scale', /\d/);
    const fittedScale = Number(await canvas.getAttribute('data-scale'));
    const zoomText = editor(page).getByTestId('editor-zoom');
    const fitted = await zoomText.textContent();

    // The wheel zooms about the pointer: the photo pixel under it stays under it.
    const pointer = await onScreen(page, 1800, 400);
    await page.mouse.move(pointer.x, pointer.y);
    for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
    await expect(zoomText).not.toHaveText(fitted ?? '');
    // Each wheel step is rendered in turn: wait for all six, not the first.
    await expect.poll(async () => Number(await canvas.getAttribute('data-scale'))).toBeGreaterThan(fittedScale * 2);
    await page.mouse.click(pointer.x, pointer.y);
    // A larger square on a large photo (34 px), centred under the pointer (one screen pixel is ~2 photo pixels here).
    const placed = await expectNear(page, 'T1', 1800 - 17, 400 - 17, 3);
    await expect(editor(page).getByLabel('Rozmiar termopary T1')).toHaveValue('34');
    await shot(page, '7-large-photo-zoomed');

    // Dragging the background moves the view, places nothing.
    const before = Number(await canvas.getAttribute('data-x'));
    const from = await onScreen(page, 1500, 700);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 120, from.y + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => Number(await canvas.getAttribute('data-x'))).toBeGreaterThan(before + 100);
    await expect(editor(page).getByTestId('editor-row')).toHaveCount(1);
    await expect(position(page, 'T1')).toHaveText(placed.join(', '));
  });
});
